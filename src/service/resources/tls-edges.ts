// /edges/tls: TLS edges, which add mutual_tls and tls_termination to the TCP edge's modules. With
// tls_termination.terminate_at = upstream the service never sees the plaintext, so only backend and
// ip_restriction may be set; the rule holds for the merged document of every write (create, PATCH, module PUT).
import { ServiceError } from '../errors.ts';
import {
  backendModule, ipRestrictionModule, mutualTlsModule, tlsTerminationModule, type ModuleDef, type TlsTerminationModule,
} from './edge-module-rules.ts';
import { policyModule } from './edge-policy.ts';
import { TCP_PHASES, trafficPolicyModule } from './edge-traffic-policy.ts';
import { tlsEdgeKind } from './edge-kinds.ts';
import { defineEdgeResource, type EdgeDoc } from './edge-resource.ts';

export { tlsEdgeKind };

export const TLS_EDGE_MODULES: readonly ModuleDef<unknown>[] = [
  backendModule, ipRestrictionModule, mutualTlsModule, tlsTerminationModule, policyModule, trafficPolicyModule(TCP_PHASES),
];

const ALLOWED_WITH_UPSTREAM = new Set(['backend', 'ip_restriction', 'tls_termination']);

export function checkUpstreamTermination(data: EdgeDoc): void {
  const termination = data.tls_termination as TlsTerminationModule | null | undefined;
  if (termination?.terminate_at !== 'upstream') return;
  for (const m of TLS_EDGE_MODULES) {
    if (!ALLOWED_WITH_UPSTREAM.has(m.name) && data[m.name] !== null && data[m.name] !== undefined) {
      throw new ServiceError('ERR_MODULE_NOT_ALLOWED_UPSTREAM',
        `${m.name}: not allowed when tls_termination.terminate_at is upstream (only backend and ip_restriction are)`);
    }
  }
}

export default defineEdgeResource({
  kind: tlsEdgeKind,
  listKey: 'tls_edges',
  modules: TLS_EDGE_MODULES,
  check: checkUpstreamTermination,
});
