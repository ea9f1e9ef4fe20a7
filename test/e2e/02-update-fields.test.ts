// Change each field of each kind: the plan shows exactly that update (and nothing else), apply converges,
// and going back to the base set converges too.
import { describe, expect, it } from 'vitest';
import { allKinds } from './fixtures.ts';
import { e2eForFile, edit, planLines } from './harness.ts';
import type { Doc } from './harness.ts';

const { e, certs } = e2eForFile({ converge: allKinds });

type Case = [label: string, address: string, change: (d: Doc) => void, expected: string[]];

const cases: Case[] = [
  ['IPPolicy description', 'IPPolicy/office', (d) => (d.description = 'new offices'), ['update IPPolicy/office /description']],
  ['IPPolicy description removed', 'IPPolicy/partners', (d) => delete d.description, ['update IPPolicy/partners /description']],
  ['IPPolicy metadata value', 'IPPolicy/office', (d) => (d.metadata = { team: 'netops' }), ['update IPPolicy/office /metadata/team']],
  ['IPPolicy metadata added', 'IPPolicy/partners', (d) => (d.metadata = { a: 1 }), ['update IPPolicy/partners /metadata']],
  ['IPPolicy metadata removed', 'IPPolicy/office', (d) => delete d.metadata, ['update IPPolicy/office /metadata']],
  ['IPPolicyRule cidr', 'IPPolicyRule/office-v4', (d) => (d.cidr = '203.0.113.0/25'), ['update IPPolicyRule/office-v4 /cidr']],
  ['IPPolicyRule description', 'IPPolicyRule/office-v6', (d) => (d.description = 'v6'), ['update IPPolicyRule/office-v6 /description']],
  ['IPPolicyRule metadata', 'IPPolicyRule/office-v4', (d) => (d.metadata = { ticket: 'NET-2' }), ['update IPPolicyRule/office-v4 /metadata/ticket']],
  ['TunnelGroupBackend label added', 'TunnelGroupBackend/web', (d) => (d.labels = { app: 'web', dc: 'us-1' }), ['update TunnelGroupBackend/web /labels/dc']],
  ['TunnelGroupBackend label removed', 'TunnelGroupBackend/api', (d) => (d.labels = { app: 'api' }), ['update TunnelGroupBackend/api /labels/dc']],
  ['TunnelGroupBackend description', 'TunnelGroupBackend/web', (d) => (d.description = 'web tier 2'), ['update TunnelGroupBackend/web /description']],
  ['HTTPResponseBackend body', 'HTTPResponseBackend/teapot', (d) => (d.body = 'short'), ['update HTTPResponseBackend/teapot /body']],
  ['HTTPResponseBackend header value', 'HTTPResponseBackend/teapot', (d) => (d.headers = { 'Content-Type': 'text/html' }), ['update HTTPResponseBackend/teapot /headers/content-type']],
  ['HTTPResponseBackend header added', 'HTTPResponseBackend/teapot', (d) => (d.headers = { 'Content-Type': 'text/plain', 'X-Tea': 'earl grey' }), ['update HTTPResponseBackend/teapot /headers/x-tea']],
  ['HTTPResponseBackend status_code', 'HTTPResponseBackend/teapot', (d) => (d.status_code = 503), ['update HTTPResponseBackend/teapot /status_code']],
  ['HTTPResponseBackend metadata', 'HTTPResponseBackend/teapot', (d) => (d.metadata = { joke: false }), ['update HTTPResponseBackend/teapot /metadata/joke']],
  ['CertificateAuthority description', 'CertificateAuthority/clients', (d) => (d.description = 'CA'), ['update CertificateAuthority/clients /description']],
  ['CertificateAuthority metadata', 'CertificateAuthority/clients', (d) => (d.metadata = { owner: 'it' }), ['update CertificateAuthority/clients /metadata/owner']],
  ['TLSCertificate description', 'TLSCertificate/wild', (d) => (d.description = 'star'), ['update TLSCertificate/wild /description']],
  ['TLSCertificate metadata', 'TLSCertificate/wild', (d) => (d.metadata = { owner: 'it' }), ['update TLSCertificate/wild /metadata/owner']],
  ['TCPEdge description', 'TCPEdge/ssh', (d) => (d.description = 'bastion'), ['update TCPEdge/ssh /description']],
  ['TCPEdge hostports', 'TCPEdge/ssh', (d) => (d.hostports = ['1.tcp.example.com:20001', '1.tcp.example.com:20002']), ['update TCPEdge/ssh /hostports']],
  ['TCPEdge metadata', 'TCPEdge/ssh', (d) => (d.metadata = { team: 'sre' }), ['update TCPEdge/ssh /metadata/team']],
  ['TCPEdge backend target', 'TCPEdge/ssh', (d) => (d.backend = { enabled: true, backend_id: 'api' }), ['module-put TCPEdge/ssh:backend /backend/backend_id']],
  ['TCPEdge backend disabled', 'TCPEdge/ssh', (d) => (d.backend = { enabled: false, backend_id: 'web' }), ['module-put TCPEdge/ssh:backend /backend/enabled']],
  ['TCPEdge ip_restriction list', 'TCPEdge/ssh', (d) => (d.ip_restriction = { ip_policy_ids: ['office', 'partners'] }), ['module-put TCPEdge/ssh:ip_restriction /ip_restriction/ip_policy_ids']],
  ['TCPEdge policy rule', 'TCPEdge/ssh', (d) => ((d.policy as { inbound: { expressions: string[] }[] }).inbound[0]!.expressions = ['conn.server_port != 2222']), ['module-put TCPEdge/ssh:policy /policy/inbound/0/expressions']],
  ['TLSEdge hostports', 'TLSEdge/secure', (d) => (d.hostports = ['secure2.example.com:443']), ['update TLSEdge/secure /hostports']],
  ['TLSEdge min_version', 'TLSEdge/secure', (d) => (d.tls_termination = { terminate_at: 'edge', min_version: '1.3' }), ['module-put TLSEdge/secure:tls_termination /tls_termination/min_version']],
  ['TLSEdge mutual_tls disabled', 'TLSEdge/secure', (d) => (d.mutual_tls = { enabled: false, certificate_authority_ids: ['clients'] }), ['module-put TLSEdge/secure:mutual_tls /mutual_tls/enabled']],
  ['TLSEdge ip_restriction order', 'TLSEdge/secure', (d) => (d.ip_restriction = { ip_policy_ids: ['partners', 'office'] }), ['module-put TLSEdge/secure:ip_restriction /ip_restriction/ip_policy_ids']],
  ['HTTPSEdge description', 'HTTPSEdge/www', (d) => (d.description = 'site'), ['update HTTPSEdge/www /description']],
  ['HTTPSEdge hostports', 'HTTPSEdge/shop', (d) => (d.hostports = ['shop.example.com:443', 'store.example.com:443']), ['update HTTPSEdge/shop /hostports']],
  ['HTTPSEdge tls_termination', 'HTTPSEdge/www', (d) => (d.tls_termination = { min_version: '1.3' }), ['module-put HTTPSEdge/www:tls_termination /tls_termination/min_version']],
  ['HTTPSEdgeRoute match', 'HTTPSEdgeRoute/brew', (d) => (d.match = '/brew/'), ['update HTTPSEdgeRoute/brew /match']],
  ['HTTPSEdgeRoute match_type', 'HTTPSEdgeRoute/brew', (d) => (d.match_type = 'path_prefix'), ['update HTTPSEdgeRoute/brew /match_type']],
  ['HTTPSEdgeRoute description', 'HTTPSEdgeRoute/root', (d) => (d.description = 'all'), ['update HTTPSEdgeRoute/root /description']],
  ['HTTPSEdgeRoute metadata', 'HTTPSEdgeRoute/root', (d) => (d.metadata = { team: 'www' }), ['update HTTPSEdgeRoute/root /metadata/team']],
  ['HTTPSEdgeRoute backend', 'HTTPSEdgeRoute/brew', (d) => (d.backend = { backend_id: 'web' }), ['module-put HTTPSEdgeRoute/brew:backend /backend/backend_id']],
  ['HTTPSEdgeRoute ip_restriction', 'HTTPSEdgeRoute/root', (d) => (d.ip_restriction = { ip_policy_ids: ['partners'] }), ['module-put HTTPSEdgeRoute/root:ip_restriction /ip_restriction/ip_policy_ids']],
  ['RouteResponseHeaders add', 'RouteResponseHeaders/root-headers', (d) => (d.add = { 'X-Frame-Options': 'SAMEORIGIN' }), ['update RouteResponseHeaders/root-headers /add/x-frame-options']],
  ['RouteResponseHeaders remove', 'RouteResponseHeaders/root-headers', (d) => (d.remove = ['server', 'x-powered-by']), ['update RouteResponseHeaders/root-headers /remove']],
  ['RouteResponseHeaders enabled', 'RouteResponseHeaders/root-headers', (d) => (d.enabled = false), ['update RouteResponseHeaders/root-headers /enabled']],
  ['EventSubscription description', 'EventSubscription/audit', (d) => (d.description = 'audit trail'), ['update EventSubscription/audit /description']],
  ['EventSubscription metadata', 'EventSubscription/audit', (d) => (d.metadata = { owner: 'audit' }), ['update EventSubscription/audit /metadata/owner']],
  ['EventSources type added', 'EventSources/audit-sources', (d) => (d.types = ['ip_policy_created.v0', 'ip_policy_updated.v0', 'ip_policy_deleted.v0']), ['update EventSources/audit-sources /types']],
  ['EventSources type removed', 'EventSources/audit-sources', (d) => (d.types = ['ip_policy_updated.v0']), ['update EventSources/audit-sources /types']],
];

describe('change one field at a time', () => {
  it.each(cases)('%s', async (_label, address, change, expected) => {
    const base = allKinds(certs);
    const changed = edit(base, address, change);
    const { plan } = await e.plan(changed);
    expect(planLines(plan)).toEqual(expected);
    expect(plan.summary).toEqual({ create: 0, update: 1, replace: 0, delete: 0 });
    await e.converge(changed);
    const back = await e.plan(base);
    expect(planLines(back.plan)).toHaveLength(expected.length);
    await e.converge(base);
  });
});
