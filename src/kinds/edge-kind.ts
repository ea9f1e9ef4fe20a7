// TCP, TLS and HTTPS edges differ only in path, prefix and which modules they carry: one factory builds them.
import { hostportKey } from '../contract/values.ts';
import { hostportKeys } from './adopt-keys.ts';
import { hostportAvailability } from './hostport-availability.ts';
import * as modules from './module-normalizers.ts';
import { markerKind } from './marker-kind.ts';
import { dropEmptyList, dropEmptyStrings } from './normalize.ts';
import type { ContractKind } from '../contract/index.ts';
import type { Obj, ResourceKind, UniqueField } from './resource-kind.ts';

type Normalizers = Record<string, (m: Obj) => Obj>;


/** A hostport is served by one edge of any kind, claimed by the contract's key (no case; IPv6 by value). */
const HOSTPORTS: UniqueField = {
  field: 'hostports',
  scope: 'hostport',
  key: hostportKey,
  availability: hostportAvailability,
};

export const TCP_MODULES: Normalizers = {
  backend: modules.backend,
  ip_restriction: modules.ipRestriction,
  policy: modules.policy,
  traffic_policy: modules.trafficPolicy,
};

export const TLS_MODULES: Normalizers = {
  ...TCP_MODULES,
  mutual_tls: modules.mutualTls,
  tls_termination: modules.tlsTermination,
};

/** Shared by fromLive and normalizeDesired: modules to the sent shape, empty hostports/strings as absent. */
function edgeNormalizer(normalizers: Normalizers): (body: Obj) => Obj {
  return (body) => dropEmptyStrings(dropEmptyList(modules.normalizeModules(body, normalizers), 'hostports'));
}

export function edgeKind(opts: { kind: string; contract: ContractKind; modules: Normalizers }): ResourceKind {
  const moduleNames = Object.keys(opts.modules);
  return modules.sendingPolicyText(markerKind({
    kind: opts.kind,
    contract: opts.contract,
    fields: ['description', 'metadata', 'hostports', ...moduleNames],
    normalize: edgeNormalizer(opts.modules),
    modules: moduleNames,
    adoptKeys: hostportKeys,
    unique: [HOSTPORTS],
    brief: (body) => (Array.isArray(body.hostports) ? body.hostports.join(', ') : ''),
  }));
}
