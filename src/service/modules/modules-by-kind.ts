// Which modules an edge or route kind has, and in which order they are returned, is the contract's
// (ContractKind.modules); this is how the service stores each of them. One ModuleDef per module contract.
import type { KindDef } from '../resource-def.ts';
import { backendModule, httpsTlsTerminationModule, ipRestrictionModule, mutualTlsModule, tlsTerminationModule, type ModuleDef } from './stored-modules.ts';
import { policyModule } from './policy-module.ts';
import { httpTrafficPolicy, tcpTrafficPolicy } from './traffic-policy-module.ts';
import { responseHeadersModule } from './route-response-headers.ts';

const MODULE_DEFS: readonly ModuleDef<unknown>[] = [
  backendModule, ipRestrictionModule, mutualTlsModule, tlsTerminationModule, httpsTlsTerminationModule, policyModule,
  tcpTrafficPolicy, httpTrafficPolicy, responseHeadersModule,
];

const BY_CONTRACT = new Map(MODULE_DEFS.map((m) => [m.contract, m]));

/** The stored form of each module of `kind`, in the contract's (response) order. */
export function modulesOf(kind: KindDef): readonly ModuleDef<unknown>[] {
  return kind.modules.map((contract) => {
    const def = BY_CONTRACT.get(contract);
    if (!def) throw new Error(`no stored form for module ${contract.name} of ${kind.kind}`);
    return def;
  });
}
