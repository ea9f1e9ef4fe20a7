// The whole manifest pipeline on fixture sets: a valid multi-file set resolves to exactly the expected
// DesiredState; a broken set reports every problem of every file at once, sorted by file, line and column.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestError, NoManifestsError } from '../../src/errors.ts';
import { readDesiredState } from '../../src/manifest/read-desired.ts';
import { makeCert } from '../helpers/certs.ts';

const root = resolve(import.meta.dirname, '../..');
const fixture = (name: string) => `test/fixtures/manifests/${name}`;
const V = fixture('valid');
const pos = (file: string, line: number) => ({ file: `${V}/${file}`, line, col: 1 });
const ref = (address: string) => ({ $ref: address });

describe('readDesiredState', () => {
  it('resolves a valid multi-file set of every kind', async () => {
    const leaf = await makeCert({ commonName: '*.example.com' });
    const env = { FIXTURE_CERT: leaf.certPem, FIXTURE_KEY: leaf.keyPem };
    const state = await readDesiredState([V], { cwd: root, env });
    expect(state.config).toEqual({
      file: `${V}/edgeops.yaml`,
      stack: 'fixtures',
      concurrency: 4,
      max_deletes: 5,
      max_deletes_per_kind: { TCPEdge: 1 },
    });
    expect(state.resources).toEqual([
      {
        kind: 'TunnelGroupBackend',
        name: 'web',
        address: 'TunnelGroupBackend/web',
        spec: { description: 'web tier tunnels', metadata: { team: 'web' }, labels: { app: 'web', dc: 'eu-1' } },
        dependsOn: [],
        pos: pos('backends.yaml', 2),
      },
      {
        kind: 'HTTPResponseBackend',
        name: 'maintenance',
        address: 'HTTPResponseBackend/maintenance',
        spec: { body: '<h1>back soon</h1>\n', headers: { 'Content-Type': 'text/html' }, status_code: 503 },
        dependsOn: [],
        pos: pos('backends.yaml', 8),
      },
      { kind: 'IPPolicy', name: 'office', address: 'IPPolicy/office', spec: {}, dependsOn: [], pos: pos('backends.yaml', 14) },
      {
        kind: 'IPPolicyRule',
        name: 'office-v4',
        address: 'IPPolicyRule/office-v4',
        spec: { ip_policy_id: ref('IPPolicy/office'), cidr: '203.0.113.0/24', action: 'allow' },
        dependsOn: ['IPPolicy/office'],
        pos: pos('backends.yaml', 17),
      },
      {
        kind: 'TCPEdge',
        name: 'ssh',
        address: 'TCPEdge/ssh',
        spec: {
          hostports: ['1.tcp.example.com:20001'],
          backend: { backend_id: ref('TunnelGroupBackend/web') },
          ip_restriction: { ip_policy_ids: [ref('IPPolicy/office'), 'ipp_2rcCvYaCz4tUbWiCRVTCu2RsxrA'] },
        },
        dependsOn: ['TunnelGroupBackend/web', 'IPPolicy/office'],
        pos: pos('edges.yml', 1),
      },
      {
        kind: 'TLSEdge',
        name: 'api',
        address: 'TLSEdge/api',
        spec: {
          hostports: ['api.example.com:443'],
          backend: { enabled: false, backend_id: ref('HTTPResponseBackend/maintenance') },
          mutual_tls: { certificate_authority_ids: [ref('CertificateAuthority/clients')] },
          tls_termination: { terminate_at: 'edge', min_version: '1.2' },
          policy: {
            inbound: [{ name: 'deny-bots', expressions: ["'bot' in req.headers['user-agent']"], actions: [{ type: 'deny' }] }],
          },
        },
        dependsOn: ['HTTPResponseBackend/maintenance', 'CertificateAuthority/clients'],
        pos: pos('edges.yml', 7),
      },
      {
        kind: 'CertificateAuthority',
        name: 'clients',
        address: 'CertificateAuthority/clients',
        spec: { ca_pem: readFileSync(join(root, V, 'certs/ca.pem'), 'utf8') },
        dependsOn: [],
        pos: pos('edges.yml', 19),
      },
      {
        kind: 'TLSCertificate',
        name: 'wildcard',
        address: 'TLSCertificate/wildcard',
        spec: { certificate_pem: leaf.certPem, private_key_pem: leaf.keyPem },
        dependsOn: [],
        pos: pos('edges.yml', 23),
      },
      {
        kind: 'HTTPSEdge',
        name: 'site',
        address: 'HTTPSEdge/site',
        spec: { hostports: ['www.example.com:443'], tls_termination: { min_version: '1.3' } },
        dependsOn: [],
        pos: pos('https/site.yaml', 1),
      },
      {
        kind: 'HTTPSEdgeRoute',
        name: 'site-api',
        address: 'HTTPSEdgeRoute/site-api',
        spec: {
          edge_id: ref('HTTPSEdge/site'),
          match_type: 'path_prefix',
          match: '/api',
          backend: { backend_id: ref('TunnelGroupBackend/web') },
        },
        dependsOn: ['HTTPSEdge/site', 'TunnelGroupBackend/web'],
        pos: pos('https/site.yaml', 6),
      },
      {
        kind: 'RouteResponseHeaders',
        name: 'site-api-headers',
        address: 'RouteResponseHeaders/site-api-headers',
        spec: {
          edge_id: ref('HTTPSEdge/site'),
          route_id: ref('HTTPSEdgeRoute/site-api'),
          add: { 'X-Frame-Options': 'DENY' },
          remove: ['server'],
        },
        dependsOn: expect.arrayContaining(['HTTPSEdge/site', 'HTTPSEdgeRoute/site-api']),
        pos: pos('https/site.yaml', 13),
      },
      {
        kind: 'EventSubscription',
        name: 'audit',
        address: 'EventSubscription/audit',
        spec: { description: 'policy changes' },
        dependsOn: [],
        pos: pos('https/site.yaml', 20),
      },
      {
        kind: 'EventSources',
        name: 'audit-sources',
        address: 'EventSources/audit-sources',
        spec: { subscription_id: ref('EventSubscription/audit'), types: ['ip_policy_created.v0', 'ip_policy_updated.v0'] },
        dependsOn: ['EventSubscription/audit'],
        pos: pos('https/site.yaml', 24),
      },
    ]);
  });

  it('reports every problem of every file at once, sorted, and makes no resources', async () => {
    const err = await readDesiredState([fixture('broken')], { cwd: root, env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManifestError);
    const B = fixture('broken');
    expect((err as ManifestError).message.split('\n')).toEqual([
      `${B}/a.yaml:2:7: TCPEdge/ssh: defined more than once: also at ${B}/b.yaml:6:7`,
      `${B}/a.yaml:3:13: TCPEdge/ssh: hostports[0]: "nope" is not host:port`,
      `${B}/a.yaml:4:23: TCPEdge/ssh: backend.backend_id: no TunnelGroupBackend or HTTPResponseBackend named "wbe" (did you mean "web"?)`,
      `${B}/a.yaml:6:7: TcpEdge/other: unknown kind "TcpEdge" (did you mean "TCPEdge"?)`,
      `${B}/a.yaml:10:7: IPPolicy/office_hq: name "office_hq" must not contain "_" (a value with "_" is read as a literal id)`,
      `${B}/b.yaml:2:7: invalid YAML: Nested mappings are not allowed in compact mappings`,
      `${B}/b.yaml:2:7: invalid YAML: Implicit keys need to be on a single line`,
      `${B}/b.yaml:6:7: TCPEdge/ssh: defined more than once: also at ${B}/a.yaml:2:7`,
      `${B}/b.yaml:7:34: TCPEdge/ssh: ip_restriction.ip_policy_ids[0]: wrong kind: "web" names TunnelGroupBackend/web, but this field takes IPPolicy`,
      `${B}/c.yaml:7:25: TLSCertificate/cert: certificate_pem: cannot read file "missing.pem" (${B}/missing.pem): no such file`,
      `${B}/c.yaml:8:24: TLSCertificate/cert: private_key_pem: environment variable BROKEN_FIXTURE_KEY is not set`,
    ]);
    expect((err as ManifestError).issues).toHaveLength(11);
    expect((err as ManifestError).code).toBe('E_MANIFEST');
  });

  it('reads files named one by one, an edgeops.yaml named explicitly among them', async () => {
    const state = await readDesiredState([`${V}/backends.yaml`, `${V}/edgeops.yaml`], { cwd: root, env: {} });
    expect(state.resources.map((r) => r.address)).toEqual([
      'TunnelGroupBackend/web',
      'HTTPResponseBackend/maintenance',
      'IPPolicy/office',
      'IPPolicyRule/office-v4',
    ]);
    expect(state.config.stack).toBe('fixtures');
  });

  it('refuses a directory without manifests, naming it and the files skipped, unless empty paths are allowed', async () => {
    const err = await readDesiredState([`${V}/certs`], { cwd: root, env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoManifestsError);
    expect((err as Error).message).toContain(`  ${V}/certs: no *.yaml or *.yml file below it; skipped ${V}/certs/`);
    // The directory's settings are those of the edgeops.yaml above it.
    expect(await readDesiredState([`${V}/certs`], { cwd: root, env: {}, allowEmpty: true })).toEqual({ resources: [], config: { stack: 'fixtures', concurrency: 4, max_deletes: 5, max_deletes_per_kind: { TCPEdge: 1 }, file: `${V}/edgeops.yaml` } });
  });
});
