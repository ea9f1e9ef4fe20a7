// TLS edge (/edges/tls): the TCP edge's modules plus mutual_tls and tls_termination.
// With TLS terminated upstream the service takes only backend and ip_restriction, so an edge moving back to
// terminating at the edge gets its tls_termination before its mutual_tls, policy and traffic_policy. (Moving to
// upstream, those modules' removals run before any put: ordering.ts.)
import { BACKEND_REF, IP_RESTRICTION_REF, MUTUAL_TLS_REF, TLS_MODULES, edgeKind } from './edge-kind.ts';
import type { ResourceKind } from './resource-kind.ts';

export const tlsEdge: ResourceKind = {
  ...edgeKind({
    kind: 'TLSEdge',
    idPrefix: 'edgtls_',
    path: '/edges/tls',
    listKey: 'tls_edges',
    modules: TLS_MODULES,
    refs: [BACKEND_REF, IP_RESTRICTION_REF, MUTUAL_TLS_REF],
  }),
  modulePutFirst: (module, body) => module === 'tls_termination' && body.terminate_at !== 'upstream',
};
