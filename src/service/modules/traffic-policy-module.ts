// The `traffic_policy` module of the public API (TCP edges, TLS edges, HTTPS edge routes): `{enabled, value}`,
// where value is a policy document written as a JSON or YAML string. The string is stored and returned as sent
// (the public API echoes it); the contract checks it is a document of the phases of the edge or route
// (src/contract/traffic-policy.ts, which the manifest pipeline checks with too).
import { httpTrafficPolicyModule, tcpTrafficPolicyModule } from '../../contract/kinds/edge-modules.ts';
import type { ModuleContract } from '../../contract/index.ts';
import { moduleDef, type ModuleDef } from './stored-modules.ts';

type TrafficPolicyModule = { enabled: boolean; value: string };

function trafficPolicyModule(contract: ModuleContract): ModuleDef<TrafficPolicyModule> {
  return moduleDef<TrafficPolicyModule>(contract, {
    store: (m) => ({ enabled: (m.enabled as boolean | undefined) ?? true, value: m.value as string }),
    render: (m) => ({ enabled: m.enabled, value: m.value }),
  });
}

/** TCP and TLS edges: on_tcp_connect only. */
export const tcpTrafficPolicy = trafficPolicyModule(tcpTrafficPolicyModule);
/** HTTPS edge routes: also the HTTP phases. */
export const httpTrafficPolicy = trafficPolicyModule(httpTrafficPolicyModule);
