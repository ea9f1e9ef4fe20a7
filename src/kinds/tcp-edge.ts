// TCP edge (/edges/tcp): hostports plus the backend, ip_restriction, policy and traffic_policy modules.
import { tcpEdge as contract } from '../contract/kinds/edges.ts';
import { TCP_MODULES, edgeKind } from './edge-kind.ts';

export const tcpEdge = edgeKind({
  kind: 'TCPEdge',
  contract,
  modules: TCP_MODULES,
});
