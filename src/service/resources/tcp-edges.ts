// /edges/tcp: TCP edges with the backend, ip_restriction, policy and traffic_policy modules (and their module endpoints).
import { backendModule, ipRestrictionModule, type ModuleDef } from './edge-module-rules.ts';
import { policyModule } from './edge-policy.ts';
import { TCP_PHASES, trafficPolicyModule } from './edge-traffic-policy.ts';
import { tcpEdgeKind } from './edge-kinds.ts';
import { defineEdgeResource } from './edge-resource.ts';

export { tcpEdgeKind };

export const TCP_EDGE_MODULES: readonly ModuleDef<unknown>[] = [
  backendModule, ipRestrictionModule, policyModule, trafficPolicyModule(TCP_PHASES),
];

export default defineEdgeResource({ kind: tcpEdgeKind, listKey: 'tcp_edges', modules: TCP_EDGE_MODULES });
