// Ownership without a state file (design: Ownership): a managed resource's `metadata` is a JSON object holding the user's
// keys plus `"edgeops": {"stack": S, "name": "Kind/name"}`. Live items are matched to documents by that marker;
// items without this stack's marker are never touched. Natural-key kinds (no metadata) are in scope when a
// document names their key or their parent is managed by this stack.
import { parseMetadata, type Marker, type ParsedMetadata } from '../kinds/marker.ts';
import type { LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import { refValues } from '../kinds/refs.ts';

// A plan reads every live item's metadata twice (ownership, then diff): parse each raw object once.
const parsedRaw = new WeakMap<Obj, ParsedMetadata>();

/** parseMetadata of a live item's raw `metadata`, memoized per raw object. */
export function liveMetadata(item: LiveItem): ParsedMetadata {
  let parsed = parsedRaw.get(item.raw);
  if (!parsed) parsedRaw.set(item.raw, (parsed = parseMetadata(item.raw.metadata)));
  return parsed;
}

/** The marker of a live item of a marker kind, when it carries one for this kind. */
export function markerOf(kind: ResourceKind, item: LiveItem): Marker | undefined {
  const { marker } = liveMetadata(item);
  if (!marker || !marker.name.startsWith(`${kind.kind}/`)) return undefined;
  return marker;
}

export interface ManagedIndex {
  /** The stack's live items of marker kinds by address; more than one means duplicates. */
  byAddress: Map<string, LiveItem[]>;
  /** Live ids of every resource the stack manages (for natural-key scope). */
  managedIds: Set<string>;
}

/**
 * Index the live items carrying a marker, by stack: a live state's own, made once when it is (live.ts
 * liveState), since every item's marker must be read and every caller asks the same of it.
 */
export function indexManaged(kinds: readonly ResourceKind[], live: ReadonlyMap<string, LiveItem[]>): Map<string, ManagedIndex> {
  const byStack = new Map<string, ManagedIndex>();
  for (const kind of kinds) {
    if (kind.identity !== 'marker') continue;
    const items = live.get(kind.kind) ?? [];
    // Indexed: every live item passes here, mostly before V8 optimizes this, where a for-of allocates per step.
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const marker = markerOf(kind, item);
      if (!marker) continue;
      let index = byStack.get(marker.stack);
      if (!index) byStack.set(marker.stack, (index = { byAddress: new Map(), managedIds: new Set() }));
      const list = index.byAddress.get(marker.name);
      if (list) list.push(item);
      else index.byAddress.set(marker.name, [item]);
      index.managedIds.add(item.id);
    }
  }
  // Lowest id first: ids are time-ordered, so the oldest copy is kept and later duplicates are deleted.
  for (const { byAddress } of byStack.values()) {
    for (const list of byAddress.values()) if (list.length > 1) list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return byStack;
}

/** The kind named by an address (`Kind/name`). */
export const addressKind = (address: string): string => address.slice(0, address.indexOf('/'));

/** The parent id of a natural-key item: the first declared ref of its kind, read from the live body. */
export function naturalParentId(kind: ResourceKind, liveBody: Obj): string | undefined {
  const first = kind.refs[0];
  if (!first) return undefined;
  const value = refValues(liveBody, first)[0];
  return typeof value === 'string' ? value : undefined;
}
