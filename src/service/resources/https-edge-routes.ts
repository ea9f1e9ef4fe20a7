// /edges/https/{edge_id}/routes: routes of an HTTPS edge (POST, GET by id, GET list, PATCH, DELETE), with the
// backend, ip_restriction, response_headers and traffic_policy modules and their module endpoints. The public
// API's other route modules are not served; they are returned as null so the response has the public API's shape.
import { httpsEdgeRoute } from '../../contract/kinds/https-edge-routes.ts';
import { type CollectionDef, defineCollection } from '../collection.ts';
import { baseFields, describedFields, type Ctx, type ResourceModule } from '../resource-def.ts';
import type { StoredDoc } from '../store.ts';
import { renderModules, storedModules } from '../modules/stored-modules.ts';
import { moduleRoutes } from '../modules/module-routes.ts';
import { modulesOf } from '../modules/modules-by-kind.ts';

interface RouteDoc {
  match_type: 'exact_path' | 'path_prefix';
  match: string;
  description?: string;
  metadata?: string;
  [module: string]: unknown;
}

const ROUTE_MODULES = modulesOf(httpsEdgeRoute);
/** Route modules of the public API this service does not serve: always null. */
const UNSERVED_MODULES = [
  'circuit_breaker', 'compression', 'request_headers', 'webhook_verification', 'oauth', 'saml', 'oidc',
  'websocket_tcp_converter', 'user_agent_filter', 'policy',
];

/** The official TypeScript client repeats the path's edge_id in the body: allowed when equal, then dropped. */
export function renderRoute(doc: StoredDoc<RouteDoc>, ctx: Ctx): Record<string, unknown> {
  const { id, uri, created_at } = baseFields(ctx, doc);
  const out: Record<string, unknown> = {
    edge_id: doc.parentId,
    id,
    ...describedFields(doc.data),
    created_at,
    uri,
    match_type: doc.data.match_type,
    match: doc.data.match,
    ...renderModules(doc.data, ROUTE_MODULES, ctx),
  };
  for (const name of UNSERVED_MODULES) out[name] = null;
  return out;
}

const routes = defineCollection<RouteDoc>({
  kind: httpsEdgeRoute,
  create(body) {
    const doc: RouteDoc = { match_type: body.match_type as RouteDoc['match_type'], match: body.match as string };
    if (body.description !== undefined) doc.description = body.description as string;
    if (body.metadata !== undefined) doc.metadata = body.metadata as string;
    for (const m of ROUTE_MODULES) doc[m.name] = null;
    return { ...doc, ...storedModules(body, ROUTE_MODULES) };
  },
  update: (body, current) => ({ ...current.data, ...body, ...storedModules(body, ROUTE_MODULES) }),
  render: renderRoute,
});

export const routesDef: CollectionDef<RouteDoc> = routes.def;

/** The routes of one edge, oldest first (the order they were added). */
export async function routesOf(ctx: Ctx, edgeId: string): Promise<StoredDoc<RouteDoc>[]> {
  return (await ctx.tx.list<RouteDoc>(httpsEdgeRoute.kind, { parentId: edgeId, limit: 1e9 })).reverse();
}

const module: ResourceModule = { kinds: routes.kinds, routes: [...routes.routes, ...moduleRoutes(routes.def, ROUTE_MODULES)] };
export default module;
