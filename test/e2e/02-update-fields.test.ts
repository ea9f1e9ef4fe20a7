// Change each field of each kind: the plan shows exactly that update (the path, and the old and new value) and
// nothing else, apply converges, and going back to the base set converges too. Fields the service cannot update
// (a replace) are in 04-replace; adding and removing whole modules in 03-modules.
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.ts';
import type { Json } from '../../src/kinds/resource-kind.ts';
import { kindSchemas } from '../../src/manifest/schema/kinds.ts';
import { executePlan, type PlanContext } from '../../src/pipeline.ts';
import { allKinds, type Certs } from './fixtures.ts';
import { e2eForFile, edit, ownerOf, planLines } from './harness.ts';
import type { Doc } from './harness.ts';

/** The fixture set, plus a second CA so a mutual TLS list can change to another managed CA. */
const baseSet = (certs: Certs): Doc[] => [
  ...allKinds(certs),
  { kind: 'CertificateAuthority', name: 'partners-ca', ca_pem: certs.ca2.certPem },
];

const { e, certs } = e2eForFile({ converge: baseSet });

/** A value as the plan holds it, with every live id of this stack shown as the resource it is (`<Kind/name>`). */
function shown(value: Json | undefined, names: Map<string, string>): string {
  if (value === undefined) return '(none)';
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && names.has(v) ? `<${names.get(v)}>` : v));
}

/** Every field change of the plan: `op Kind/name[:module] /path: old -> new`. */
function changeLines(ctx: PlanContext): string[] {
  const names = new Map<string, string>();
  for (const items of ctx.live.byKind.values()) {
    for (const item of items) {
      const owner = ownerOf(item.raw);
      if (owner) names.set(item.id, owner);
    }
  }
  return ctx.plan.actions.flatMap((a) => a.changes.map((c) => {
    const values = c.sensitive ? '(sensitive)' : `${shown(c.old, names)} -> ${shown(c.new, names)}`;
    return `${a.op} ${a.address}${a.module ? `:${a.module}` : ''} ${c.path}: ${values}`;
  }));
}

type Case = [label: string, address: string, change: (d: Doc) => void, expected: string[]];

const cases: Case[] = [
  ['IPPolicy description', 'IPPolicy/office', (d) => (d.description = 'new offices'), ['update IPPolicy/office /description: "office networks" -> "new offices"']],
  ['IPPolicy description removed', 'IPPolicy/partners', (d) => delete d.description, ['update IPPolicy/partners /description: "partner networks" -> (none)']],
  ['IPPolicy metadata value', 'IPPolicy/office', (d) => (d.metadata = { team: 'netops' }), ['update IPPolicy/office /metadata/team: "net" -> "netops"']],
  ['IPPolicy metadata added', 'IPPolicy/partners', (d) => (d.metadata = { a: 1 }), ['update IPPolicy/partners /metadata: (none) -> {"a":1}']],
  ['IPPolicy metadata removed', 'IPPolicy/office', (d) => delete d.metadata, ['update IPPolicy/office /metadata: {"team":"net"} -> (none)']],
  ['IPPolicyRule cidr', 'IPPolicyRule/office-v4', (d) => (d.cidr = '203.0.113.0/25'), ['update IPPolicyRule/office-v4 /cidr: "203.0.113.0/24" -> "203.0.113.0/25"']],
  ['IPPolicyRule IPv6 cidr', 'IPPolicyRule/office-v6', (d) => (d.cidr = '2001:db8:1::/64'), ['update IPPolicyRule/office-v6 /cidr: "2001:db8::/48" -> "2001:db8:1::/64"']],
  ['IPPolicyRule description', 'IPPolicyRule/office-v6', (d) => (d.description = 'v6'), ['update IPPolicyRule/office-v6 /description: (none) -> "v6"']],
  ['IPPolicyRule description removed', 'IPPolicyRule/office-v4', (d) => delete d.description, ['update IPPolicyRule/office-v4 /description: "office v4" -> (none)']],
  ['IPPolicyRule metadata', 'IPPolicyRule/office-v4', (d) => (d.metadata = { ticket: 'NET-2' }), ['update IPPolicyRule/office-v4 /metadata/ticket: "NET-1" -> "NET-2"']],
  ['TunnelGroupBackend label added', 'TunnelGroupBackend/web', (d) => (d.labels = { app: 'web', dc: 'us-1' }), ['update TunnelGroupBackend/web /labels/dc: (none) -> "us-1"']],
  ['TunnelGroupBackend label removed', 'TunnelGroupBackend/api', (d) => (d.labels = { app: 'api' }), ['update TunnelGroupBackend/api /labels/dc: "eu-1" -> (none)']],
  ['TunnelGroupBackend label value', 'TunnelGroupBackend/api', (d) => (d.labels = { app: 'api2', dc: 'eu-1' }), ['update TunnelGroupBackend/api /labels/app: "api" -> "api2"']],
  ['TunnelGroupBackend description', 'TunnelGroupBackend/web', (d) => (d.description = 'web tier 2'), ['update TunnelGroupBackend/web /description: "web tier" -> "web tier 2"']],
  ['TunnelGroupBackend description removed', 'TunnelGroupBackend/web', (d) => delete d.description, ['update TunnelGroupBackend/web /description: "web tier" -> (none)']],
  ['TunnelGroupBackend metadata', 'TunnelGroupBackend/web', (d) => (d.metadata = { team: 'platform' }), ['update TunnelGroupBackend/web /metadata/team: "web" -> "platform"']],
  ['TunnelGroupBackend metadata added', 'TunnelGroupBackend/api', (d) => (d.metadata = { tier: 2 }), ['update TunnelGroupBackend/api /metadata: (none) -> {"tier":2}']],
  ['HTTPResponseBackend body', 'HTTPResponseBackend/teapot', (d) => (d.body = 'short'), ['update HTTPResponseBackend/teapot /body: "I\'m a teapot" -> "short"']],
  ['HTTPResponseBackend header value', 'HTTPResponseBackend/teapot', (d) => (d.headers = { 'Content-Type': 'text/html' }), ['update HTTPResponseBackend/teapot /headers/content-type: "text/plain" -> "text/html"']],
  ['HTTPResponseBackend header added', 'HTTPResponseBackend/teapot', (d) => (d.headers = { 'Content-Type': 'text/plain', 'X-Tea': 'earl grey' }), ['update HTTPResponseBackend/teapot /headers/x-tea: (none) -> "earl grey"']],
  ['HTTPResponseBackend headers cleared', 'HTTPResponseBackend/teapot', (d) => delete d.headers, ['update HTTPResponseBackend/teapot /headers: {"content-type":"text/plain"} -> (none)']],
  ['HTTPResponseBackend status_code', 'HTTPResponseBackend/teapot', (d) => (d.status_code = 503), ['update HTTPResponseBackend/teapot /status_code: 418 -> 503']],
  ['HTTPResponseBackend status_code cleared (the service default)', 'HTTPResponseBackend/teapot', (d) => delete d.status_code, ['update HTTPResponseBackend/teapot /status_code: 418 -> 200']],
  ['HTTPResponseBackend description', 'HTTPResponseBackend/teapot', (d) => (d.description = 'tip me over'), ['update HTTPResponseBackend/teapot /description: "short and stout" -> "tip me over"']],
  ['HTTPResponseBackend description cleared', 'HTTPResponseBackend/teapot', (d) => delete d.description, ['update HTTPResponseBackend/teapot /description: "short and stout" -> (none)']],
  ['HTTPResponseBackend metadata', 'HTTPResponseBackend/teapot', (d) => (d.metadata = { joke: false }), ['update HTTPResponseBackend/teapot /metadata/joke: true -> false']],
  ['CertificateAuthority description', 'CertificateAuthority/clients', (d) => (d.description = 'CA'), ['update CertificateAuthority/clients /description: "client CA" -> "CA"']],
  ['CertificateAuthority metadata', 'CertificateAuthority/clients', (d) => (d.metadata = { owner: 'it' }), ['update CertificateAuthority/clients /metadata/owner: "sec" -> "it"']],
  ['TLSCertificate description', 'TLSCertificate/wild', (d) => (d.description = 'star'), ['update TLSCertificate/wild /description: "wildcard" -> "star"']],
  ['TLSCertificate metadata', 'TLSCertificate/wild', (d) => (d.metadata = { owner: 'it' }), ['update TLSCertificate/wild /metadata/owner: "sec" -> "it"']],
  ['TCPEdge description', 'TCPEdge/ssh', (d) => (d.description = 'bastion'), ['update TCPEdge/ssh /description: "ssh" -> "bastion"']],
  ['TCPEdge hostports', 'TCPEdge/ssh', (d) => (d.hostports = ['1.tcp.example.com:20001', '1.tcp.example.com:20002']), ['update TCPEdge/ssh /hostports: ["1.tcp.example.com:20001"] -> ["1.tcp.example.com:20001","1.tcp.example.com:20002"]']],
  ['TCPEdge hostports cleared', 'TCPEdge/ssh', (d) => delete d.hostports, ['update TCPEdge/ssh /hostports: ["1.tcp.example.com:20001"] -> (none)']],
  ['TCPEdge metadata', 'TCPEdge/ssh', (d) => (d.metadata = { team: 'sre' }), ['update TCPEdge/ssh /metadata/team: "ops" -> "sre"']],
  ['TCPEdge backend target', 'TCPEdge/ssh', (d) => (d.backend = { enabled: true, backend_id: 'api' }), ['module-put TCPEdge/ssh:backend /backend/backend_id: "<TunnelGroupBackend/web>" -> "<TunnelGroupBackend/api>"']],
  ['TCPEdge backend to a literal id (an HTTP response backend)', 'TCPEdge/ssh', (d) => (d.backend = { backend_id: 'teapot' }), ['module-put TCPEdge/ssh:backend /backend/backend_id: "<TunnelGroupBackend/web>" -> "<HTTPResponseBackend/teapot>"']],
  ['TCPEdge backend disabled', 'TCPEdge/ssh', (d) => (d.backend = { enabled: false, backend_id: 'web' }), ['module-put TCPEdge/ssh:backend /backend/enabled: true -> false']],
  ['TCPEdge ip_restriction list', 'TCPEdge/ssh', (d) => (d.ip_restriction = { ip_policy_ids: ['office', 'partners'] }), ['module-put TCPEdge/ssh:ip_restriction /ip_restriction/ip_policy_ids: ["<IPPolicy/office>"] -> ["<IPPolicy/office>","<IPPolicy/partners>"]']],
  ['TCPEdge ip_restriction disabled', 'TCPEdge/ssh', (d) => (d.ip_restriction = { enabled: false, ip_policy_ids: ['office'] }), ['module-put TCPEdge/ssh:ip_restriction /ip_restriction/enabled: true -> false']],
  ['TCPEdge policy rule', 'TCPEdge/ssh', (d) => ((d.policy as { inbound: { expressions: string[] }[] }).inbound[0]!.expressions = ['conn.server_port != 2222']), ['module-put TCPEdge/ssh:policy /policy/inbound/0/expressions: ["conn.server_port != 22"] -> ["conn.server_port != 2222"]']],
  ['TCPEdge policy outbound rule with action config', 'TCPEdge/ssh', (d) => ((d.policy as { outbound: unknown[] }).outbound = [{ name: 'log-all', expressions: [], actions: [{ type: 'log', config: { metadata: { env: 'prod' } } }] }]), ['module-put TCPEdge/ssh:policy /policy/outbound: [] -> [{"name":"log-all","expressions":[],"actions":[{"type":"log","config":{"metadata":{"env":"prod"}}}]}]']],
  ['TCPEdge traffic_policy added', 'TCPEdge/ssh', (d) => (d.traffic_policy = { value: { on_tcp_connect: [{ actions: [{ type: 'deny' }] }] } }), ['module-put TCPEdge/ssh:traffic_policy /traffic_policy: (none) -> {"enabled":true,"value":{"on_tcp_connect":[{"actions":[{"type":"deny"}]}]}}']],
  ['TLSEdge traffic_policy added as JSON text', 'TLSEdge/secure', (d) => (d.traffic_policy = { enabled: false, value: '{"on_tcp_connect": [{"actions": [{"type": "log"}]}]}' }), ['module-put TLSEdge/secure:traffic_policy /traffic_policy: (none) -> {"enabled":false,"value":{"on_tcp_connect":[{"actions":[{"type":"log"}]}]}}']],
  ['HTTPSEdgeRoute traffic_policy added', 'HTTPSEdgeRoute/root', (d) => (d.traffic_policy = { value: { on_http_request: [{ expressions: ['true'], actions: [{ type: 'deny' }] }] } }), ['module-put HTTPSEdgeRoute/root:traffic_policy /traffic_policy: (none) -> {"enabled":true,"value":{"on_http_request":[{"expressions":["true"],"actions":[{"type":"deny"}]}]}}']],
  ['TCPEdge policy disabled', 'TCPEdge/ssh', (d) => ((d.policy as { enabled: boolean }).enabled = false), ['module-put TCPEdge/ssh:policy /policy/enabled: true -> false']],
  ['TLSEdge description', 'TLSEdge/secure', (d) => (d.description = 'mTLS'), ['update TLSEdge/secure /description: "mutual TLS" -> "mTLS"']],
  ['TLSEdge description cleared', 'TLSEdge/secure', (d) => delete d.description, ['update TLSEdge/secure /description: "mutual TLS" -> (none)']],
  ['TLSEdge metadata added', 'TLSEdge/secure', (d) => (d.metadata = { team: 'sec' }), ['update TLSEdge/secure /metadata: (none) -> {"team":"sec"}']],
  ['TLSEdge hostports', 'TLSEdge/secure', (d) => (d.hostports = ['secure2.example.com:443']), ['update TLSEdge/secure /hostports: ["secure.example.com:443"] -> ["secure2.example.com:443"]']],
  ['TLSEdge backend target', 'TLSEdge/secure', (d) => (d.backend = { backend_id: 'web' }), ['module-put TLSEdge/secure:backend /backend/backend_id: "<TunnelGroupBackend/api>" -> "<TunnelGroupBackend/web>"']],
  ['TLSEdge backend disabled', 'TLSEdge/passthrough', (d) => (d.backend = { enabled: false, backend_id: 'api' }), ['module-put TLSEdge/passthrough:backend /backend/enabled: true -> false']],
  ['TLSEdge policy added', 'TLSEdge/secure', (d) => (d.policy = { inbound: [{ expressions: ['conn.client_ip.is_on_blocklist'], actions: [{ type: 'deny' }] }] }), ['module-put TLSEdge/secure:policy /policy: (none) -> {"enabled":true,"inbound":[{"expressions":["conn.client_ip.is_on_blocklist"],"actions":[{"type":"deny"}]}],"outbound":[]}']],
  ['TLSEdge min_version', 'TLSEdge/secure', (d) => (d.tls_termination = { terminate_at: 'edge', min_version: '1.3' }), ['module-put TLSEdge/secure:tls_termination /tls_termination/min_version: "1.2" -> "1.3"']],
  ['TLSEdge min_version cleared (null)', 'TLSEdge/secure', (d) => (d.tls_termination = { terminate_at: 'edge', min_version: null }), ['module-put TLSEdge/secure:tls_termination /tls_termination/min_version: "1.2" -> (none)']],
  ['TLSEdge terminate_at', 'TLSEdge/passthrough', (d) => (d.tls_termination = { terminate_at: 'edge' }), ['module-put TLSEdge/passthrough:tls_termination /tls_termination/terminate_at: "upstream" -> "edge"']],
  ['TLSEdge tls_termination disabled', 'TLSEdge/secure', (d) => (d.tls_termination = { enabled: false, terminate_at: 'edge', min_version: '1.2' }), ['module-put TLSEdge/secure:tls_termination /tls_termination/enabled: true -> false']],
  ['TLSEdge mutual_tls disabled', 'TLSEdge/secure', (d) => (d.mutual_tls = { enabled: false, certificate_authority_ids: ['clients'] }), ['module-put TLSEdge/secure:mutual_tls /mutual_tls/enabled: true -> false']],
  ['TLSEdge mutual_tls CA list', 'TLSEdge/secure', (d) => (d.mutual_tls = { certificate_authority_ids: ['clients', 'partners-ca'] }), ['module-put TLSEdge/secure:mutual_tls /mutual_tls/certificate_authority_ids: ["<CertificateAuthority/clients>"] -> ["<CertificateAuthority/clients>","<CertificateAuthority/partners-ca>"]']],
  ['TLSEdge ip_restriction order', 'TLSEdge/secure', (d) => (d.ip_restriction = { ip_policy_ids: ['partners', 'office'] }), ['module-put TLSEdge/secure:ip_restriction /ip_restriction/ip_policy_ids: ["<IPPolicy/office>","<IPPolicy/partners>"] -> ["<IPPolicy/partners>","<IPPolicy/office>"]']],
  ['HTTPSEdge description', 'HTTPSEdge/www', (d) => (d.description = 'site'), ['update HTTPSEdge/www /description: "web site" -> "site"']],
  ['HTTPSEdge metadata', 'HTTPSEdge/www', (d) => (d.metadata = { team: 'shop' }), ['update HTTPSEdge/www /metadata/team: "web" -> "shop"']],
  ['HTTPSEdge metadata removed', 'HTTPSEdge/www', (d) => delete d.metadata, ['update HTTPSEdge/www /metadata: {"team":"web"} -> (none)']],
  ['HTTPSEdge hostports', 'HTTPSEdge/shop', (d) => (d.hostports = ['shop.example.com:443', 'store.example.com:443']), ['update HTTPSEdge/shop /hostports: ["shop.example.com:443"] -> ["shop.example.com:443","store.example.com:443"]']],
  ['HTTPSEdge tls_termination', 'HTTPSEdge/www', (d) => (d.tls_termination = { min_version: '1.3' }), ['module-put HTTPSEdge/www:tls_termination /tls_termination/min_version: "1.2" -> "1.3"']],
  ['HTTPSEdge mutual_tls CA list', 'HTTPSEdge/www', (d) => (d.mutual_tls = { certificate_authority_ids: ['partners-ca'] }), ['module-put HTTPSEdge/www:mutual_tls /mutual_tls/certificate_authority_ids: ["<CertificateAuthority/clients>"] -> ["<CertificateAuthority/partners-ca>"]']],
  ['HTTPSEdge mutual_tls disabled', 'HTTPSEdge/www', (d) => (d.mutual_tls = { enabled: false, certificate_authority_ids: ['clients'] }), ['module-put HTTPSEdge/www:mutual_tls /mutual_tls/enabled: true -> false']],
  ['HTTPSEdgeRoute match', 'HTTPSEdgeRoute/brew', (d) => (d.match = '/brew/'), ['update HTTPSEdgeRoute/brew /match: "/brew" -> "/brew/"']],
  ['HTTPSEdgeRoute match_type', 'HTTPSEdgeRoute/brew', (d) => (d.match_type = 'path_prefix'), ['update HTTPSEdgeRoute/brew /match_type: "exact_path" -> "path_prefix"']],
  ['HTTPSEdgeRoute description', 'HTTPSEdgeRoute/root', (d) => (d.description = 'all'), ['update HTTPSEdgeRoute/root /description: "everything" -> "all"']],
  ['HTTPSEdgeRoute metadata', 'HTTPSEdgeRoute/root', (d) => (d.metadata = { team: 'www' }), ['update HTTPSEdgeRoute/root /metadata/team: "web" -> "www"']],
  ['HTTPSEdgeRoute backend', 'HTTPSEdgeRoute/brew', (d) => (d.backend = { backend_id: 'web' }), ['module-put HTTPSEdgeRoute/brew:backend /backend/backend_id: "<HTTPResponseBackend/teapot>" -> "<TunnelGroupBackend/web>"']],
  ['HTTPSEdgeRoute backend disabled', 'HTTPSEdgeRoute/brew', (d) => (d.backend = { enabled: false, backend_id: 'teapot' }), ['module-put HTTPSEdgeRoute/brew:backend /backend/enabled: true -> false']],
  ['HTTPSEdgeRoute ip_restriction', 'HTTPSEdgeRoute/root', (d) => (d.ip_restriction = { ip_policy_ids: ['partners'] }), ['module-put HTTPSEdgeRoute/root:ip_restriction /ip_restriction/ip_policy_ids: ["<IPPolicy/office>"] -> ["<IPPolicy/partners>"]']],
  ['RouteResponseHeaders add', 'RouteResponseHeaders/root-headers', (d) => (d.add = { 'X-Frame-Options': 'SAMEORIGIN' }), ['update RouteResponseHeaders/root-headers /add/x-frame-options: "DENY" -> "SAMEORIGIN"']],
  ['RouteResponseHeaders add cleared', 'RouteResponseHeaders/root-headers', (d) => delete d.add, ['update RouteResponseHeaders/root-headers /add/x-frame-options: "DENY" -> (none)']],
  ['RouteResponseHeaders remove', 'RouteResponseHeaders/root-headers', (d) => (d.remove = ['server', 'x-powered-by']), ['update RouteResponseHeaders/root-headers /remove: ["server"] -> ["server","x-powered-by"]']],
  ['RouteResponseHeaders remove cleared', 'RouteResponseHeaders/root-headers', (d) => delete d.remove, ['update RouteResponseHeaders/root-headers /remove: ["server"] -> []']],
  ['RouteResponseHeaders enabled', 'RouteResponseHeaders/root-headers', (d) => (d.enabled = false), ['update RouteResponseHeaders/root-headers /enabled: true -> false']],
  ['EventSubscription description', 'EventSubscription/audit', (d) => (d.description = 'audit trail'), ['update EventSubscription/audit /description: "policy changes" -> "audit trail"']],
  ['EventSubscription description cleared', 'EventSubscription/audit', (d) => delete d.description, ['update EventSubscription/audit /description: "policy changes" -> (none)']],
  ['EventSubscription metadata', 'EventSubscription/audit', (d) => (d.metadata = { owner: 'audit' }), ['update EventSubscription/audit /metadata/owner: "sec" -> "audit"']],
  ['EventSources type added', 'EventSources/audit-sources', (d) => (d.types = ['ip_policy_created.v0', 'ip_policy_updated.v0', 'ip_policy_deleted.v0']), ['update EventSources/audit-sources /types: ["ip_policy_created.v0","ip_policy_updated.v0"] -> ["ip_policy_created.v0","ip_policy_deleted.v0","ip_policy_updated.v0"]']],
  ['EventSources type removed', 'EventSources/audit-sources', (d) => (d.types = ['ip_policy_updated.v0']), ['update EventSources/audit-sources /types: ["ip_policy_created.v0","ip_policy_updated.v0"] -> ["ip_policy_updated.v0"]']],
];

describe('change one field at a time', () => {
  it.each(cases)('%s', async (_label, address, change, expected) => {
    const base = baseSet(certs);
    const changed = edit(base, address, change);
    const ctx = await e.plan(changed);
    expect(changeLines(ctx)).toEqual(expected);
    expect(new Set(ctx.plan.actions.map((a) => a.address))).toEqual(new Set([address]));
    expect(ctx.plan.summary).toEqual({ create: 0, update: 1, replace: 0, delete: 0 });
    await e.converge(changed);
    const back = await e.plan(base);
    expect(new Set(back.plan.actions.map((a) => a.address))).toEqual(new Set([address]));
    await e.converge(base);
  });

  it('changes every field of every kind schema (immutable ones are replaced in 04-replace)', () => {
    const changed = new Set(cases.flatMap(([, address, change]) => {
      const before = baseSet(certs).find((d) => `${d.kind}/${d.name}` === address)!;
      const after = edit([before], address, change)[0]!;
      const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
      return [...fields].filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f])).map((f) => `${before.kind}.${f}`);
    }));
    changed.add('EventSubscription.destination_ids'); // its own case below: this service has no destinations
    const replaced = KINDS.flatMap((k) => k.immutable.map((f) => `${k.kind}.${f}`));
    // moved_from names the live resource to keep, it is no field of it (14-moved-from).
    const every = [...kindSchemas()].flatMap(([kind, schema]) =>
      Object.keys(schema.properties as object).filter((f) => f !== 'kind' && f !== 'name' && f !== 'moved_from').map((f) => `${kind}.${f}`));
    expect(every.filter((f) => !changed.has(f) && !replaced.includes(f))).toEqual([]);
  });

  it('EventSubscription destination_ids: planned as exactly that update; this service has no destinations, so apply fails with its 400 and changes nothing', async () => {
    const base = baseSet(certs);
    const same = edit(base, 'EventSubscription/audit', (d) => (d.destination_ids = []));
    expect(planLines((await e.plan(same)).plan)).toEqual([]);
    const changed = edit(base, 'EventSubscription/audit', (d) => (d.destination_ids = ['ed_1234']));
    const ctx = await e.plan(changed);
    expect(changeLines(ctx)).toEqual(['update EventSubscription/audit /destination_ids: [] -> ["ed_1234"]']);
    const result = await executePlan(ctx, e.api, { stack: 'e2e', concurrency: 4 });
    expect(result.results).toEqual([
      expect.objectContaining({ actionId: 'update:EventSubscription/audit', status: 'failed', error: expect.objectContaining({ status: 400, errorCode: 'ERR_REFERENCE_NOT_FOUND' }) }),
    ]);
    expect(planLines((await e.plan(base)).plan)).toEqual([]);
  });
});
