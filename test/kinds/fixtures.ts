// For every kind: a manifest spec (refs resolved to ids) and the response the service gives after creating
// it, in the shapes of the service's contract (src/contract/kinds/). fromLive(live) must equal
// normalizeDesired(toRequest(spec)) for each: that is what "after apply, plan shows no changes" rests on.
import type { Obj } from '../../src/kinds/resource-kind.ts';

const U = 'http://127.0.0.1:4010';
const ref = (path: string, id: string): Obj => ({ id, uri: `${U}${path}/${id}` });
const T = '2025-01-14T10:06:47Z';

export const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----';

export interface KindFixture {
  spec: Obj;
  live: Obj;
}

export const FIXTURES: Record<string, KindFixture> = {
  IPPolicy: {
    spec: { description: 'office', metadata: '{"a":1}' },
    live: { id: 'ipp_1', uri: `${U}/ip_policies/ipp_1`, created_at: T, description: 'office', metadata: '{"a":1}' },
  },
  IPPolicyRule: {
    spec: { description: 'hq', metadata: 'm', cidr: '10.0.0.0/8', ip_policy_id: 'ipp_1', action: 'allow' },
    live: {
      id: 'ipr_1',
      uri: `${U}/ip_policy_rules/ipr_1`,
      created_at: T,
      description: 'hq',
      metadata: 'm',
      cidr: '10.0.0.0/8',
      ip_policy: ref('/ip_policies', 'ipp_1'),
      action: 'allow',
    },
  },
  CertificateAuthority: {
    spec: { description: 'clients', ca_pem: `${PEM}\r\n` },
    live: {
      id: 'ca_1',
      uri: `${U}/certificate_authorities/ca_1`,
      created_at: T,
      description: 'clients',
      ca_pem: `${PEM}\n`,
      subject_common_name: 'Client CA',
      not_before: T,
      not_after: T,
      key_usages: ['cert_sign'],
      extended_key_usages: [],
    },
  },
  TLSCertificate: {
    spec: { description: 'wildcard', certificate_pem: `${PEM}\n`, private_key_pem: 'KEY' },
    live: {
      id: 'cert_1',
      uri: `${U}/tls_certificates/cert_1`,
      created_at: T,
      description: 'wildcard',
      certificate_pem: PEM,
      subject_common_name: '*.example.com',
      subject_alternative_names: { dns_names: ['*.example.com'], ips: [] },
      issued_at: null,
      not_before: T,
      not_after: T,
      key_usages: ['digital_signature'],
      extended_key_usages: ['server_auth'],
      private_key_type: 'ecdsa',
      issuer_common_name: 'Test CA',
      serial_number: '0a1b',
      subject_organization: '',
      subject_organizational_unit: '',
      subject_locality: '',
      subject_province: '',
      subject_country: '',
    },
  },
  TunnelGroupBackend: {
    spec: { description: 'web', metadata: 'm', labels: { app: 'web', dc: 'eu-1' } },
    live: {
      id: 'bkdtg_1',
      uri: `${U}/backends/tunnel_group/bkdtg_1`,
      created_at: T,
      description: 'web',
      metadata: 'm',
      labels: { app: 'web', dc: 'eu-1' },
      tunnels: [],
    },
  },
  HTTPResponseBackend: {
    spec: { body: 'down for maintenance', headers: { 'Content-Type': 'text/plain' } },
    live: {
      id: 'bkdhr_1',
      uri: `${U}/backends/http_response/bkdhr_1`,
      created_at: T,
      body: 'down for maintenance',
      headers: { 'content-type': 'text/plain' },
      status_code: 200,
    },
  },
  TCPEdge: {
    spec: {
      description: 'ssh',
      metadata: 'm',
      hostports: ['2.tcp.example.com:20002', '1.tcp.example.com:20001'],
      backend: { backend_id: 'bkdtg_1' },
      ip_restriction: { enabled: false, ip_policy_ids: ['ipp_2', 'ipp_1'] },
      policy: { inbound: { expressions: ['true'], actions: { type: 'deny' } } },
      traffic_policy: { value: { on_tcp_connect: [{ name: 'block', expressions: ['true'], actions: [{ type: 'deny', config: { a: 1, b: 2 } }] }] } },
    },
    live: {
      id: 'edgtcp_1',
      uri: `${U}/edges/tcp/edgtcp_1`,
      created_at: T,
      description: 'ssh',
      metadata: 'm',
      hostports: ['2.tcp.example.com:20002', '1.tcp.example.com:20001'],
      backend: { enabled: true, backend: ref('/backends/tunnel_group', 'bkdtg_1') },
      ip_restriction: { enabled: false, ip_policies: [ref('/ip_policies', 'ipp_2'), ref('/ip_policies', 'ipp_1')] },
      policy: {
        enabled: true,
        inbound: [{ name: '', expressions: ['true'], actions: [{ type: 'deny', config: null }] }],
        outbound: [],
      },
      traffic_policy: {
        enabled: true,
        value: '{"on_tcp_connect":[{"actions":[{"config":{"b":2,"a":1},"type":"deny"}],"expressions":["true"],"name":"block"}]}',
      },
    },
  },
  TLSEdge: {
    spec: {
      hostports: ['app.example.com:443'],
      backend: { enabled: true, backend_id: 'bkdhr_1' },
      ip_restriction: { ip_policy_ids: ['ipp_1'] },
      policy: { outbound: [{ name: 'log', expressions: [], actions: [{ type: 'log', config: { a: 1 } }] }] },
      mutual_tls: { certificate_authority_ids: ['ca_1'] },
      tls_termination: { terminate_at: 'edge', min_version: '1.3' },
      traffic_policy: { enabled: false, value: 'on_tcp_connect:\n  - actions:\n      - type: log\n' },
    },
    live: {
      id: 'edgtls_1',
      uri: `${U}/edges/tls/edgtls_1`,
      created_at: T,
      hostports: ['app.example.com:443'],
      backend: { enabled: true, backend: ref('/backends/http_response', 'bkdhr_1') },
      ip_restriction: { enabled: true, ip_policies: [ref('/ip_policies', 'ipp_1')] },
      mutual_tls: { enabled: true, certificate_authorities: [ref('/certificate_authorities', 'ca_1')] },
      tls_termination: { enabled: true, terminate_at: 'edge', min_version: '1.3' },
      policy: {
        enabled: true,
        inbound: [],
        outbound: [{ name: 'log', expressions: [], actions: [{ type: 'log', config: { a: 1 } }] }],
      },
      traffic_policy: { enabled: false, value: '{"on_tcp_connect": [{"actions": [{"type": "log"}]}]}' },
    },
  },
  HTTPSEdge: {
    spec: {
      description: 'site',
      hostports: ['www.example.com:443'],
      mutual_tls: { enabled: false, certificate_authority_ids: ['ca_1'] },
      tls_termination: {},
    },
    live: {
      id: 'edghts_1',
      uri: `${U}/edges/https/edghts_1`,
      created_at: T,
      description: 'site',
      hostports: ['www.example.com:443'],
      mutual_tls: { enabled: false, certificate_authorities: [ref('/certificate_authorities', 'ca_1')] },
      tls_termination: { enabled: true, terminate_at: 'edge', min_version: null },
      routes: [],
    },
  },
  HTTPSEdgeRoute: {
    spec: {
      edge_id: 'edghts_1',
      match_type: 'path_prefix',
      match: '/api',
      description: 'api',
      backend: { backend_id: 'bkdtg_1' },
      ip_restriction: { ip_policy_ids: ['ipp_1'] },
      traffic_policy: { value: { on_http_request: [{ actions: [{ type: 'custom-response', config: { status_code: 503 } }] }], on_http_response: null } },
    },
    live: {
      id: 'edghtsrt_1',
      edge_id: 'edghts_1',
      uri: `${U}/edges/https/edghts_1/routes/edghtsrt_1`,
      created_at: T,
      match_type: 'path_prefix',
      match: '/api',
      description: 'api',
      backend: { enabled: true, backend: ref('/backends/tunnel_group', 'bkdtg_1') },
      ip_restriction: { enabled: true, ip_policies: [ref('/ip_policies', 'ipp_1')] },
      response_headers: { enabled: true, add: { 'x-a': '1' }, remove: [] },
      circuit_breaker: null,
      traffic_policy: { enabled: true, value: 'on_http_request:\n- actions:\n  - config:\n      status_code: 503\n    type: custom-response\n' },
      policy: null,
    },
  },
  RouteResponseHeaders: {
    spec: { edge_id: 'edghts_1', route_id: 'edghtsrt_1', add: { 'X-Frame-Options': 'DENY' } },
    live: { edge_id: 'edghts_1', route_id: 'edghtsrt_1', enabled: true, add: { 'x-frame-options': 'DENY' }, remove: [] },
  },
  EventSubscription: {
    spec: { description: 'audit', metadata: 'm' },
    live: {
      id: 'esb_1',
      uri: `${U}/event_subscriptions/esb_1`,
      created_at: T,
      description: 'audit',
      metadata: 'm',
      sources: [{ type: 'ip_policy_created.v0', uri: `${U}/event_subscriptions/esb_1/sources/ip_policy_created.v0` }],
      destinations: [],
    },
  },
  EventSources: {
    spec: { subscription_id: 'esb_1', types: ['ip_policy_updated.v0', 'ip_policy_created.v0'] },
    live: { subscription_id: 'esb_1', types: ['ip_policy_created.v0', 'ip_policy_updated.v0'] },
  },
};
