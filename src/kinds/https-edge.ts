// HTTPS edge (/edges/https): hostports plus mutual_tls and tls_termination (always at the edge). Its routes
// are their own kind (HTTPSEdgeRoute), so the embedded `routes` list is not among its fields.
import { httpsEdge as contract } from '../contract/kinds/edges.ts';
import { edgeKind } from './edge-kind.ts';
import { httpsTlsTermination, mutualTls } from './module-normalizers.ts';

export const HTTPS_EDGES_LIST_KEY = contract.listKey!;

export const httpsEdge = edgeKind({
  kind: 'HTTPSEdge',
  contract,
  modules: { mutual_tls: mutualTls, tls_termination: httpsTlsTermination },
});
