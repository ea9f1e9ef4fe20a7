// Live state: every kind's items, fetched in parallel. Kinds that read the same list (HTTPS edges embed their
// routes and response-headers modules) share one fetch through the memoized listOnce. Lock records of applies
// in progress (src/lock/) are no resources: they are left out here, so no plan, drift or export sees them.
import type { Api, FetchContext, LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import { isLockRecord } from '../lock/lock-record.ts';

export interface LiveState {
  byKind: Map<string, LiveItem[]>;
}

export function createFetchContext(api: Api): FetchContext {
  const lists = new Map<string, Promise<Obj[]>>();
  return {
    api,
    listOnce(path: string, listKey: string): Promise<Obj[]> {
      const key = `${path}\u0000${listKey}`;
      let pending = lists.get(key);
      if (!pending) {
        pending = api.list(path, listKey).then((items) => items.filter((raw) => !isLockRecord(raw)));
        lists.set(key, pending);
      }
      return pending;
    },
  };
}

/**
 * Every kind's live items, fetched in parallel. `onKind` sees each kind's items as soon as they arrive, so
 * per-item work (parsing markers, normalizing) overlaps with the lists still in flight.
 */
export async function fetchLive(
  kinds: readonly ResourceKind[],
  api: Api,
  onKind?: (kind: ResourceKind, items: LiveItem[]) => void,
): Promise<LiveState> {
  const ctx = createFetchContext(api);
  const lists = await Promise.all(
    kinds.map(async (kind) => {
      const items = await kind.fetch(ctx);
      onKind?.(kind, items);
      return items;
    }),
  );
  const byKind = new Map<string, LiveItem[]>();
  kinds.forEach((kind, i) => byKind.set(kind.kind, lists[i]!));
  return { byKind };
}

/** Look up one live item by kind and id (natural keys may equal another kind's id, so the kind is part of the key). */
export function liveIndex(live: LiveState): (kind: string, id: string) => LiveItem | undefined {
  const index = new Map<string, LiveItem>();
  for (const [kind, items] of live.byKind) for (const item of items) index.set(`${kind}\u0000${item.id}`, item);
  return (kind, id) => index.get(`${kind}\u0000${id}`);
}
