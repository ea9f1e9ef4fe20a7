// Live state: every kind's items, fetched in parallel. Kinds that read the same list (HTTPS edges embed their
// routes and response-headers modules) share one fetch through the memoized listOnce. Items the caller says are
// no resources (the stack lock's records) are left out as the lists arrive, so no plan, drift or export sees them.
import type { Api, FetchContext, LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import { liveItem } from '../kinds/crud.ts';
import { indexManaged, type ManagedIndex } from './ownership.ts';

export interface LiveState {
  byKind: Map<string, LiveItem[]>;
  /** The items carrying a stack's marker, by stack: read through managedBy. */
  readonly managed: ReadonlyMap<string, ManagedIndex>;
}

/** A live state of `kinds`' items, with its ownership worked out once. */
export function liveState(kinds: readonly ResourceKind[], byKind: Map<string, LiveItem[]>): LiveState {
  return { byKind, managed: indexManaged(kinds, byKind) };
}

const NONE: ManagedIndex = Object.freeze({ byAddress: new Map<string, LiveItem[]>(), managedIds: new Set<string>() });

/** The live items `stack` manages, from the live state's own index. */
export function managedBy(live: LiveState, stack: string): ManagedIndex {
  return live.managed.get(stack) ?? NONE;
}

/** Raw list items that are not resources of any kind. */
type HiddenItems = (raw: Obj) => boolean;

const NOTHING_HIDDEN: HiddenItems = () => false;

export function createFetchContext(api: Api, hidden: HiddenItems = NOTHING_HIDDEN): FetchContext {
  const lists = new Map<string, Promise<Obj[]>>();
  return {
    api,
    listOnce(path: string, listKey: string, onPage?: (items: Obj[]) => void): Promise<Obj[]> {
      const key = `${path}\u0000${listKey}`;
      let pending = lists.get(key);
      if (!pending) {
        // Only the first caller's onPage sees the pages: later callers share the fetch already under way.
        const pageHook = onPage && ((items: Obj[]) => onPage(items.filter((raw) => !hidden(raw))));
        pending = api.list(path, listKey, pageHook).then((items) => items.filter((raw) => !hidden(raw)));
        lists.set(key, pending);
      }
      return pending;
    },
  };
}

/**
 * Every kind's live items, fetched in parallel. `prepare` sees each kind's items page by page as they arrive
 * (for kinds whose fetch passes pages on) and then all of them, so per-item work (parsing markers,
 * normalizing) overlaps with the pages still in flight. It must be idempotent: an item may be seen twice.
 */
export async function fetchLive(
  kinds: readonly ResourceKind[],
  api: Api,
  prepare?: (kind: ResourceKind, items: LiveItem[]) => void,
  hidden?: HiddenItems,
): Promise<LiveState> {
  const shared = createFetchContext(api, hidden);
  const lists = await Promise.all(
    kinds.map(async (kind) => {
      const ctx: FetchContext = prepare ? { ...shared, onPage: (raws) => prepare(kind, raws.map(liveItem)) } : shared;
      const items = await kind.fetch(ctx);
      prepare?.(kind, items);
      return items;
    }),
  );
  const byKind = new Map<string, LiveItem[]>();
  kinds.forEach((kind, i) => byKind.set(kind.kind, lists[i]!));
  return liveState(kinds, byKind);
}

/** Look up one live item by kind and id (natural keys may equal another kind's id, so the kind is part of the key). */
export function liveIndex(live: LiveState): (kind: string, id: string) => LiveItem | undefined {
  const index = new Map<string, LiveItem>();
  for (const [kind, items] of live.byKind) for (const item of items) index.set(`${kind}\u0000${item.id}`, item);
  return (kind, id) => index.get(`${kind}\u0000${id}`);
}
