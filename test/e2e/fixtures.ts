// A manifest set with every kind and every field (secrets inline: they are generated per run, never committed).
import { makeCa, makeCert } from '../helpers/certs.ts';
import type { MadeCert } from '../helpers/certs.ts';
import type { Doc } from './harness.ts';

export interface Certs {
  ca: MadeCert;
  ca2: MadeCert;
  leaf: MadeCert;
  leaf2: MadeCert;
}

export async function makeCerts(): Promise<Certs> {
  const ca = await makeCa({ commonName: 'Clients CA' });
  const ca2 = await makeCa({ commonName: 'Clients CA 2' });
  const leaf = await makeCert({ commonName: '*.example.com', dnsNames: ['*.example.com'] });
  const leaf2 = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com'] });
  return { ca, ca2, leaf, leaf2 };
}

export function allKinds(c: Certs): Doc[] {
  return [
    { kind: 'IPPolicy', name: 'office', description: 'office networks', metadata: { team: 'net' } },
    { kind: 'IPPolicy', name: 'partners', description: 'partner networks' },
    { kind: 'IPPolicyRule', name: 'office-v4', description: 'office v4', metadata: { ticket: 'NET-1' }, ip_policy_id: 'office', cidr: '203.0.113.0/24', action: 'allow' },
    { kind: 'IPPolicyRule', name: 'office-v6', ip_policy_id: 'office', cidr: '2001:db8::/48', action: 'deny' },
    { kind: 'IPPolicyRule', name: 'partner-v4', ip_policy_id: 'partners', cidr: '198.51.100.0/24', action: 'allow' },
    { kind: 'TunnelGroupBackend', name: 'web', description: 'web tier', metadata: { team: 'web' }, labels: { app: 'web' } },
    { kind: 'TunnelGroupBackend', name: 'api', labels: { app: 'api', dc: 'eu-1' } },
    {
      kind: 'HTTPResponseBackend',
      name: 'teapot',
      description: 'short and stout',
      metadata: { joke: true },
      body: "I'm a teapot",
      headers: { 'Content-Type': 'text/plain' },
      status_code: 418,
    },
    { kind: 'CertificateAuthority', name: 'clients', description: 'client CA', metadata: { owner: 'sec' }, ca_pem: c.ca.certPem },
    {
      kind: 'TLSCertificate',
      name: 'wild',
      description: 'wildcard',
      metadata: { owner: 'sec' },
      certificate_pem: c.leaf.chainPem,
      private_key_pem: c.leaf.keyPem,
    },
    {
      kind: 'TCPEdge',
      name: 'ssh',
      description: 'ssh',
      metadata: { team: 'ops' },
      hostports: ['1.tcp.example.com:20001'],
      backend: { enabled: true, backend_id: 'web' },
      ip_restriction: { enabled: true, ip_policy_ids: ['office'] },
      policy: {
        enabled: true,
        inbound: [{ name: 'only-22', expressions: ['conn.server_port != 22'], actions: [{ type: 'deny' }] }],
        outbound: [],
      },
    },
    {
      kind: 'TLSEdge',
      name: 'secure',
      description: 'mutual TLS',
      hostports: ['secure.example.com:443'],
      backend: { backend_id: 'api' },
      ip_restriction: { ip_policy_ids: ['office', 'partners'] },
      mutual_tls: { certificate_authority_ids: ['clients'] },
      tls_termination: { terminate_at: 'edge', min_version: '1.2' },
    },
    {
      kind: 'TLSEdge',
      name: 'passthrough',
      hostports: ['pass.example.com:443'],
      backend: { backend_id: 'api' },
      tls_termination: { terminate_at: 'upstream' },
    },
    {
      kind: 'HTTPSEdge',
      name: 'www',
      description: 'web site',
      metadata: { team: 'web' },
      hostports: ['www.example.com:443'],
      mutual_tls: { certificate_authority_ids: ['clients'] },
      tls_termination: { min_version: '1.2' },
    },
    { kind: 'HTTPSEdge', name: 'shop', hostports: ['shop.example.com:443'] },
    {
      kind: 'HTTPSEdgeRoute',
      name: 'root',
      edge_id: 'www',
      match_type: 'path_prefix',
      match: '/',
      description: 'everything',
      metadata: { team: 'web' },
      backend: { backend_id: 'web' },
      ip_restriction: { ip_policy_ids: ['office'] },
    },
    { kind: 'HTTPSEdgeRoute', name: 'brew', edge_id: 'www', match_type: 'exact_path', match: '/brew', backend: { backend_id: 'teapot' } },
    {
      kind: 'RouteResponseHeaders',
      name: 'root-headers',
      edge_id: 'www',
      route_id: 'root',
      enabled: true,
      add: { 'X-Frame-Options': 'DENY' },
      remove: ['server'],
    },
    { kind: 'EventSubscription', name: 'audit', description: 'policy changes', metadata: { owner: 'sec' } },
    { kind: 'EventSources', name: 'audit-sources', subscription_id: 'audit', types: ['ip_policy_created.v0', 'ip_policy_updated.v0'] },
  ];
}

/** List endpoints of the kinds with an id, for checks through plain HTTP. */
export const LISTS: Record<string, [path: string, key: string]> = {
  IPPolicy: ['/ip_policies', 'ip_policies'],
  IPPolicyRule: ['/ip_policy_rules', 'ip_policy_rules'],
  TunnelGroupBackend: ['/backends/tunnel_group', 'backends'],
  HTTPResponseBackend: ['/backends/http_response', 'backends'],
  CertificateAuthority: ['/certificate_authorities', 'certificate_authorities'],
  TLSCertificate: ['/tls_certificates', 'tls_certificates'],
  TCPEdge: ['/edges/tcp', 'tcp_edges'],
  TLSEdge: ['/edges/tls', 'tls_edges'],
  HTTPSEdge: ['/edges/https', 'https_edges'],
  EventSubscription: ['/event_subscriptions', 'event_subscriptions'],
};
