// Routes of an HTTPS edge: a path match and the backend, ip_restriction, response_headers and traffic_policy
// modules. The official client repeats the path's edge_id in create and PATCH bodies.
import { moduleRefs, type ContractKind } from '../kind.ts';
import { description, metadata, object, optional } from '../schema.ts';
import { backendModule, httpTrafficPolicyModule, ipRestrictionModule, responseHeadersModule } from './edge-modules.ts';

declare module '../kind.ts' {
  interface KindNames {
    https_edge_route: true;
  }
}

const MODULES = [backendModule, ipRestrictionModule, responseHeadersModule, httpTrafficPolicyModule];

const create = object({
  match_type: { type: 'string', enum: ['exact_path', 'path_prefix'], errorCode: 'ERR_MATCH_TYPE_INVALID' },
  match: {
    type: 'string', minLength: 1, maxBytes: 2048, rule: 'url_path',
    description: 'The path, or path prefix, requests must have; starts with "/".',
  },
  description,
  metadata,
  ...Object.fromEntries(MODULES.map((m) => [m.name, m.schema])),
}, ['match_type', 'match']);

export const httpsEdgeRoute: ContractKind = {
  kind: 'https_edge_route',
  prefix: 'edghtsrt',
  label: 'HTTPS edge route',
  path: '/edges/https/:edge_id/routes',
  listKey: 'routes',
  parent: 'https_edge',
  create,
  update: optional(create),
  immutable: [],
  modules: MODULES,
  refs: moduleRefs(MODULES),
  checks: [],
  echoedIds: ['id', 'edge_id'],
};
