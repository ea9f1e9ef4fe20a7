// TCP, TLS and HTTPS edges: hostports and a set of modules. A PATCH takes the same fields as a create (a sent
// module replaces the stored one whole). With TLS passed through to the upstream (tls_termination.terminate_at
// = upstream) the edge never sees plaintext, so only backend and ip_restriction may be set, on every write.
import { moduleRefs, type ContractKind, type DocumentCheck, type ModuleContract } from '../kind.ts';
import { description, metadata, object, type BodySchema } from '../schema.ts';
import {
  backendModule, httpsTlsTerminationModule, ipRestrictionModule, mutualTlsModule, policyModule, tcpTrafficPolicyModule,
  tlsTerminationModule,
} from './edge-modules.ts';

declare module '../kind.ts' {
  interface KindNames {
    tcp_edge: true;
    tls_edge: true;
    https_edge: true;
  }
}

export const hostports: BodySchema = {
  type: 'array',
  items: { type: 'string', rule: 'hostport' },
  distinct: { by: 'hostport', code: 'ERR_HOSTPORT_DUPLICATE' },
  description: 'host:port strings (DNS name, IPv4 or [IPv6]; port 1-65535), each served by one edge only.',
};

/** The create/PATCH body of an edge with these modules. */
function edgeBody(modules: readonly ModuleContract[]): BodySchema {
  return object({ description, metadata, hostports, ...Object.fromEntries(modules.map((m) => [m.name, m.schema])) });
}

/** Everything an edge kind declares beyond its names. */
function edgeKind(modules: readonly ModuleContract[], checks: readonly DocumentCheck[] = []) {
  const body = edgeBody(modules);
  return { create: body, update: body, immutable: [], modules, refs: moduleRefs(modules), checks, echoedIds: ['id'] };
}

const TCP_MODULES = [backendModule, ipRestrictionModule, policyModule, tcpTrafficPolicyModule];
const TLS_MODULES = [backendModule, ipRestrictionModule, mutualTlsModule, tlsTerminationModule, policyModule, tcpTrafficPolicyModule];
const ALLOWED_WITH_UPSTREAM = new Set(['backend', 'ip_restriction', 'tls_termination']);

export const upstreamTermination: DocumentCheck = (doc) => {
  const termination = doc.tls_termination as { terminate_at?: unknown } | null | undefined;
  if (termination?.terminate_at !== 'upstream') return undefined;
  const extra = TLS_MODULES.find((m) => !ALLOWED_WITH_UPSTREAM.has(m.name) && doc[m.name] !== null && doc[m.name] !== undefined);
  return extra && {
    field: extra.name, code: 'ERR_MODULE_NOT_ALLOWED_UPSTREAM',
    message: 'not allowed when tls_termination.terminate_at is upstream (only backend and ip_restriction are)',
  };
};

export const tcpEdge: ContractKind = {
  kind: 'tcp_edge', prefix: 'edgtcp', label: 'TCP edge', path: '/edges/tcp', listKey: 'tcp_edges',
  ...edgeKind(TCP_MODULES),
};

export const tlsEdge: ContractKind = {
  kind: 'tls_edge', prefix: 'edgtls', label: 'TLS edge', path: '/edges/tls', listKey: 'tls_edges',
  ...edgeKind(TLS_MODULES, [upstreamTermination]),
};

export const httpsEdge: ContractKind = {
  kind: 'https_edge', prefix: 'edghts', label: 'HTTPS edge', path: '/edges/https', listKey: 'https_edges',
  ...edgeKind([mutualTlsModule, httpsTlsTerminationModule]),
};
