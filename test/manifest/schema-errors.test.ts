// Every kind of schema error, as the user sees it: `file:line:col: Kind/name: message`, exactly.
import { describe, expect, it } from 'vitest';
import { errorLines, yaml } from './tree.ts';

const cases: { name: string; doc: string; lines: string[] }[] = [
  {
    name: 'unknown top-level field, with a suggestion',
    doc: yaml('kind: TCPEdge', 'name: e', 'hostport: ["a.example.com:1"]'),
    lines: ['m.yaml:3:1: TCPEdge/e: unknown field "hostport" (did you mean "hostports"?)'],
  },
  {
    name: 'unknown nested field, at its key',
    doc: yaml('kind: TCPEdge', 'name: e', 'backend:', '  backend_id: bkdtg_1', '  foo: 1'),
    lines: ['m.yaml:5:3: TCPEdge/e: backend: unknown field "foo"'],
  },
  {
    name: 'an unknown field brought in by a merge key, at the key under its anchor',
    doc: yaml('kind: TCPEdge', 'name: e', 'hostports: ["a.example.com:1"]', 'metadata: &m {descriptio: x}', 'backend: {<<: *m, backend_id: bkdtg_1}'),
    lines: ['m.yaml:4:15: TCPEdge/e: backend: unknown field "descriptio"'],
  },
  {
    name: 'hostports that are not host:port, and duplicates',
    doc: yaml('kind: TLSEdge', 'name: e', 'hostports: [x, "a.example.com:70000", "[::1]:443", "*.example.com:443", "*.example.com:443"]'),
    lines: [
      'm.yaml:3:13: TLSEdge/e: hostports[0]: "x" is not host:port',
      'm.yaml:3:16: TLSEdge/e: hostports[1]: "a.example.com:70000" has no port from 1 to 65535',
      'm.yaml:3:12: TLSEdge/e: hostports: items 3 and 4 are the same',
    ],
  },
  {
    name: 'missing required fields, at the document',
    doc: yaml('kind: HTTPSEdgeRoute', 'name: r', 'edge_id: edghts_1'),
    lines: ['m.yaml:1:1: HTTPSEdgeRoute/r: missing field "match_type"', 'm.yaml:1:1: HTTPSEdgeRoute/r: missing field "match"'],
  },
  {
    name: 'missing name',
    doc: yaml('kind: IPPolicy', 'description: nameless'),
    lines: ['m.yaml:1:1: IPPolicy: missing field "name"'],
  },
  {
    name: 'missing nested field, at the parent mapping',
    doc: yaml('kind: TCPEdge', 'name: e', 'backend:', '  enabled: true'),
    lines: ['m.yaml:4:3: TCPEdge/e: backend: missing field "backend_id"'],
  },
  {
    name: 'enums',
    doc: yaml('kind: TLSEdge', 'name: e', 'tls_termination: {terminate_at: agent, min_version: 1.2}'),
    lines: [
      'm.yaml:3:33: TLSEdge/e: tls_termination.terminate_at: must be one of edge, upstream',
      'm.yaml:3:53: TLSEdge/e: tls_termination.min_version: must be one of 1.0, 1.1, 1.2, 1.3 (put it in quotes)',
    ],
  },
  {
    name: 'modules not allowed with upstream termination',
    doc: yaml(
      'kind: TLSEdge',
      'name: e',
      'tls_termination: {terminate_at: upstream, min_version: "1.3"}',
      'mutual_tls: {certificate_authority_ids: [ca_1], extra: 1}',
      'policy: {inbound: []}',
      'backend: {backend_id: bkdtg_1}',
    ),
    lines: [
      'm.yaml:3:56: TLSEdge/e: tls_termination.min_version: must be unset when terminate_at is upstream',
      'm.yaml:4:13: TLSEdge/e: mutual_tls: is not allowed when tls_termination.terminate_at is upstream',
      'm.yaml:5:9: TLSEdge/e: policy: is not allowed when tls_termination.terminate_at is upstream',
    ],
  },
  {
    name: 'HTTPS edges take no terminate_at',
    doc: yaml('kind: HTTPSEdge', 'name: e', 'tls_termination: {terminate_at: edge}'),
    lines: ['m.yaml:3:19: HTTPSEdge/e: tls_termination: unknown field "terminate_at"'],
  },
  {
    name: 'CIDR ranges',
    doc: yaml(
      'kind: IPPolicyRule',
      'name: r',
      'ip_policy_id: ipp_1',
      'action: deny',
      'cidr: 10.1.2.3/16',
      '---',
      'kind: IPPolicyRule',
      'name: s',
      'ip_policy_id: ipp_1',
      'action: allow',
      'cidr: "fe80::1%eth0/128"',
      '---',
      'kind: IPPolicyRule',
      'name: t',
      'ip_policy_id: ipp_1',
      'action: allow',
      'cidr: "2001:db8::1/32"',
      '---',
      'kind: IPPolicyRule',
      'name: u',
      'ip_policy_id: ipp_1',
      'action: permit',
      'cidr: 300.0.0.0/8',
    ),
    lines: [
      'm.yaml:5:7: IPPolicyRule/r: cidr: "10.1.2.3/16" has host bits set; use the network address of the range (did you mean 10.1.0.0/16?)',
      'm.yaml:11:7: IPPolicyRule/s: cidr: "fe80::1%eth0/128" is not an IP address or CIDR range: an IPv6 zone (%...) names no address a policy can match',
      'm.yaml:17:7: IPPolicyRule/t: cidr: "2001:db8::1/32" has host bits set; use the network address of the range (did you mean 2001:db8::/32?)',
      'm.yaml:22:9: IPPolicyRule/u: action: must be one of allow, deny',
      'm.yaml:23:7: IPPolicyRule/u: cidr: "300.0.0.0/8" is not an IP address or CIDR range: the address is not IPv4 or IPv6',
    ],
  },
  {
    name: 'integers and ranges',
    doc: yaml('kind: HTTPResponseBackend', 'name: b', 'body: hi', 'status_code: 700', '---', 'kind: HTTPResponseBackend', 'name: c', 'body: hi', 'status_code: "200"'),
    lines: [
      'm.yaml:4:14: HTTPResponseBackend/b: status_code: must be between 100 and 599',
      'm.yaml:9:14: HTTPResponseBackend/c: status_code: must be an integer',
    ],
  },
  {
    name: 'string maps: header names and values',
    doc: yaml('kind: HTTPResponseBackend', 'name: b', 'body: hi', 'headers: {"bad name": x, X-Ok: 1}'),
    lines: [
      'm.yaml:4:11: HTTPResponseBackend/b: headers: "bad name" is not a valid header name',
      'm.yaml:4:32: HTTPResponseBackend/b: headers["X-Ok"]: must be a string (put it in quotes)',
    ],
  },
  {
    name: 'labels required, and a mapping',
    doc: yaml('kind: TunnelGroupBackend', 'name: a', '---', 'kind: TunnelGroupBackend', 'name: b', 'labels: [app]'),
    lines: ['m.yaml:1:1: TunnelGroupBackend/a: missing field "labels"', 'm.yaml:6:9: TunnelGroupBackend/b: labels: must be a mapping'],
  },
  {
    name: 'metadata must be a mapping, description a string',
    doc: yaml('kind: IPPolicy', 'name: p', 'metadata: "{\\"a\\": 1}"', 'description: 12'),
    lines: [
      'm.yaml:3:11: IPPolicy/p: metadata: must be a mapping (edgeops stores it as JSON)',
      'm.yaml:4:14: IPPolicy/p: description: must be a string (put it in quotes)',
    ],
  },
  {
    name: 'secrets: a string, {file} or {env}',
    doc: yaml(
      'kind: TLSCertificate',
      'name: c',
      'certificate_pem: {file: a.pem, env: A}',
      'private_key_pem: {env: "1BAD"}',
      '---',
      'kind: CertificateAuthority',
      'name: ca',
      'ca_pem: 42',
    ),
    lines: [
      'm.yaml:3:18: TLSCertificate/c: certificate_pem: must be a string, {file: path} or {env: VARIABLE}',
      'm.yaml:4:18: TLSCertificate/c: private_key_pem: must be a string, {file: path} or {env: VARIABLE}',
      'm.yaml:8:9: CertificateAuthority/ca: ca_pem: must be a string, {file: path} or {env: VARIABLE}',
    ],
  },
  {
    name: 'required secrets and bodies',
    doc: yaml('kind: TLSCertificate', 'name: c', 'certificate_pem: x', '---', 'kind: HTTPResponseBackend', 'name: b', '---', 'kind: CertificateAuthority', 'name: ca'),
    lines: [
      'm.yaml:1:1: TLSCertificate/c: missing field "private_key_pem"',
      'm.yaml:5:1: HTTPResponseBackend/b: missing field "body"',
      'm.yaml:8:1: CertificateAuthority/ca: missing field "ca_pem"',
    ],
  },
  {
    name: 'reference lists',
    doc: yaml('kind: TCPEdge', 'name: e', 'ip_restriction: {ip_policy_ids: []}', 'backend: {backend_id: ""}'),
    lines: [
      'm.yaml:3:33: TCPEdge/e: ip_restriction.ip_policy_ids: must have at least 1 item',
      'm.yaml:4:23: TCPEdge/e: backend.backend_id: must not be empty',
    ],
  },
  {
    name: 'policy rules',
    doc: yaml(
      'kind: TCPEdge',
      'name: e',
      'policy:',
      '  inbound:',
      '    - name: r',
      '      expressions: "conn.client_ip == 1"',
      '      actions: [{config: {}}]',
      '  outbound: {name: x}',
    ),
    lines: [
      'm.yaml:6:20: TCPEdge/e: policy.inbound[0].expressions: must be a list',
      'm.yaml:7:17: TCPEdge/e: policy.inbound[0].actions[0]: missing field "type"',
      'm.yaml:8:13: TCPEdge/e: policy.outbound: must be a list',
    ],
  },
  {
    name: 'response headers module',
    doc: yaml(
      'kind: RouteResponseHeaders',
      'name: h',
      'edge_id: edghts_1',
      'route_id: edghtsrt_1',
      'enabled: "yes"',
      'add: {x-a: 1}',
      'remove: ["bad header"]',
    ),
    lines: [
      'm.yaml:5:10: RouteResponseHeaders/h: enabled: must be true or false',
      'm.yaml:6:12: RouteResponseHeaders/h: add["x-a"]: must be a string (put it in quotes)',
      'm.yaml:7:10: RouteResponseHeaders/h: remove[0]: "bad header" is not a valid header name',
    ],
  },
  {
    name: 'event sources and subscriptions',
    doc: yaml(
      'kind: EventSources',
      'name: s',
      'subscription_id: esb_1',
      'types: [ip_policy_created.v0, ip_policy_created.v0]',
      '---',
      'kind: EventSubscription',
      'name: sub',
      'destination_ids: [dest1]',
      '---',
      'kind: EventSources',
      'name: t',
      'subscription_id: esb_2',
      'types: [ip_policy_created.v0, created]',
    ),
    // The event type is the contract's rule, checked once names are resolved (a field with a schema error is
    // not checked again: "created" in the first document would be reported once it has no duplicate).
    lines: [
      'm.yaml:4:8: EventSources/s: types: items 0 and 1 are the same',
      'm.yaml:8:19: EventSubscription/sub: destination_ids[0]: "dest1" must be an event destination id (ed_...)',
      'm.yaml:13:31: EventSources/t: types[1]: "created" is not an event type like ip_policy_created.v0',
    ],
  },
  {
    name: 'a route needs a known match type',
    doc: yaml('kind: HTTPSEdgeRoute', 'name: r', 'edge_id: edghts_1', 'match_type: prefix', 'match: /api'),
    lines: ['m.yaml:4:13: HTTPSEdgeRoute/r: match_type: must be one of exact_path, path_prefix'],
  },
  {
    name: 'event sources need at least one type (an empty set could never converge)',
    doc: yaml('kind: EventSources', 'name: s', 'subscription_id: esb_1', 'types: []'),
    lines: ['m.yaml:4:8: EventSources/s: types: must have at least 1 item'],
  },
];

describe('schema errors', () => {
  it.each(cases)('$name', async ({ doc, lines }) => {
    expect(await errorLines({ 'm.yaml': doc })).toEqual([...lines].sort(byPosition));
  });

  it('reports every error of every file at once, in file order', async () => {
    const file = (i: number) => `f${String(i).padStart(2, '0')}.yaml`;
    const files = Object.fromEntries(cases.map((c, i) => [file(i), c.doc]));
    const expected = cases.flatMap((c, i) => [...c.lines].sort(byPosition).map((l) => l.replace(/^m\.yaml/, file(i))));
    // The cases reuse names (and parents) across files; those duplicates are reported too, and are not what this checks.
    const got = (await errorLines(files)).filter((l) => !l.includes(': defined more than once: ') && !l.includes(' are already managed by '));
    expect(got).toEqual(expected);
  });
});

function byPosition(a: string, b: string): number {
  const [, la, ca] = /^[^:]+:(\d+):(\d+)/.exec(a)!.map(Number);
  const [, lb, cb] = /^[^:]+:(\d+):(\d+)/.exec(b)!.map(Number);
  return la! - lb! || ca! - cb!;
}
