// Adoption (`plan/apply --adopt`): documents that would be created are matched, by the kinds' adoptKeys hook,
// to live resources carrying no marker of any stack. A matched resource is then planned like a managed one
// (an update of its differing fields instead of a create), and that update also writes the marker.
//
// How: before planning, each adopted live item is swapped for a copy whose metadata carries the marker, so
// the planner (ownership, diff, graph, known ids for references) needs no special case; after planning,
// finishAdoptions makes sure each adopted resource has an update that sends the metadata. Kinds are visited
// referenced-first, so a rule's key can use the id of the policy adopted just before it.
import { dependencyOrder } from '../graph.ts';
import type { LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredResource, DesiredState } from '../manifest/document.ts';
import { liveBody } from './diff.ts';
import { requestBody } from '../kinds/sent-body.ts';
import { liveState, managedBy, type LiveState } from './live.ts';
import { serializeMetadata } from '../kinds/marker.ts';
import { liveMetadata } from './ownership.ts';

export interface Adoption {
  address: string;
  kind: string;
  liveId: string;
  /** The key that matched, e.g. `hostport 1.tcp.example.com:20001`. */
  matchedBy: string;
  /** The desired body with known ids substituted (for an update when no field differs). */
  desired: Obj;
}

interface AdoptOutcome {
  /** The live state with each adopted item replaced by a copy carrying this stack's marker. */
  live: LiveState;
  adoptions: Adoption[];
  warnings: string[];
}

// Adopted copies -> the item as fetched: saved plans fingerprint what is really live.
const originals = new WeakMap<Obj, LiveItem>();

/** The live item as the service returned it (an adopted copy maps back to the fetched item). */
export function realItem(item: LiveItem): LiveItem {
  return originals.get(item.raw) ?? item;
}

/** Kinds ordered so each comes after the kinds its references point at (a cycle between kinds keeps the listed order). */
function kindsReferencedFirst(kinds: readonly ResourceKind[]): ResourceKind[] {
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  return [...dependencyOrder(kinds, (k) => k.refs.flatMap((r) => r.kinds).flatMap((target) => byName.get(target) ?? []))];
}

/** True for an item with no ownership marker of any stack (other stacks' resources are never adopted). */
export function isUnmarked(item: LiveItem): boolean {
  return liveMetadata(item).marker === undefined;
}

interface Candidate {
  resource: DesiredResource;
  body: Obj;
  /** Matching live items by id, with the first key that matched. */
  matches: Map<string, { item: LiveItem; key: string }>;
}

/** Live items of one kind by each of their adopt keys. */
export function itemsByKey(kind: ResourceKind, items: readonly LiveItem[]): Map<string, LiveItem[]> {
  const byKey = new Map<string, LiveItem[]>();
  if (!kind.adoptKeys) return byKey;
  for (const item of items) {
    for (const key of new Set(kind.adoptKeys(liveBody(kind, item)))) {
      const list = byKey.get(key);
      if (list) list.push(item);
      else byKey.set(key, [item]);
    }
  }
  return byKey;
}

export function adoptLive(kinds: readonly ResourceKind[], desired: DesiredState, live: LiveState, stack: string): AdoptOutcome {
  const managed = managedBy(live, stack);
  const known = new Map<string, string>();
  for (const [address, copies] of managed.byAddress) known.set(address, copies[0]!.id);
  const byKind = new Map(kinds.map((k) => [k.kind, [] as DesiredResource[]]));
  for (const r of desired.resources) byKind.get(r.kind)?.push(r);

  const adoptions: Adoption[] = [];
  const warnings: string[] = [];
  const swapped = new Map<string, Map<string, LiveItem>>(); // kind -> live id -> marked copy

  for (const kind of kindsReferencedFirst(kinds)) {
    if (kind.identity !== 'marker' || !kind.adoptKeys) continue;
    const docs = (byKind.get(kind.kind) ?? []).filter((r) => !managed.byAddress.has(r.address));
    const unmarked = (live.byKind.get(kind.kind) ?? []).filter(isUnmarked);
    if (docs.length === 0 || unmarked.length === 0) continue;
    const byKey = itemsByKey(kind, unmarked);

    const candidates: Candidate[] = docs.map((resource) => {
      const body = requestBody(kind, resource.spec, (address) => known.get(address));
      const matches = new Map<string, { item: LiveItem; key: string }>();
      for (const key of kind.adoptKeys!(body, resource.name)) {
        for (const item of byKey.get(key) ?? []) if (!matches.has(item.id)) matches.set(item.id, { item, key });
      }
      return { resource, body, matches };
    });
    const claims = new Map<string, string[]>(); // live id -> addresses matching it
    for (const c of candidates) for (const id of c.matches.keys()) claims.set(id, [...(claims.get(id) ?? []), c.resource.address]);

    const copies = new Map<string, LiveItem>();
    for (const c of candidates.sort((a, b) => (a.resource.address < b.resource.address ? -1 : 1))) {
      const found = [...c.matches.values()];
      if (found.length === 0) continue;
      if (found.length > 1) {
        warnings.push(`${c.resource.address} is not adopted: it matches ${found.length} unmanaged ${kind.kind} resources (${found.map((f) => `${f.item.id} by ${f.key}`).join(', ')}); make the manifest match one of them`);
        continue;
      }
      const { item, key } = found[0]!;
      const rivals = claims.get(item.id) ?? [];
      if (rivals.length > 1) {
        warnings.push(`${item.id} (${kind.kind}) is not adopted: ${rivals.join(', ')} all match it; make exactly one document match it`);
        continue;
      }
      const marked: LiveItem = {
        id: item.id,
        raw: { ...item.raw, metadata: serializeMetadata(liveMetadata(item).user, { stack, name: c.resource.address }) },
      };
      originals.set(marked.raw, item);
      copies.set(item.id, marked);
      known.set(c.resource.address, item.id);
      adoptions.push({ address: c.resource.address, kind: kind.kind, liveId: item.id, matchedBy: key, desired: c.body });
    }
    if (copies.size > 0) swapped.set(kind.kind, copies);
  }

  if (swapped.size === 0) return { live, adoptions, warnings };
  const byKindLive = new Map<string, LiveItem[]>();
  for (const [kind, items] of live.byKind) {
    const copies = swapped.get(kind);
    byKindLive.set(kind, copies ? items.map((item) => copies.get(item.id) ?? item) : items);
  }
  return { live: liveState(kinds, byKindLive), adoptions, warnings };
}
