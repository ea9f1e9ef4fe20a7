// What the service would refuse, found before anything is written: plan errors, each at the manifest position
// of the value that causes it. Static checks need the manifests only (`validate` runs them too): a unique value
// (a hostport) in two documents, a request body over the service's limit. Live checks need the lists: a literal
// id that names nothing live (or a resource the plan deletes), a unique value held by a resource this stack
// does not manage. Apply runs both before it takes the stack lock, listing only what the live checks read
// (liveCheckKinds), so a plan the service would refuse writes nothing, not even the lock record.
import { escapeSegment, valueAt } from '../contract/json.ts';
import { REQUEST_BODY_MAX_BYTES } from '../contract/limits.ts';
import type { ManifestIssue, SourcePos } from '../errors.ts';
import type { Json, LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredResource, DesiredState } from '../manifest/document.ts';
import { sourceValuePos } from '../manifest/pointer.ts';
import type { LiveState } from './live.ts';
import { METADATA_LIMIT } from '../kinds/marker.ts';
import { liveMetadata, markerOf } from './ownership.ts';
import type { Plan } from './plan-data.ts';
import { pointerSegments } from '../kinds/refs.ts';
import { placeholderIds, sentBody } from '../kinds/sent-body.ts';
import { uniqueValues } from './value-moves.ts';

/** A refusal the plan predicts: `file:line:col: Kind/name: message`, like a manifest problem. */
export type PlanError = ManifestIssue;

const where = (pos: SourcePos): string => `${pos.file}:${pos.line}:${pos.col}`;
const posOf = (r: DesiredResource, pointer: string): SourcePos => sourceValuePos(r, pointer);
const kindIndex = (kinds: readonly ResourceKind[]): Map<string, ResourceKind> => new Map(kinds.map((k) => [k.kind, k]));

interface UniqueSlot {
  pointer: string;
  value: string;
  /** `scope\0key`, as uniqueValues gives it. */
  key: string;
  scope: string;
}

/** Each value a document gives a field its kind declares unique, where it is written. */
function uniqueSlots(kind: ResourceKind | undefined, r: DesiredResource): UniqueSlot[] {
  const out: UniqueSlot[] = [];
  for (const u of kind?.unique ?? []) {
    const list = r.spec[u.field];
    if (!Array.isArray(list)) continue;
    list.forEach((value, i) => {
      if (typeof value === 'string') out.push({ pointer: `/${escapeSegment(u.field)}/${i}`, value, key: `${u.scope}\u0000${u.key(value)}`, scope: u.scope });
    });
  }
  return out;
}

/** The string values at a reference field's pointer, each with its concrete pointer (plain loops: run per document). */
function stringsAt(spec: Obj, pointer: string): { pointer: string; value: string }[] {
  const segments = pointerSegments(pointer);
  if (segments[segments.length - 1] !== '*') {
    const value = valueAt(spec, segments);
    return typeof value === 'string' ? [{ pointer, value }] : [];
  }
  const list = valueAt(spec, segments.slice(0, -1));
  if (!Array.isArray(list)) return [];
  const base = pointer.slice(0, -2);
  const out: { pointer: string; value: string }[] = [];
  for (let i = 0; i < list.length; i++) {
    const value = list[i];
    if (typeof value === 'string') out.push({ pointer: `${base}/${i}`, value });
  }
  return out;
}

/** The kind whose literal ids start like `id` (the longest prefix wins). */
function kindOfId(kinds: readonly ResourceKind[], id: string): ResourceKind | undefined {
  let best: ResourceKind | undefined;
  for (const k of kinds) if (k.idPrefix && id.startsWith(k.idPrefix) && k.idPrefix.length > (best?.idPrefix?.length ?? 0)) best = k;
  return best;
}

/** Each literal id a document writes in a reference field, with the kind its prefix names. */
function literalIds(kinds: readonly ResourceKind[], kind: ResourceKind | undefined, r: DesiredResource): { pointer: string; id: string; target?: ResourceKind }[] {
  const out: { pointer: string; id: string; target?: ResourceKind }[] = [];
  // A name became a PendingRef (no string); a literal id with a prefix the field does not take was refused by resolve.
  for (const ref of kind?.refs ?? []) for (const { pointer, value } of stringsAt(r.spec, ref.pointer)) out.push({ pointer, id: value, target: kindOfId(kinds, value) });
  return out;
}

/** Static: the same unique value (a hostport) in two documents, or twice in one: the service lets one resource hold it. */
function duplicateUniqueValues(kinds: ReadonlyMap<string, ResourceKind>, desired: DesiredState): PlanError[] {
  const errors: PlanError[] = [];
  const first = new Map<string, { r: DesiredResource; pointer: string }>();
  for (const r of desired.resources) {
    for (const slot of uniqueSlots(kinds.get(r.kind), r)) {
      const seen = first.get(slot.key);
      if (!seen) {
        first.set(slot.key, { r, pointer: slot.pointer });
        continue;
      }
      const other = seen.r === r ? `also at ${where(posOf(r, seen.pointer))}` : `also claimed by ${seen.r.address} at ${where(posOf(seen.r, seen.pointer))}`;
      errors.push({ pos: posOf(r, slot.pointer), address: r.address, message: `${slot.scope} "${slot.value}" is ${other}; the service lets one resource hold it at a time` });
    }
  }
  return errors;
}

const MIB = 1024 * 1024;
const size = (bytes: number): string => (bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`);

/** Characters of a value's strings and keys, plus a little per item: a lower bound of its JSON's length. */
function textLength(value: Json): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 8;
  let n = 2;
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) n += textLength(value[i]!) + 1;
  else for (const key in value) n += key.length + 4 + textLength(value[key]!);
  return n;
}

/**
 * Whether a document could make a body over the limit, found without building it (this runs for every
 * document of every plan): as sent, each character takes at most 6 in JSON (`\u0000`), policy text is escaped
 * once more, UTF-8 takes 3 bytes per unit, and the marker and the defaults add less than the metadata limit.
 */
const mayBeOversized = (spec: Obj): boolean => textLength(spec) * 36 + 2 * METADATA_LIMIT >= REQUEST_BODY_MAX_BYTES;

/**
 * Static: each resource's body as a create sends it (secrets included, the marker in its metadata) against the
 * service's limit. No request for the resource is larger: an update sends the changed fields, a module PUT one module.
 */
function oversizedBodies(kinds: ReadonlyMap<string, ResourceKind>, desired: DesiredState, stack: string): PlanError[] {
  const errors: PlanError[] = [];
  const ids = placeholderIds(kinds);
  for (const r of desired.resources) {
    const kind = kinds.get(r.kind);
    if (!kind || !mayBeOversized(r.spec)) continue;
    const body = sentBody(r, kind, { stack, ids });
    const bytes = Buffer.byteLength(JSON.stringify(body));
    if (bytes <= REQUEST_BODY_MAX_BYTES) continue;
    // Point at the largest field: the one to make smaller. Sizes only, never a value (it may be a secret).
    const fields = Object.entries(body).map(([field, v]) => ({ field, bytes: Buffer.byteLength(JSON.stringify(v)) }));
    const largest = fields.sort((a, b) => b.bytes - a.bytes)[0]!;
    errors.push({
      pos: posOf(r, `/${largest.field}`),
      address: r.address,
      message: `the request body would be ${size(bytes)} (${bytes} bytes, ${largest.field} ${size(largest.bytes)} of it); the service refuses bodies over ${size(REQUEST_BODY_MAX_BYTES)} (${REQUEST_BODY_MAX_BYTES} bytes) with 413`,
    });
  }
  return errors;
}

// Found once per manifest set: apply asks before its lock, again for the plan under it and for the check after it.
const foundStatic = new WeakMap<DesiredState, WeakMap<readonly ResourceKind[], Map<string, PlanError[]>>>();

/** The plan errors the manifests show on their own: `validate`, `plan` and `apply` (before its lock) report them. */
export function staticPlanErrors(kinds: readonly ResourceKind[], desired: DesiredState, stack: string): PlanError[] {
  let byKinds = foundStatic.get(desired);
  if (!byKinds) foundStatic.set(desired, (byKinds = new WeakMap()));
  let byStack = byKinds.get(kinds);
  if (!byStack) byKinds.set(kinds, (byStack = new Map()));
  let errors = byStack.get(stack);
  if (!errors) {
    const byName = kindIndex(kinds);
    byStack.set(stack, (errors = [...duplicateUniqueValues(byName, desired), ...oversizedBodies(byName, desired, stack)]));
  }
  return [...errors];
}

/**
 * The kinds whose lists livePlanErrors reads for these manifests: the kinds of the literal ids they write, and
 * the kinds holding unique values when a document claims one. Empty: the live checks need no request.
 */
export function liveCheckKinds(kinds: readonly ResourceKind[], desired: DesiredState): ResourceKind[] {
  const byName = kindIndex(kinds);
  const needed = new Set<ResourceKind>();
  const scopes = new Set<string>();
  for (const r of desired.resources) {
    const kind = byName.get(r.kind);
    for (const { target } of literalIds(kinds, kind, r)) if (target) needed.add(target);
    for (const slot of uniqueSlots(kind, r)) scopes.add(slot.scope);
  }
  for (const k of kinds) if (k.unique?.some((u) => scopes.has(u.scope))) needed.add(k);
  return kinds.filter((k) => needed.has(k));
}

interface LiveCheckOptions {
  /** The plan made from this live state: ids it deletes are then missing too. Absent in apply's pre-check. */
  plan?: Plan;
  /** `--adopt`: an unmarked holder of a value is adopted (the plan's live state then carries it as this stack's). */
  adopt: boolean;
}

/** Live: literal ids that name no live resource of their kind (lists not fetched are not judged). */
function missingIds(kinds: readonly ResourceKind[], desired: DesiredState, live: LiveState, plan: Plan | undefined): PlanError[] {
  const byName = kindIndex(kinds);
  const ids = new Map<string, Set<string>>();
  const idsOf = (kind: ResourceKind): Set<string> | undefined => {
    let set = ids.get(kind.kind);
    const items = live.byKind.get(kind.kind);
    if (!set && items) ids.set(kind.kind, (set = new Set(items.map((i) => i.id))));
    return set;
  };
  const goneBy = new Map<string, string>();
  for (const a of plan?.actions ?? []) {
    if (a.liveId && (a.op === 'delete' || a.op === 'replace')) goneBy.set(a.liveId, `is ${a.op === 'delete' ? 'deleted' : 'replaced (the new resource gets a new id)'} by this plan (${a.address})`);
  }
  const errors: PlanError[] = [];
  for (const r of desired.resources) {
    for (const { pointer, id, target } of literalIds(kinds, byName.get(r.kind), r)) {
      const known = target && idsOf(target);
      if (!known) continue;
      const gone = known.has(id) ? goneBy.get(id) : `names no ${target!.kind} in the account (the plan listed every live ${target!.kind})`;
      if (gone) errors.push({ pos: posOf(r, pointer), address: r.address, pointer, message: `"${id}" ${gone}` });
    }
  }
  return errors;
}

/** Live: unique values a document claims that a resource this stack does not manage holds. */
function heldValues(kinds: readonly ResourceKind[], desired: DesiredState, live: LiveState, stack: string, opts: LiveCheckOptions): PlanError[] {
  const byName = kindIndex(kinds);
  const holders = new Map<string, { kind: ResourceKind; item: LiveItem }[]>();
  for (const kind of kinds) {
    if (!kind.unique?.length) continue;
    for (const item of live.byKind.get(kind.kind) ?? []) {
      if (markerOf(kind, item)?.stack === stack) continue; // this stack's: the plan moves or releases its values
      for (const key of uniqueValues(kind, item.raw)) {
        const list = holders.get(key);
        if (list) list.push({ kind, item });
        else holders.set(key, [{ kind, item }]);
      }
    }
  }
  if (holders.size === 0) return [];
  const errors: PlanError[] = [];
  for (const r of desired.resources) {
    for (const slot of uniqueSlots(byName.get(r.kind), r)) {
      for (const { kind, item } of holders.get(slot.key) ?? []) {
        const marker = liveMetadata(item).marker;
        // Apply's pre-check runs before adoption: an unmarked holder may become this document's. The plan judges it.
        if (!marker && opts.adopt && !opts.plan) continue;
        // Another stack's resource is named as that stack names it (its marker); only an unmanaged one by its id.
        const holder = marker ? `${marker.name} (stack ${marker.stack})` : `the unmanaged ${kind.kind} ${item.id}`;
        const remedy = marker
          ? `remove it from stack ${marker.stack} first`
          : opts.adopt ? 'it was not adopted (see the warnings); remove it there first' : 'run plan/apply with --adopt to bring it under management, or remove it there first';
        errors.push({ pos: posOf(r, slot.pointer), address: r.address, message: `${slot.scope} "${slot.value}" is held by ${holder}, and the service lets one resource hold it at a time: ${remedy}` });
      }
    }
  }
  return errors;
}

/** The plan errors only live state shows. With `plan`, ids the plan deletes count as missing. */
export function livePlanErrors(kinds: readonly ResourceKind[], desired: DesiredState, live: LiveState, stack: string, opts: LiveCheckOptions): PlanError[] {
  return [...missingIds(kinds, desired, live, opts.plan), ...heldValues(kinds, desired, live, stack, opts)];
}
