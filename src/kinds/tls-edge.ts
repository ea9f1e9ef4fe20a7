// TLS edge (/edges/tls): the TCP edge's modules plus mutual_tls and tls_termination.
import { BACKEND_REF, IP_RESTRICTION_REF, MUTUAL_TLS_REF, TLS_MODULES, edgeKind } from './edge-kind.ts';

export const tlsEdge = edgeKind({
  kind: 'TLSEdge',
  idPrefix: 'edgtls_',
  path: '/edges/tls',
  listKey: 'tls_edges',
  modules: TLS_MODULES,
  refs: [BACKEND_REF, IP_RESTRICTION_REF, MUTUAL_TLS_REF],
});
