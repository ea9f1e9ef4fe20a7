// TCP edge (/edges/tcp): hostports plus the backend, ip_restriction, policy and traffic_policy modules.
import { BACKEND_REF, IP_RESTRICTION_REF, TCP_MODULES, edgeKind } from './edge-kind.ts';

export const tcpEdge = edgeKind({
  kind: 'TCPEdge',
  idPrefix: 'edgtcp_',
  path: '/edges/tcp',
  listKey: 'tcp_edges',
  modules: TCP_MODULES,
  refs: [BACKEND_REF, IP_RESTRICTION_REF],
});
