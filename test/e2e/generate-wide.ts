// More of each seeded set for the property test, in shapes generate.ts leaves out: literal ids of resources
// edgeops does not manage (next to names), IPv6 rules, outbound policy rules, action configs, subscriptions with
// destination_ids, HTTPS edges with mutual TLS and their routes' headers. Names come from pools of their own, so
// two sets for one stack overlap here too; hostports are a function of the name.
import type { Obj } from '../../src/kinds/resource-kind.ts';
import type { Rng } from '../helpers/service.ts';
import { chance, int, pick, subset } from './generate.ts';
import type { Doc } from './harness.ts';

/** Ids of unmanaged resources made through the API before the test: documents may name them literally. */
export interface Literals {
  ipPolicy: string;
  tunnelGroupBackend: string;
  httpResponseBackend: string;
  certificateAuthority: string;
}

const ACTIONS: Obj[] = [
  { type: 'deny' },
  { type: 'log', config: { metadata: { source: 'edgeops', level: 2 } } },
  { type: 'custom-response', config: { status_code: 403, content: 'blocked', headers: { 'content-type': 'text/plain' } } },
  { type: 'rate-limit', config: { capacity: 10, rate: '60s', bucket_key: ['conn.client_ip'] } },
];

function rule(rng: Rng, n: number): Obj {
  const out: Obj = { expressions: subset(rng, [`conn.server_port != ${n}`, 'conn.client_ip.is_on_blocklist', `conn.tls.version >= "1.${n % 4}"`], 2), actions: subset(rng, ACTIONS, 2) };
  if (chance(rng, 0.6)) out.name = `rule-${n}`;
  return out;
}

export function generateWide(rng: Rng, lit: Literals, certs: { caPem: string }): Doc[] {
  const docs: Doc[] = [];
  const described = (doc: Doc): Doc => {
    if (chance(rng, 0.5)) doc.description = pick(rng, ['wide', 'v6 ✓', 'outbound']);
    if (chance(rng, 0.3)) doc.metadata = pick<Obj>(rng, [{ set: 'wide' }, { n: [1, 2, 3] }]);
    return doc;
  };

  const policies = Array.from({ length: int(rng, 2, 4) }, (_, i) => `wpol${i}`);
  for (const p of policies) docs.push(described({ kind: 'IPPolicy', name: p }));
  policies.forEach((p, i) => {
    for (let j = 0; j < int(rng, 1, 3); j++) {
      const cidr = pick(rng, [`2001:db8:${i}${j}::/48`, `2001:db8:${i}:${j}::/64`, `fd00:${i}:${j}::1/128`, `192.0.2.${16 * j}/28`]);
      docs.push(described({ kind: 'IPPolicyRule', name: `${p}-v6r${j}`, ip_policy_id: p, cidr, action: pick(rng, ['allow', 'deny']) }));
    }
  });
  // Rules in a policy edgeops does not manage, named by its literal id.
  for (let j = 0; j < int(rng, 1, 2); j++) {
    docs.push({ kind: 'IPPolicyRule', name: `lit-r${j}`, ip_policy_id: lit.ipPolicy, cidr: `2001:db8:ffff:${j}::/64`, action: 'deny' });
  }
  const policyRefs = [...policies, lit.ipPolicy];

  const tunnels = Array.from({ length: int(rng, 2, 4) }, (_, i) => `wtg${i}`);
  for (const t of tunnels) docs.push(described({ kind: 'TunnelGroupBackend', name: t, labels: { app: t, ...(chance(rng, 0.5) ? { region: pick(rng, ['eu', 'us', 'ap']) } : {}) } }));
  const responses = Array.from({ length: int(rng, 1, 2) }, (_, i) => `whr${i}`);
  for (const h of responses) {
    const doc: Doc = { kind: 'HTTPResponseBackend', name: h, body: pick(rng, ['gone', 'moved', '{"error":"maintenance"}']) };
    if (chance(rng, 0.7)) doc.headers = { 'Content-Type': pick(rng, ['text/plain', 'application/json']), ...(chance(rng, 0.5) ? { 'Retry-After': '120' } : {}) };
    if (chance(rng, 0.7)) doc.status_code = pick(rng, [200, 301, 410, 503]);
    docs.push(described(doc));
  }
  const backendRefs = [...tunnels, ...responses, lit.tunnelGroupBackend, lit.httpResponseBackend];
  const backend = (): Obj => ({ ...(chance(rng, 0.2) ? { enabled: false } : {}), backend_id: pick(rng, backendRefs) });
  const ipRestriction = (): Obj => ({ ip_policy_ids: subset(rng, policyRefs, 3) });
  const policy = (n: number): Obj => ({
    ...(chance(rng, 0.2) ? { enabled: false } : {}),
    inbound: chance(rng, 0.7) ? [rule(rng, n)] : [],
    outbound: Array.from({ length: int(rng, 1, 2) }, (_, k) => rule(rng, n + k + 1)),
  });

  for (let n = 0; n < int(rng, 3, 6); n++) {
    const edge: Doc = { kind: 'TCPEdge', name: `wtcp${n}`, hostports: [`2.tcp.example.com:${21000 + n}`], backend: backend() };
    if (chance(rng, 0.6)) edge.ip_restriction = ipRestriction();
    if (chance(rng, 0.8)) edge.policy = policy(n);
    docs.push(described(edge));
  }
  for (let n = 0; n < int(rng, 1, 3); n++) {
    const edge: Doc = { kind: 'TLSEdge', name: `wtls${n}`, hostports: [`wtls${n}.example.com:443`], backend: backend() };
    edge.mutual_tls = { certificate_authority_ids: chance(rng, 0.5) ? [lit.certificateAuthority] : ['wca'] };
    edge.tls_termination = { terminate_at: 'edge', min_version: chance(rng, 0.5) ? pick(rng, ['1.2', '1.3']) : null };
    if (chance(rng, 0.5)) edge.policy = policy(n + 10);
    docs.push(described(edge));
  }
  docs.push({ kind: 'CertificateAuthority', name: 'wca', ca_pem: certs.caPem });

  const sites = Array.from({ length: int(rng, 1, 2) }, (_, i) => `wsite${i}`);
  for (const s of sites) {
    docs.push(described({ kind: 'HTTPSEdge', name: s, hostports: [`${s}.example.com:443`], mutual_tls: { certificate_authority_ids: subset(rng, [lit.certificateAuthority, 'wca']) } }));
    for (let k = 0; k < int(rng, 1, 3); k++) {
      const route = `${s}-r${k}`;
      docs.push(described({ kind: 'HTTPSEdgeRoute', name: route, edge_id: s, match_type: 'path_prefix', match: `/w${k}`, backend: backend(), ip_restriction: ipRestriction() }));
      if (chance(rng, 0.6)) {
        docs.push({ kind: 'RouteResponseHeaders', name: `${route}-h`, edge_id: s, route_id: route, add: { 'X-Route': route }, remove: subset(rng, ['server', 'via']) });
      }
    }
  }

  for (let s = 0; s < int(rng, 1, 3); s++) {
    // This service serves no event destinations, so the one list it accepts is the empty one.
    docs.push(described({ kind: 'EventSubscription', name: `wsub${s}`, ...(chance(rng, 0.6) ? { destination_ids: [] } : {}) }));
    docs.push({ kind: 'EventSources', name: `wsub${s}-sources`, subscription_id: `wsub${s}`, types: subset(rng, ['tls_certificate_created.v0', 'ip_policy_updated.v0', 'ip_policy_rule_created.v0']) });
  }
  return docs;
}
