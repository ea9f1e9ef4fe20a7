// References between documents (names, literal ids, wrong kinds, cycles) and secrets from files and variables.
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/errors.ts';
import type { ResourceKind } from '../../src/kinds/resource-kind.ts';
import { loadManifests } from '../../src/manifest/read-desired.ts';
import { runAll } from '../../src/pace.ts';
import { resolveSteps } from '../../src/manifest/resolve.ts';
import { errorLines, readTree, writeTree, yaml } from './tree.ts';
import { makeCa, makeCert } from '../helpers/certs.ts';

const policy = (name: string) => yaml('kind: IPPolicy', `name: ${name}`);
const edge = (...fields: string[]) => yaml('kind: TCPEdge', 'name: e', ...fields);

describe('references', () => {
  it('turns names into pending references and dependencies, and keeps literal ids', async () => {
    const state = await readTree({
      'p.yaml': `${policy('office')}---\n${policy('lab')}`,
      'e.yaml': edge('ip_restriction: {ip_policy_ids: [office, ipp_abc123, lab]}', 'backend: {backend_id: bkdhr_xyz}'),
    });
    const e = state.resources.find((r) => r.address === 'TCPEdge/e')!;
    expect(e.spec).toEqual({
      ip_restriction: { ip_policy_ids: [{ $ref: 'IPPolicy/office' }, 'ipp_abc123', { $ref: 'IPPolicy/lab' }] },
      backend: { backend_id: 'bkdhr_xyz' },
    });
    expect(e.dependsOn).toEqual(['IPPolicy/office', 'IPPolicy/lab']);
  });

  it('lets a backend reference name either backend kind', async () => {
    const state = await readTree({
      'b.yaml': yaml('kind: HTTPResponseBackend', 'name: down', 'body: x'),
      'e.yaml': edge('backend: {backend_id: down}'),
    });
    expect(state.resources[1]!.spec.backend).toEqual({ backend_id: { $ref: 'HTTPResponseBackend/down' } });
  });

  it('reports unknown names with a suggestion, wrong kinds, ambiguous names and bad literal ids', async () => {
    const lines = await errorLines({
      'p.yaml': `${policy('office')}---\n${yaml('kind: TunnelGroupBackend', 'name: web', 'labels: {a: b}')}---\n${yaml('kind: HTTPResponseBackend', 'name: web', 'body: x')}`,
      'e.yaml': yaml(
        'kind: TCPEdge',
        'name: e',
        'ip_restriction:',
        '  ip_policy_ids: [ofice, web, bkdtg_1, foo_bar, ipp_]',
        'backend: {backend_id: web}',
        '---',
        'kind: IPPolicyRule',
        'name: r',
        'ip_policy_id: nowhere',
        'cidr: 10.0.0.0/8',
        'action: allow',
      ),
    });
    expect(lines).toEqual([
      'e.yaml:4:19: TCPEdge/e: ip_restriction.ip_policy_ids[0]: no IPPolicy named "ofice" (did you mean "office"?)',
      'e.yaml:4:26: TCPEdge/e: ip_restriction.ip_policy_ids[1]: wrong kind: "web" names TunnelGroupBackend/web and HTTPResponseBackend/web, but this field takes IPPolicy',
      'e.yaml:4:31: TCPEdge/e: ip_restriction.ip_policy_ids[2]: wrong kind: "bkdtg_1" is an id of kind TunnelGroupBackend, but this field takes IPPolicy',
      'e.yaml:4:40: TCPEdge/e: ip_restriction.ip_policy_ids[3]: "foo_bar" is neither a name (names have no "_") nor an id of IPPolicy (ipp_...)',
      'e.yaml:4:49: TCPEdge/e: ip_restriction.ip_policy_ids[4]: "ipp_" is not a complete id',
      'e.yaml:5:23: TCPEdge/e: backend.backend_id: "web" is ambiguous: TunnelGroupBackend/web and HTTPResponseBackend/web both exist; use a literal id or rename one',
      'e.yaml:9:15: IPPolicyRule/r: ip_policy_id: no IPPolicy named "nowhere"',
    ]);
  });

  it('resolves the references of route headers and event sources', async () => {
    const state = await readTree({
      'h.yaml': yaml(
        'kind: HTTPSEdge',
        'name: site',
        '---',
        'kind: HTTPSEdgeRoute',
        'name: root',
        'edge_id: site',
        'match_type: exact_path',
        'match: /',
        '---',
        'kind: RouteResponseHeaders',
        'name: root-headers',
        'edge_id: site',
        'route_id: root',
        '---',
        'kind: EventSources',
        'name: s',
        'subscription_id: esb_literal',
        'types: [ip_policy_created.v0]',
      ),
    });
    expect(state.resources.map((r) => [r.address, r.dependsOn])).toEqual([
      ['HTTPSEdge/site', []],
      ['HTTPSEdgeRoute/root', ['HTTPSEdge/site']],
      ['RouteResponseHeaders/root-headers', expect.arrayContaining(['HTTPSEdge/site', 'HTTPSEdgeRoute/root'])],
      ['EventSources/s', []],
    ]);
    expect(state.resources[3]!.spec.subscription_id).toBe('esb_literal');
  });

  it('reports cycles in the reference graph, naming them', () => {
    // No real kind can form a cycle, so this uses two made-up kinds that refer to each other.
    const fake = (kind: string, idPrefix: string) =>
      ({ kind, idPrefix, refs: [{ pointer: '/next/*', kinds: ['A', 'B'] }] }) as unknown as ResourceKind;
    const cwd = writeTree({
      'g.yaml': yaml(
        'kind: A', 'name: x', 'next: [y]',
        '---', 'kind: B', 'name: y', 'next: [z, x, z]',
        '---', 'kind: A', 'name: z', 'next: []',
        '---', 'kind: B', 'name: self', 'next: [self]',
      ),
    });
    const { docs } = loadManifests(['.'], { cwd });
    const { issues, resources } = runAll(resolveSteps(docs, { kinds: [fake('A', 'a_'), fake('B', 'b_')], cwd, env: {} }));
    expect(issues.map(formatIssue)).toEqual([
      'g.yaml:3:8: A/x: reference cycle: A/x -> B/y -> A/x',
      'g.yaml:15:8: B/self: reference cycle: B/self -> B/self',
    ]);
    expect(resources.find((r) => r.address === 'B/y')!.dependsOn).toEqual(['A/z', 'A/x']);
  });
});

// The service checks what it is sent (a chain that parses, a key that matches), and so does the resolver.
const leaf = await makeCert();
const ca = await makeCa();

describe('secrets', () => {
  const PEM = leaf.certPem;
  const KEY = leaf.keyPem;

  it('reads {file} relative to the manifest and {env} from the environment', async () => {
    const state = await readTree(
      {
        'tls/cert.yaml': yaml('kind: TLSCertificate', 'name: c', 'certificate_pem: {file: pem/leaf.pem}', 'private_key_pem: {env: TLS_KEY}'),
        'tls/pem/leaf.pem': PEM,
        'ca.yaml': yaml('kind: CertificateAuthority', 'name: ca', 'ca_pem: |', ...ca.certPem.trimEnd().split('\n').map((l) => `  ${l}`)),
      },
      { TLS_KEY: KEY },
    );
    expect(state.resources.map((r) => r.spec)).toEqual([{ ca_pem: ca.certPem }, { certificate_pem: PEM, private_key_pem: KEY }]);
  });

  it('names the missing file or variable and never a value', async () => {
    const lines = await errorLines(
      {
        'cert.yaml': yaml(
          'kind: TLSCertificate',
          'name: c',
          'certificate_pem: {file: leaf.pem}',
          'private_key_pem: {env: TLS_KEY}',
          '---',
          'kind: TLSCertificate',
          'name: d',
          'certificate_pem: {file: gone.pem}',
          'private_key_pem: {env: OTHER_KEY}',
        ),
        'leaf.pem': PEM,
      },
      { env: { TLS_KEY: KEY } },
    );
    expect(lines).toEqual([
      'cert.yaml:8:25: TLSCertificate/d: certificate_pem: cannot read file "gone.pem": no such file',
      'cert.yaml:9:24: TLSCertificate/d: private_key_pem: environment variable OTHER_KEY is not set',
    ]);
    const all = lines.join('\n');
    for (const secret of [PEM, KEY, ...KEY.split('\n').filter((l) => l.length > 16 && !l.startsWith('-----'))]) expect(all).not.toContain(secret);
  });

  it('names a file outside the manifest directory by its path from the working directory', async () => {
    expect(await errorLines({ 'a/b.yaml': yaml('kind: CertificateAuthority', 'name: ca', 'ca_pem: {file: ../certs/ca.pem}') })).toEqual([
      'a/b.yaml:3:16: CertificateAuthority/ca: ca_pem: cannot read file "../certs/ca.pem" (certs/ca.pem): no such file',
    ]);
  });

  it('reads an HTTP response body from a file, and leaves metadata mappings alone', async () => {
    const state = await readTree({
      'b.yaml': yaml('kind: HTTPResponseBackend', 'name: b', 'body: {file: page.html}', 'metadata: {file: page.html}'),
      'page.html': '<p>hi</p>',
    });
    expect(state.resources[0]!.spec).toEqual({ body: '<p>hi</p>', metadata: { file: 'page.html' } });
  });

  it('does not take {file} where a field takes only a string', async () => {
    expect(await errorLines({ 'm.yaml': yaml('kind: IPPolicy', 'name: p', 'description: {file: d.txt}'), 'd.txt': 'x' })).toEqual([
      'm.yaml:3:14: IPPolicy/p: description: must be a string',
    ]);
  });
});
