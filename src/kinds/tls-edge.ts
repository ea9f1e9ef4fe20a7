// TLS edge (/edges/tls): the TCP edge's modules plus mutual_tls and tls_termination.
// With TLS terminated upstream the service takes only backend and ip_restriction, so an edge moving back to
// terminating at the edge gets its tls_termination before its mutual_tls, policy and traffic_policy. (Moving to
// upstream, those modules' removals run before any put: ordering.ts.)
import { tlsEdge as contract } from '../contract/kinds/edges.ts';
import { TLS_MODULES, edgeKind } from './edge-kind.ts';
import type { ResourceKind } from './resource-kind.ts';

export const tlsEdge: ResourceKind = {
  ...edgeKind({
    kind: 'TLSEdge',
    contract,
    modules: TLS_MODULES,
  }),
  modulePutFirst: (module, body) => module === 'tls_termination' && body.terminate_at !== 'upstream',
};
