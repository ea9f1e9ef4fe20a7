// /edges/https/{edge_id}/routes: routes of an HTTPS edge (POST, GET by id, GET list, PATCH, DELETE), with the
// backend, ip_restriction, response_headers and traffic_policy modules and their module endpoints. The public
// API's other route modules are not served; they are returned as null so the response has the public API's shape.
import { type CollectionDef, defineCollection } from '../collection.ts';
import { ServiceError } from '../errors.ts';
import { baseFields, describedFields, type Ctx, type ResourceModule } from '../resource-def.ts';
import type { StoredDoc } from '../store.ts';
import { clip, description, metadata, oneOf, parseBody, string, type JsonObject, type Validator } from '../validate.ts';
import { backendModule, ipRestrictionModule, moduleField, moduleRefs, renderModules, type ModuleDef } from './edge-module-rules.ts';
import { moduleRoutes } from './edge-modules.ts';
import { httpsEdgeKind, httpsEdgeRouteKind } from './edge-kinds.ts';
import { HTTP_PHASES, trafficPolicyModule } from './edge-traffic-policy.ts';
import { responseHeadersModule } from './route-response-headers.ts';

export { httpsEdgeRouteKind };

export interface RouteDoc {
  match_type: 'exact_path' | 'path_prefix';
  match: string;
  description?: string;
  metadata?: string;
  [module: string]: unknown;
}

export const ROUTE_MODULES: readonly ModuleDef<unknown>[] = [
  backendModule, ipRestrictionModule, responseHeadersModule, trafficPolicyModule(HTTP_PHASES),
];
/** Route modules of the public API this service does not serve: always null. */
const UNSERVED_MODULES = [
  'circuit_breaker', 'compression', 'request_headers', 'webhook_verification', 'oauth', 'saml', 'oidc',
  'websocket_tcp_converter', 'user_agent_filter', 'policy',
];

const match: Validator<string> = (value, path) => {
  const text = string({ nonEmpty: true, maxBytes: 2048 })(value, path);
  if (!text.startsWith('/')) throw new ServiceError('ERR_FIELD_INVALID', `${path}: ${JSON.stringify(clip(text))} must be a path starting with "/"`);
  return text;
};

const shape = {
  match_type: oneOf(['exact_path', 'path_prefix'], 'ERR_MATCH_TYPE_INVALID'),
  match,
  description,
  metadata,
  ...Object.fromEntries(ROUTE_MODULES.map((m) => [m.name, moduleField(m)])),
};

/** The official TypeScript client repeats the path's edge_id in the body: allowed when equal, then dropped. */
function withoutEdgeId(body: JsonObject, edgeId: string): JsonObject {
  const { edge_id: sent, ...rest } = body;
  if (sent !== undefined && sent !== null && sent !== edgeId) {
    throw new ServiceError('ERR_ID_MISMATCH', `edge_id: body edge_id ${typeof sent === 'string' ? JSON.stringify(clip(sent)) : `(a ${Array.isArray(sent) ? 'list' : typeof sent})`} differs from the path`);
  }
  return rest;
}

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
  kind: httpsEdgeRouteKind,
  parent: httpsEdgeKind,
  listKey: 'routes',
  create(body, _ctx, parent) {
    const p = parseBody(withoutEdgeId(body, parent!.id), shape, { required: ['match_type', 'match'] });
    const doc: RouteDoc = { match_type: p.match_type!, match: p.match! };
    if (p.description !== undefined) doc.description = p.description;
    if (p.metadata !== undefined) doc.metadata = p.metadata;
    for (const m of ROUTE_MODULES) doc[m.name] = (p as Record<string, unknown>)[m.name] ?? null;
    return doc;
  },
  update: (body, current) => ({ ...current.data, ...parseBody(withoutEdgeId(body, current.parentId!), shape) }),
  render: renderRoute,
  refs: (data) => moduleRefs(data, ROUTE_MODULES),
});

export const routesDef: CollectionDef<RouteDoc> = routes.def;

/** The routes of one edge, oldest first (the order they were added). */
export function routesOf(ctx: Ctx, edgeId: string): StoredDoc<RouteDoc>[] {
  return ctx.store.list<RouteDoc>(httpsEdgeRouteKind.kind, { parentId: edgeId, limit: 1e9 }).reverse();
}

const module: ResourceModule = { kinds: routes.kinds, routes: [...routes.routes, ...moduleRoutes(routes.def, ROUTE_MODULES)] };
export default module;
