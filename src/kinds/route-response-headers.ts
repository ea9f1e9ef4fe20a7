// Response-headers module of an HTTPS edge route, managed as its own kind: it has no id and no metadata, so
// it is matched by its natural key `${edge_id}/${route_id}`. Live values come from the routes embedded in the
// HTTPS edges list (a route whose response_headers is null has none).
import { deleteIfPresent } from './crud.ts';
import { responseHeaders } from './module-normalizers.ts';
import { fetchRoutes } from './https-edge-route.ts';
import { naturalKind } from './natural-kind.ts';
import { isObj } from './normalize.ts';
import type { Api, LiveItem, Obj, ResourceKind } from './resource-kind.ts';

const FIELD = 'response_headers';

function naturalKey(body: Obj): string {
  return `${String(body.edge_id)}/${String(body.route_id)}`;
}

const modulePath = (body: Obj): string =>
  `/edges/https/${String(body.edge_id)}/routes/${String(body.route_id)}/${FIELD}`;

/** Both shapes -> `{edge_id, route_id, enabled, add, remove}` with `add: {}`/`remove: []` defaults. */
function normalize(body: Obj): Obj {
  return { edge_id: body.edge_id ?? null, route_id: body.route_id ?? null, ...responseHeaders(body) };
}

/** PUT replaces the module whole, so create and update both send the full desired module. */
async function put(api: Api, desired: Obj): Promise<LiveItem> {
  const { edge_id: _e, route_id: _r, ...module } = normalize(desired);
  const raw = await api.put(modulePath(desired), module);
  const withKey = { ...raw, edge_id: desired.edge_id ?? null, route_id: desired.route_id ?? null };
  return { id: naturalKey(withKey), raw: withKey };
}

export const routeResponseHeaders: ResourceKind = naturalKind({
  kind: 'RouteResponseHeaders',
  // The route is the parent this manifest is authoritative for; the edge ref gives its path.
  refs: [
    { pointer: '/route_id', kinds: ['HTTPSEdgeRoute'] },
    { pointer: '/edge_id', kinds: ['HTTPSEdge'], sameAs: { via: '/route_id', pointer: '/edge_id' } },
  ],
  immutable: ['edge_id', 'route_id'],
  normalize,
  naturalKey,
  async fetch(ctx) {
    const routes = await fetchRoutes(ctx);
    return routes
      .filter((r) => isObj(r[FIELD]))
      .map((r) => {
        const raw: Obj = { ...(r[FIELD] as Obj), edge_id: r.edge_id ?? null, route_id: r.id ?? null };
        return { id: naturalKey(raw), raw };
      });
  },
  write: put,
  async delete(api, live) {
    await deleteIfPresent(api, modulePath(live.raw));
  },
});
