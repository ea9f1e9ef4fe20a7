// TCP, TLS and HTTPS edges differ only in path, prefix and which modules they carry: one factory builds them.
import { hostportKeys } from './adopt-keys.ts';
import * as modules from './edge-modules.ts';
import { markerKind } from './marker-kind.ts';
import { dropEmptyList, dropEmptyStrings } from './normalize.ts';
import type { ContractKind } from '../contract/index.ts';
import type { Obj, ResourceKind, UniqueField } from './resource-kind.ts';

type Normalizers = Record<string, (m: Obj) => Obj>;


/** A hostport is served by one edge of any kind; the service compares them without case (IPv6 canonical). */
export const HOSTPORTS: UniqueField = {
  field: 'hostports',
  scope: 'hostport',
  key(hostport) {
    if (!hostport.startsWith('[')) return hostport.toLowerCase();
    const colon = hostport.lastIndexOf(':');
    try {
      return `${new URL(`http://${hostport.slice(0, colon)}`).hostname}${hostport.slice(colon)}`;
    } catch {
      return hostport.toLowerCase();
    }
  },
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
export function edgeNormalizer(normalizers: Normalizers): (body: Obj) => Obj {
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
  }));
}
