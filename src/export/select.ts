// Which live resources an export holds, and the manifest name of each. By default the resources carrying this
// stack's marker (named by it) and the natural-key items of their parents; with `all`, also every resource
// without a marker (named from what it is). Resources carrying another stack's marker are never exported.
import { isObj } from '../contract/json.ts';
import { parseMetadata } from '../kinds/marker.ts';
import { markerOf, naturalParentId } from '../engine/ownership.ts';
import { liveBody } from '../engine/diff.ts';
import { managedBy, type LiveState } from '../engine/live.ts';
import { refValues } from '../kinds/refs.ts';
import type { Json, LiveItem, Obj, RefField, ResourceKind } from '../kinds/resource-kind.ts';
import { NameBook, isValidName, kindSlug, slugify } from './names.ts';

export interface ExportEntry {
  kind: ResourceKind;
  item: LiveItem;
  /** Carries this stack's marker (or, for a natural-key item, its parent does). */
  managed: boolean;
  name: string;
  /** The live resource in the request shape, the marker taken out of metadata. */
  body: Obj;
}

export interface Selection {
  entries: ExportEntry[];
  /** Exported resources by live id (kinds with ids only: a natural key may equal its parent's id). */
  byId: Map<string, ExportEntry>;
  /** Resources left out because another stack manages them. */
  otherStacks: number;
  warnings: string[];
}

/** Kinds ordered so that every kind comes after the kinds its references point at (parents are named first). */
function kindsByDependency(kinds: readonly ResourceKind[]): ResourceKind[] {
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  const out: ResourceKind[] = [];
  const seen = new Set<string>();
  const visit = (k: ResourceKind, path: Set<string>): void => {
    if (seen.has(k.kind) || path.has(k.kind)) return;
    path.add(k.kind);
    for (const target of k.refs.flatMap((r) => r.kinds)) {
      const dep = byName.get(target);
      if (dep) visit(dep, path);
    }
    seen.add(k.kind);
    out.push(k);
  };
  for (const k of kinds) visit(k, new Set());
  return out;
}

/**
 * The reference to the resource this one belongs to: its first declared ref when that is a top-level field the
 * service cannot change (a rule's policy, a route's edge, a subscription's sources). Children are named after it.
 */
function parentRef(kind: ResourceKind): RefField | undefined {
  const first = kind.refs[0];
  if (!first) return undefined;
  const field = first.pointer.slice(1);
  return !field.includes('/') && kind.immutable.includes(field) ? first : undefined;
}

const HINT_MAX = 48;

/** What a resource is, in words a name can be made of: its description, first hostport, path, CIDR, labels, CN. */
function hints(body: Obj, raw: Obj): string[] {
  const str = (v: Json | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const labels = isObj(body.labels) ? Object.values(body.labels).filter((v) => typeof v === 'string').join('-') : undefined;
  const match = str(body.match) === '/' ? 'root' : str(body.match);
  return [str(body.description), Array.isArray(body.hostports) ? str(body.hostports[0]) : undefined, match, str(body.cidr), labels, str(raw.subject_common_name)]
    .filter((h): h is string => h !== undefined);
}

function generatedName(kind: ResourceKind, body: Obj, raw: Obj, parentName: string | undefined): string {
  const fallback = kindSlug(kind.kind).split('-').pop()!;
  const hint = hints(body, raw).map((h) => slugify(h, HINT_MAX)).find((s) => s !== '') ?? (parentName ? fallback : kindSlug(kind.kind));
  if (!parentName || hint === parentName || hint.startsWith(`${parentName}-`)) return hint;
  return slugify(`${parentName}-${hint}`);
}

export function selectForExport(kinds: readonly ResourceKind[], live: LiveState, opts: { stack: string; all: boolean }): Selection {
  const managed = managedBy(live, opts.stack);
  const byId = new Map<string, ExportEntry>();
  const entries: ExportEntry[] = [];
  const warnings: string[] = [];
  let otherStacks = 0;
  // Ids another stack manages: their natural-key children belong to that stack too.
  const foreign = new Set<string>();
  for (const [stack, index] of live.managed) if (stack !== opts.stack) for (const id of index.managedIds) foreign.add(id);

  const parentNameOf = (kind: ResourceKind, body: Obj): string | undefined => {
    const ref = parentRef(kind);
    const id = ref ? refValues(body, ref)[0] : undefined;
    if (typeof id !== 'string') return undefined;
    return byId.get(id)?.name ?? slugify(id);
  };
  const add = (entry: ExportEntry): void => {
    entries.push(entry);
    if (entry.kind.identity === 'marker') byId.set(entry.item.id, entry);
  };

  for (const kind of kindsByDependency(kinds)) {
    const names = new NameBook();
    const items = [...(live.byKind.get(kind.kind) ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (kind.identity === 'natural') {
      for (const item of items) {
        const body = liveBody(kind, item);
        const parent = naturalParentId(kind, kind.fromLive(item.raw));
        if (parent !== undefined && foreign.has(parent)) {
          otherStacks++;
          continue;
        }
        const isManaged = parent !== undefined && managed.managedIds.has(parent);
        if (!isManaged && !opts.all) continue;
        add({ kind, item, managed: isManaged, body, name: names.unique(generatedName(kind, body, item.raw, parentNameOf(kind, body))) });
      }
      continue;
    }
    // Marker names are fixed: reserve them all before any generated name can take one.
    const mine = [...managed.byAddress].filter(([address]) => address.startsWith(`${kind.kind}/`));
    for (const [address] of mine) {
      const name = address.slice(kind.kind.length + 1);
      if (isValidName(name)) names.reserve(name);
    }
    for (const [address, copies] of mine) {
      const item = copies[0]!;
      if (copies.length > 1) warnings.push(`${copies.length} live resources carry the marker of ${address}; exported ${item.id}, left out ${copies.slice(1).map((c) => c.id).join(', ')} (plan deletes the extra copies)`);
      const body = liveBody(kind, item);
      let name = address.slice(kind.kind.length + 1);
      if (!isValidName(name)) {
        name = names.unique(slugify(name) || kindSlug(kind.kind));
        warnings.push(`${address} (${item.id}): the marker's name is not a valid manifest name; exported as ${kind.kind}/${name} (plan will replace the resource unless renamed back)`);
      }
      add({ kind, item, managed: true, body, name });
    }
    for (const item of items) {
      if (managed.managedIds.has(item.id)) continue;
      const { marker } = parseMetadata(item.raw.metadata);
      if (foreign.has(item.id)) {
        otherStacks++;
        continue;
      }
      if (marker && !markerOf(kind, item)) {
        warnings.push(`${kind.kind} ${item.id}: its marker names ${marker.name}, which is not a ${kind.kind}; left out`);
        continue;
      }
      if (!opts.all) continue;
      const body = liveBody(kind, item);
      add({ kind, item, managed: false, body, name: names.unique(generatedName(kind, body, item.raw, parentNameOf(kind, body))) });
    }
  }
  return { entries, byId, otherStacks, warnings };
}
