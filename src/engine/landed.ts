// A create is never retried blindly: after an ambiguous failure (5xx, connection reset, timeout) the kind is
// listed again and searched for the resource (by ownership marker, or by natural key). Found -> the create
// landed and the found item is used; not found -> the client may retry the POST. The ids the address already
// had when the plan was made are never "found": a replace's new resource carries the same marker as the old
// one, which still exists until the replace's last phase deletes it.
import { ApiError } from '../errors.ts';
import type { Api, LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import { createFetchContext } from './live.ts';
import { markerOf } from './ownership.ts';

interface CreateTarget {
  kind: ResourceKind;
  address: string;
  stack: string;
  /** Live ids of this address from before the apply (a replace's old resource, extra copies): never the create's. */
  existing?: ReadonlySet<string>;
}

/** True for failures after which the service may or may not have processed the request. */
function isAmbiguous(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 0 || err.status >= 500);
}

/** The live item a create of `body` would have made, if one exists now. */
async function findLanded(t: CreateTarget, api: Api, body: Obj): Promise<LiveItem | undefined> {
  const items = await t.kind.fetch(createFetchContext(api));
  if (t.kind.identity === 'natural') {
    const key = t.kind.naturalKey?.(body);
    return key === undefined ? undefined : items.find((item) => item.id === key);
  }
  return items.find((item) => {
    if (t.existing?.has(item.id)) return false;
    const marker = markerOf(t.kind, item);
    return marker?.stack === t.stack && marker.name === t.address;
  });
}

/**
 * Create through the kind's hook; POSTs retried by the client only once a list shows they did not land.
 * When the create failed ambiguously but did land, the found item is returned; a natural-key item found that
 * way is brought to the desired body with the kind's update (its create may have stopped half-way).
 */
export async function createChecked(t: CreateTarget, api: Api, body: Obj): Promise<LiveItem> {
  const checkedApi = api.retryPostIf?.(async () => (await findLanded(t, api, body)) === undefined) ?? api;
  try {
    return await t.kind.create(checkedApi, body);
  } catch (err) {
    if (!isAmbiguous(err)) throw err;
    let found: LiveItem | undefined;
    try {
      found = await findLanded(t, api, body);
    } catch {
      throw err;
    }
    if (!found) throw err;
    if (t.kind.identity === 'natural') await t.kind.update(api, found, body, body);
    return found;
  }
}
