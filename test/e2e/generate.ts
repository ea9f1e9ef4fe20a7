// Seeded random manifest sets for the property test: dozens of valid resources of every kind with random
// references and modules. Names come from small pools, so two sets drawn for one stack overlap: applying one
// after the other exercises creates, updates, module puts/deletes, replaces and deletes together.
// Hostports are a function of the edge's name, so no hostport ever moves between edges.
import type { Json, Obj } from '../../src/kinds/resource-kind.ts';
import { prng, type Rng } from '../helpers/service.ts';
import type { Certs } from './fixtures.ts';
import type { Doc } from './harness.ts';

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
export const chance = (rng: Rng, p: number): boolean => rng() < p;
export const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
/** A non-empty random subset, in random order (order is meaningful to the service and must be kept). */
export function subset<T>(rng: Rng, items: readonly T[], max = items.length): T[] {
  const shuffled = [...items].sort(() => rng() - 0.5);
  return shuffled.slice(0, int(rng, 1, Math.min(max, items.length)));
}

const EVENT_TYPES = ['ip_policy_created.v0', 'ip_policy_updated.v0', 'ip_policy_deleted.v0', 'tls_certificate_created.v0'];
const HEADER_NAMES = ['Content-Type', 'X-Served-By', 'Cache-Control', 'x-trace'];

function common(rng: Rng, doc: Doc): Doc {
  if (chance(rng, 0.5)) doc.description = pick(rng, ['first', 'second', 'a longer description', 'ünïcode ✓']);
  if (chance(rng, 0.4)) doc.metadata = pick<Obj>(rng, [{ team: 'a' }, { team: 'b', tier: 1 }, { nested: { x: [1, 2] } }]);
  return doc;
}

const PHASES: Record<string, string[]> = {
  TCPEdge: ['on_tcp_connect'],
  HTTPSEdgeRoute: ['on_tcp_connect', 'on_http_request', 'on_http_response'],
};

/** A traffic_policy module: the document as a mapping, or now and then as the JSON text another tool writes. */
function trafficPolicy(rng: Rng, phases: string[]): Json {
  const doc: Obj = {};
  for (const phase of subset(rng, phases, 2)) {
    doc[phase] = [{
      ...(chance(rng, 0.5) ? { name: `${phase}-rule` } : {}),
      expressions: [`conn.server_port != ${int(rng, 1, 9)}`],
      actions: [{ type: pick(rng, ['deny', 'log']), ...(chance(rng, 0.4) ? { config: { level: 'info', n: int(rng, 1, 3) } } : {}) }],
    }];
  }
  return { ...(chance(rng, 0.3) ? { enabled: chance(rng, 0.5) } : {}), value: chance(rng, 0.3) ? JSON.stringify(doc) : doc };
}

/**
 * traffic_policy on some TCP edges and routes, drawn from a generator of its own (seeded by the set's names) so
 * that the draws of generateSet, and so the sets of every seed, stay what they were before the module existed.
 */
function addTrafficPolicies(docs: Doc[]): void {
  const rng = prng([...docs.map((d) => d.name).join(',')].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, docs.length));
  for (const doc of docs) {
    const phases = PHASES[String(doc.kind)];
    if (phases && chance(rng, 0.5)) doc.traffic_policy = trafficPolicy(rng, phases);
  }
}

export function generateSet(rng: Rng, certs: Certs): Doc[] {
  const docs: Doc[] = [];
  const policies = Array.from({ length: int(rng, 1, 4) }, (_, i) => `pol${i}`);
  for (const p of policies) docs.push(common(rng, { kind: 'IPPolicy', name: p }));
  policies.forEach((p, i) => {
    for (let j = 0; j < int(rng, 0, 3); j++) {
      const rule: Doc = { kind: 'IPPolicyRule', name: `${p}-r${j}`, ip_policy_id: p, cidr: `10.${i}.${j}.0/24`, action: pick(rng, ['allow', 'deny']) };
      if (chance(rng, 0.2)) rule.cidr = `10.${i}.${j}.0/25`;
      docs.push(common(rng, rule));
    }
  });

  const tunnels = Array.from({ length: int(rng, 1, 3) }, (_, i) => `tg${i}`);
  for (const t of tunnels) docs.push(common(rng, { kind: 'TunnelGroupBackend', name: t, labels: { app: t, ...(chance(rng, 0.5) ? { dc: pick(rng, ['eu', 'us']) } : {}) } }));
  const responses = Array.from({ length: int(rng, 0, 2) }, (_, i) => `hr${i}`);
  for (const h of responses) {
    const doc: Doc = { kind: 'HTTPResponseBackend', name: h, body: pick(rng, ['ok', 'maintenance', '']) || 'x' };
    if (chance(rng, 0.6)) doc.headers = Object.fromEntries(subset(rng, HEADER_NAMES, 2).map((n) => [n, pick(rng, ['1', 'text/plain'])]));
    if (chance(rng, 0.6)) doc.status_code = pick(rng, [200, 404, 418, 503]);
    docs.push(common(rng, doc));
  }
  const backends = [...tunnels, ...responses];

  const cas = ['ca0', 'ca1'].slice(0, int(rng, 0, 2));
  const caPems = [certs.ca.certPem, certs.ca2.certPem];
  cas.forEach((c, i) => docs.push(common(rng, { kind: 'CertificateAuthority', name: c, ca_pem: caPems[(i + int(rng, 0, 1)) % 2]! })));
  if (chance(rng, 0.5)) {
    const leaf = pick(rng, [certs.leaf, certs.leaf2]);
    docs.push(common(rng, { kind: 'TLSCertificate', name: 'cert0', certificate_pem: leaf.chainPem, private_key_pem: leaf.keyPem }));
  }

  const backendModule = (): Doc['backend'] => ({ ...(chance(rng, 0.3) ? { enabled: chance(rng, 0.5) } : {}), backend_id: pick(rng, backends) });
  const ipModule = (): Doc['ip_restriction'] => ({ ...(chance(rng, 0.3) ? { enabled: chance(rng, 0.5) } : {}), ip_policy_ids: subset(rng, policies, 3) });
  const policyModule = (): Doc['policy'] => ({
    enabled: chance(rng, 0.8),
    inbound: [{ name: 'rule', expressions: [`conn.server_port != ${int(rng, 1, 9)}`], actions: [{ type: pick(rng, ['deny', 'log']) }] }],
    outbound: [],
  });

  for (let n = 0; n < int(rng, 1, 4); n++) {
    const edge: Doc = { kind: 'TCPEdge', name: `tcp${n}` };
    if (chance(rng, 0.8)) edge.hostports = [`1.tcp.example.com:${20000 + n}`];
    if (chance(rng, 0.7)) edge.backend = backendModule();
    if (chance(rng, 0.5)) edge.ip_restriction = ipModule();
    if (chance(rng, 0.3)) edge.policy = policyModule();
    docs.push(common(rng, edge));
  }
  for (let n = 0; n < int(rng, 0, 3); n++) {
    const edge: Doc = { kind: 'TLSEdge', name: `tls${n}` };
    if (chance(rng, 0.8)) edge.hostports = [`tls${n}.example.com:443`];
    if (chance(rng, 0.7)) edge.backend = backendModule();
    if (chance(rng, 0.5)) edge.ip_restriction = ipModule();
    if (chance(rng, 0.3)) edge.tls_termination = { terminate_at: 'upstream' };
    else {
      if (chance(rng, 0.6)) edge.tls_termination = { terminate_at: 'edge', ...(chance(rng, 0.5) ? { min_version: pick(rng, ['1.2', '1.3']) } : {}) };
      if (cas.length > 0 && chance(rng, 0.5)) edge.mutual_tls = { certificate_authority_ids: subset(rng, cas) };
      if (chance(rng, 0.3)) edge.policy = policyModule();
    }
    docs.push(common(rng, edge));
  }

  const https = Array.from({ length: int(rng, 0, 2) }, (_, i) => `web${i}`);
  for (const h of https) {
    const edge: Doc = { kind: 'HTTPSEdge', name: h };
    if (chance(rng, 0.8)) edge.hostports = [`${h}.example.com:443`];
    if (cas.length > 0 && chance(rng, 0.4)) edge.mutual_tls = { certificate_authority_ids: subset(rng, cas) };
    if (chance(rng, 0.5)) edge.tls_termination = chance(rng, 0.5) ? { min_version: pick(rng, ['1.2', '1.3']) } : {};
    docs.push(common(rng, edge));
  }
  if (https.length > 0) {
    for (let k = 0; k < int(rng, 0, 4); k++) {
      const edgeName = pick(rng, https);
      const route: Doc = { kind: 'HTTPSEdgeRoute', name: `route${k}`, edge_id: edgeName, match_type: pick(rng, ['exact_path', 'path_prefix']), match: `/r${k}` };
      if (chance(rng, 0.7)) route.backend = backendModule();
      if (chance(rng, 0.4)) route.ip_restriction = ipModule();
      docs.push(common(rng, route));
      if (chance(rng, 0.5)) {
        const headers: Doc = { kind: 'RouteResponseHeaders', name: `route${k}-headers`, edge_id: edgeName, route_id: `route${k}` };
        if (chance(rng, 0.3)) headers.enabled = chance(rng, 0.5);
        if (chance(rng, 0.8)) headers.add = Object.fromEntries(subset(rng, HEADER_NAMES, 2).map((n) => [n, 'v']));
        if (chance(rng, 0.5)) headers.remove = subset(rng, ['server', 'x-powered-by'], 2);
        docs.push(headers);
      }
    }
  }

  for (let s = 0; s < int(rng, 0, 2); s++) {
    docs.push(common(rng, { kind: 'EventSubscription', name: `sub${s}` }));
    if (chance(rng, 0.7)) docs.push({ kind: 'EventSources', name: `sub${s}-sources`, subscription_id: `sub${s}`, types: subset(rng, EVENT_TYPES) });
  }
  addTrafficPolicies(docs);
  return docs;
}
