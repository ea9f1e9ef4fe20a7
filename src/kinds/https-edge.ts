// HTTPS edge (/edges/https): hostports plus mutual_tls and tls_termination (always at the edge). Its routes
// are their own kind (HTTPSEdgeRoute), so the embedded `routes` list is not among its fields.
import { MUTUAL_TLS_REF, edgeKind } from './edge-kind.ts';
import { httpsTlsTermination, mutualTls } from './edge-modules.ts';

export const HTTPS_EDGES_LIST_KEY = 'https_edges';

export const httpsEdge = edgeKind({
  kind: 'HTTPSEdge',
  idPrefix: 'edghts_',
  path: '/edges/https',
  listKey: HTTPS_EDGES_LIST_KEY,
  modules: { mutual_tls: mutualTls, tls_termination: httpsTlsTermination },
  refs: [MUTUAL_TLS_REF],
});
