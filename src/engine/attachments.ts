// What others attached to this stack's resources: a live resource without this stack's marker (unmarked, or
// another stack's) that is part of a managed one (a rule of a managed IP policy, a route of a managed HTTPS
// edge: its reference to the parent cannot change) or that references one (an edge whose backend, IP
// restriction or mutual-TLS CA is managed here). Such a resource is never changed by the plan, so it is
// reported: plan warns, drift has an `unmanaged` finding. A stack that is authoritative for its children
// (`authoritative: children` in edgeops.yaml) deletes the unmarked parts of its managed resources instead;
// another stack's are never touched (design: Ownership). Pure: read from the lists the plan already fetched.
import type { LiveItem, Obj, RefField, ResourceKind } from '../kinds/resource-kind.ts';
import type { ProjectConfig } from '../manifest/document.ts';
import { deleteAction } from './diff.ts';
import { liveIndex, managedBy, type LiveState } from './live.ts';
import { refLinks } from './ordering.ts';
import { addressKind, liveMetadata } from './ownership.ts';
import type { Action, Attachment } from './plan-data.ts';
import { pointerSegments, refValues } from '../kinds/refs.ts';
import { liveRefsOf, type ActionRefs } from './resource-actions.ts';
import { valueMoves } from './value-moves.ts';

export type { Attachment };

/** `authoritative: children` in edgeops.yaml: the stack deletes unmarked parts of the resources it manages. */
export const authoritativeForChildren = (config: ProjectConfig): boolean => config.authoritative === 'children';

/** `/ip_restriction/ip_policy_ids/*` -> `ip_restriction.ip_policy_ids`. */
export const refFieldPath = (ref: RefField): string => pointerSegments(ref.pointer).filter((s) => s !== '*').join('.');

/** A reference the service cannot change (the parent's): it makes the referrer a part of its target. */
export const isPartRef = (kind: ResourceKind, ref: RefField): boolean => kind.immutable.includes(pointerSegments(ref.pointer)[0]!);

/** The few words a report shows for a live resource: the kind's brief, else its description. */
export function briefOf(kind: ResourceKind, body: Obj): string {
  if (kind.brief) return kind.brief(body);
  return typeof body.description === 'string' ? JSON.stringify(body.description) : '';
}

/**
 * Every live resource outside the stack that is part of, or references, a resource the stack manages, once per
 * (resource, managed resource, field). In the lists' order.
 */
export function findAttachments(kinds: readonly ResourceKind[], live: LiveState, stack: string): Attachment[] {
  const kindNames = new Set(kinds.map((k) => k.kind));
  const addressOf = new Map<string, string>();
  const managedKinds = new Set<string>();
  // forEach and an indexed loop: no iterator result for each of the stack's resources (this runs unoptimized).
  managedBy(live, stack).byAddress.forEach((items, address) => {
    const kind = addressKind(address);
    if (!kindNames.has(kind)) return;
    managedKinds.add(kind);
    for (let i = 0; i < items.length; i++) addressOf.set(items[i]!.id, address);
  });
  if (addressOf.size === 0) return [];
  // Only kinds that can reference a kind the stack manages are read item by item.
  const out: Attachment[] = [];
  for (const kind of kinds) {
    if (kind.identity !== 'marker' || !kind.refs.some((r) => r.kinds.some((k) => managedKinds.has(k)))) continue;
    const items = live.byKind.get(kind.kind) ?? [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const { marker } = liveMetadata(item);
      if (marker?.stack === stack || !mentions(item.raw, addressOf)) continue;
      out.push(...attachmentsOf(kind, item, addressOf, marker));
    }
  }
  return out;
}

/**
 * Whether any string in a raw list item is a managed id: a cheap look first, since most items outside the stack
 * reference nothing of it and normalizing each (fromLive) would cost more than the rest of the plan.
 */
function mentions(value: Obj[string], ids: ReadonlyMap<string, string>): boolean {
  if (typeof value === 'string') return ids.has(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const v of value) if (mentions(v, ids)) return true;
    return false;
  }
  for (const key in value) if (mentions(value[key]!, ids)) return true;
  return false;
}

function attachmentsOf(kind: ResourceKind, item: LiveItem, addressOf: ReadonlyMap<string, string>, marker: { stack: string; name: string } | undefined): Attachment[] {
  const out: Attachment[] = [];
  let body: Obj | undefined;
  for (const ref of kind.refs) {
    body ??= kind.fromLive(item.raw);
    const seen = new Set<string>();
    for (const value of refValues(body, ref)) {
      if (typeof value !== 'string' || seen.has(value)) continue;
      const address = addressOf.get(value);
      if (!address || !ref.kinds.includes(address.slice(0, address.indexOf('/')))) continue;
      seen.add(value);
      const part = isPartRef(kind, ref);
      out.push({
        kind: kind.kind,
        id: item.id,
        summary: briefOf(kind, body),
        ...(marker ? { owner: { stack: marker.stack, name: marker.name } } : {}),
        relation: part ? 'part' : 'reference',
        field: refFieldPath(ref),
        target: { address, id: value },
        ...(part ? { noun: kind.partNoun ?? `${kind.kind} resources` } : {}),
      });
    }
  }
  return out;
}

/** How a report names the attached resource: `Kind/name (stack other)`, or its kind, id and summary. */
export function attachedName(a: Pick<Attachment, 'kind' | 'id' | 'summary' | 'owner'>): string {
  if (a.owner) return `${a.owner.name} (stack ${a.owner.stack})`;
  return `${a.kind} ${a.id}${a.summary ? ` ${a.summary}` : ''}`;
}

/** What a plan or drift header reads for the attached resource (its id is shown beside it). */
export function attachmentLabel(a: Attachment): string {
  return a.owner ? attachedName(a) : `unmanaged ${a.kind}${a.summary ? ` ${a.summary}` : ''}`;
}

/** What the attached resource is to the managed one: `one of the rules of IPPolicy/office (ip_policy_id)`. */
export function attachmentRelation(a: Attachment): string {
  return a.relation === 'part'
    ? `one of the ${a.noun ?? 'parts'} of ${a.target.address} (${a.field})`
    : `references ${a.target.address} (${a.field})`;
}

/** The plan's warning for an attachment apply leaves as it is. */
export function attachmentWarning(a: Attachment): string {
  const who = a.owner ? attachedName(a) : `unmanaged ${attachedName(a)}`;
  const what = a.relation === 'part' ? `is ${attachmentRelation(a)}` : attachmentRelation(a);
  const leaves = a.owner
    ? "apply leaves it (another stack's resource is never changed)"
    : a.relation === 'part'
      ? 'apply leaves it (`authoritative: children` in edgeops.yaml makes apply delete it)'
      : 'apply leaves it';
  return `${who} ${what}: ${leaves}`;
}

/** Why apply deletes an unmarked part: the plan shows it as the delete's reason. */
const pruneReason = (a: Attachment): string =>
  `not in the manifests; the stack is authoritative for the ${a.noun ?? 'parts'} of ${a.target.address}`;

interface ChildPrune {
  action: Action;
  refs: ActionRefs;
}

/**
 * With `authoritative: children`: a delete for each unmarked part of a managed resource, addressed as `Kind/id`
 * (no document's name has an `_`, so no document has that address), carrying its attachment and why it goes.
 */
export function childPrunes(kinds: readonly ResourceKind[], live: LiveState, attachments: readonly Attachment[]): ChildPrune[] {
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const parts = attachments.filter((a) => a.relation === 'part' && !a.owner);
  const itemOf = parts.length > 0 ? liveIndex(live) : undefined;
  const out: ChildPrune[] = [];
  for (const a of parts) {
    const kind = kindOf.get(a.kind)!;
    const item = itemOf!(a.kind, a.id)!;
    const address = `${a.kind}/${a.id}`;
    if (out.some((p) => p.action.address === address)) continue;
    const action = deleteAction({ kind, name: a.id, address }, item);
    action.reason = pruneReason(a);
    action.label = attachmentLabel(a);
    action.attachment = a;
    const shape = kind.fromLive(item.raw);
    out.push({ action, refs: { pending: [], liveRefs: liveRefsOf(kind, shape), moves: valueMoves(kind, 'delete', shape, undefined), links: refLinks(kind, action, shape) } });
  }
  return out;
}

/** The attachments no action of the plan deletes: what plan warns about and drift reports as left alone. */
export function keptAttachments(attachments: readonly Attachment[], actions: readonly Action[]): Attachment[] {
  const deleted = new Set(actions.filter((a) => a.op === 'delete' && a.liveId).map((a) => a.liveId));
  return attachments.filter((a) => !deleted.has(a.id));
}
