// HTTPS edge route (/edges/https/{edge_id}/routes/{id}). The service has no list endpoint for routes: they are
// read from the HTTPS edges list, where each edge embeds its routes (shared with HTTPSEdge via listOnce).
// The response_headers module is its own kind (RouteResponseHeaders) and is not compared here.
import { fieldsKey } from './adopt-keys.ts';
import { crudHooks, deleteIfPresent, moduleHooks, patchBody } from './crud.ts';
import { httpsEdgeRoute as contract } from '../contract/kinds/https-edge-routes.ts';
import { contractRefs } from './contract-kind.ts';
import { backend, ipRestriction, normalizeModules, sendingPolicyText, trafficPolicy } from './module-normalizers.ts';
import { HTTPS_EDGES_LIST_KEY } from './https-edge.ts';
import { dropEmptyStrings, isObj, pickFields } from './normalize.ts';
import type { FetchContext, LiveItem, Obj, ResourceKind } from './resource-kind.ts';

const EDGES_PATH = '/edges/https';
const MODULES = { backend, ip_restriction: ipRestriction, traffic_policy: trafficPolicy };
const MODULE_NAMES = Object.keys(MODULES);
const FIELDS = ['edge_id', 'match_type', 'match', 'description', 'metadata', ...MODULE_NAMES];
const IMMUTABLE = ['edge_id'];

const normalize = (body: Obj): Obj => dropEmptyStrings(normalizeModules(body, MODULES));
const fromLive = (raw: Obj): Obj => normalize(pickFields(raw, FIELDS));

const routesPath = (edgeId: string): string => `${EDGES_PATH}/${edgeId}/routes`;
const itemPath = (live: LiveItem): string => `${routesPath(String(live.raw.edge_id))}/${live.id}`;

/** Every route of every HTTPS edge, each carrying its edge_id (filled from the parent if the service omits it). */
export async function fetchRoutes(ctx: FetchContext): Promise<Obj[]> {
  const edges = await ctx.listOnce(EDGES_PATH, HTTPS_EDGES_LIST_KEY);
  return edges.flatMap((edge) =>
    (Array.isArray(edge.routes) ? edge.routes : []).filter(isObj).map((r) => ({ ...r, edge_id: r.edge_id ?? edge.id })),
  );
}

const crudOpts = { path: EDGES_PATH, listKey: HTTPS_EDGES_LIST_KEY, fromLive, modules: MODULE_NAMES, notPatchable: IMMUTABLE };

export const httpsEdgeRoute: ResourceKind = sendingPolicyText({
  kind: 'HTTPSEdgeRoute',
  idPrefix: `${contract.prefix}_`,
  identity: 'marker',
  refs: contractRefs(contract),
  immutable: IMMUTABLE,
  secrets: [],
  writeOnly: [],
  modules: MODULE_NAMES,
  toRequest: (spec) => ({ ...spec }),
  fromLive,
  normalizeDesired: normalize,
  // A route is its edge's route for one match: two routes of an edge never share a path.
  adoptKeys: (body) => fieldsKey('route', body, ['edge_id', 'match_type', 'match']),
  brief: (body) => `${String(body.match_type)} ${String(body.match)}`,
  partNoun: 'routes',
  ...crudHooks(crudOpts),
  async fetch(ctx) {
    return (await fetchRoutes(ctx)).map((raw) => ({ id: String(raw.id), raw }));
  },
  async create(api, body) {
    // edge_id is in the path, not the body.
    const { edge_id: edgeId, ...rest } = body;
    const raw = await api.post(routesPath(String(edgeId)), rest);
    return { id: String(raw.id), raw: { ...raw, edge_id: raw.edge_id ?? edgeId ?? null } };
  },
  async update(api, live, changed, desired) {
    const patch = patchBody(crudOpts, live, changed, desired);
    if (Object.keys(patch).length > 0) await api.patch(itemPath(live), patch);
  },
  async delete(api, live) {
    await deleteIfPresent(api, itemPath(live));
  },
  ...moduleHooks(itemPath),
});
