// The contract's table of kinds: every resource kind of the API, in dependency order (a kind after the kinds
// it references). The service serves exactly these; the manifest side derives its schemas from them.
import type { ContractKind, KindName } from './kind.ts';
import type { BodySchema } from './schema.ts';
import { httpResponseBackend, tunnelGroupBackend } from './kinds/backends.ts';
import { certificateAuthority, tlsCertificate } from './kinds/certificates.ts';
import { httpsEdge, tcpEdge, tlsEdge } from './kinds/edges.ts';
import { eventSubscription } from './kinds/event-subscriptions.ts';
import { httpsEdgeRoute } from './kinds/https-edge-routes.ts';
import { ipPolicy, ipPolicyRule } from './kinds/policies.ts';

export const CONTRACT_KINDS: readonly ContractKind[] = [
  ipPolicy,
  ipPolicyRule,
  tunnelGroupBackend,
  httpResponseBackend,
  tlsCertificate,
  certificateAuthority,
  eventSubscription,
  tcpEdge,
  tlsEdge,
  httpsEdge,
  httpsEdgeRoute,
];

const BY_NAME = new Map(CONTRACT_KINDS.map((k) => [k.kind, k]));

export function contractKind(name: KindName): ContractKind {
  return BY_NAME.get(name)!;
}

/** Every request body schema of the contract, named: create, update, each module's PUT, each sub-resource's. */
export function contractBodies(): [string, BodySchema][] {
  return CONTRACT_KINDS.flatMap((k): [string, BodySchema][] => [
    [`${k.kind} create`, k.create],
    [`${k.kind} update`, k.update],
    ...k.modules.map((m): [string, BodySchema] => [`${k.kind} ${m.name} PUT`, m.schema]),
    ...Object.entries(k.subresources ?? {}).flatMap(([name, s]): [string, BodySchema][] => [[`${k.kind} ${name} create`, s.create], [`${k.kind} ${name} update`, s.update]]),
  ]);
}

export { BACKEND_KINDS, documentProblem, moduleRefs, notFoundCode, referencedIds } from './kind.ts';
export type { ContractKind, DocumentCheck, KindName, ModuleContract, NotFoundCode, RefField, SubresourceContract } from './kind.ts';
export type { BodySchema, ContractCode, Distinct, LocatedProblem, RuleName, ValueProblem } from './schema.ts';
