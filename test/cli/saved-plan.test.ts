// Saved plans and checksums through the real CLI (child processes) against the real service: `plan --out`
// writes no secret, `apply --plan` applies exactly the saved actions despite unrelated changes and refuses
// when an object it touches changed or a secret differs, and `apply --checksum` runs only the approved plan.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { containsKeyMaterial, makeCert, type MadeCert } from '../helpers/certs.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { edgeops, type RunResult } from './run.ts';

let svc: TestService;
let http: ApiClient;
let cert: MadeCert;
let otherCert: MadeCert;
const base = mkdtempSync(join(tmpdir(), 'edgeops-saved-'));
const dir = join(base, 'infra');
const file = (name: string) => join(base, name);

const BASE_DOCS = [
  'kind: TunnelGroupBackend', 'name: web', 'description: web tier', 'labels: {app: web}',
  '---', 'kind: TCPEdge', 'name: ssh', 'description: ssh v1', 'hostports: ["1.tcp.example.com:20001"]', 'backend: {backend_id: web}',
];
const CERT_DOC = ['---', 'kind: TLSCertificate', 'name: wild', 'description: wildcard', 'certificate_pem: {file: cert.pem}', 'private_key_pem: {env: WILD_KEY}'];

function writeManifests(sshDescription: string, withCert: boolean): void {
  const docs = BASE_DOCS.map((l) => (l === 'description: ssh v1' ? `description: ${sshDescription}` : l));
  writeFileSync(join(dir, 'all.yaml'), [...docs, ...(withCert ? CERT_DOC : []), ''].join('\n'));
}

const env = (key = cert.keyPem) => ({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, WILD_KEY: key });
const run = (args: string[], key?: string): Promise<RunResult> => edgeops(args, { env: env(key) });

async function managed(path: string, listKey: string, address: string): Promise<Record<string, unknown>> {
  const items = (await http.listAll(path, listKey)) as Record<string, unknown>[];
  const found = items.filter((i) => parseMetadata(i.metadata).marker?.name === address);
  expect(found, address).toHaveLength(1);
  return found[0]!;
}

const checksumIn = (r: RunResult): string => /^Checksum: (sha256:[0-9a-f]{64}) /m.exec(r.stdout)?.[1] ?? '';

beforeAll(async () => {
  svc = await startTestService();
  http = api(svc);
  cert = await makeCert({ commonName: '*.example.com', dnsNames: ['*.example.com'] });
  otherCert = await makeCert({ commonName: 'other.example.com', dnsNames: ['other.example.com'] });
  mkdirSync(dir);
  writeFileSync(join(dir, 'edgeops.yaml'), 'stack: saved\n');
  writeFileSync(join(dir, 'cert.pem'), cert.chainPem);
  writeManifests('ssh v1', false);
  const first = await run(['apply', dir, '--auto-approve']);
  expect(first.code, first.stderr).toBe(0);
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('plan --out and apply --plan', () => {
  it('saves a plan without the private key or the API key, and applies exactly it despite unrelated changes', async () => {
    writeManifests('ssh v2', true);
    const planned = await run(['plan', dir, '--out', file('plan.json')]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('Plan: 1 to create, 1 to update, 0 to replace, 0 to delete.');
    expect(planned.stdout).toContain(`Saved the plan to ${file('plan.json')}`);
    const bytes = readFileSync(file('plan.json'), 'utf8');
    expect(containsKeyMaterial(bytes, cert.keyPem)).toBe(false);
    expect(bytes).not.toContain(svc.apiKey);
    const saved = JSON.parse(bytes);
    expect(saved).toMatchObject({ format: 'edgeops-saved-plan', format_version: 1, stack: 'saved', paths: [dir], checksum: checksumIn(planned) });
    expect(saved.secret_fingerprints).toMatchObject({ algorithm: 'hmac-sha256', source: 'api-key' });
    expect(saved.secret_fingerprints.file_key).toBeUndefined();

    // Unrelated changes: a managed resource the plan does not touch is edited by hand, and a new unmanaged one appears.
    const web = await managed('/backends/tunnel_group', 'backends', 'TunnelGroupBackend/web');
    expect((await http.patch(`/backends/tunnel_group/${web.id}`, { description: 'edited by hand' })).status).toBe(200);
    expect((await http.post('/ip_policies', { description: 'someone else' })).status).toBe(201);

    const applied = await run(['apply', '--plan', file('plan.json')]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(`Applying the saved plan ${file('plan.json')}`);
    expect(applied.stdout).toContain('Apply complete: 1 created, 1 updated, 0 replaced, 0 deleted.');
    expect((await managed('/edges/tcp', 'tcp_edges', 'TCPEdge/ssh')).description).toBe('ssh v2');
    expect((await managed('/tls_certificates', 'tls_certificates', 'TLSCertificate/wild')).description).toBe('wildcard');
    // Exactly the saved actions: a fresh plan would have reverted the hand edit of the backend.
    expect((await managed('/backends/tunnel_group', 'backends', 'TunnelGroupBackend/web')).description).toBe('edited by hand');
    expect(containsKeyMaterial(applied.stdout + applied.stderr, cert.keyPem)).toBe(false);
  });

  it('refuses, naming the object, when an object the plan touches changed since', async () => {
    writeManifests('ssh v3', true);
    const planned = await run(['plan', dir, '--out', file('stale.json')]);
    expect(planned.code, planned.stderr).toBe(0);
    const ssh = await managed('/edges/tcp', 'tcp_edges', 'TCPEdge/ssh');
    expect((await http.patch(`/edges/tcp/${ssh.id}`, { description: 'changed by hand' })).status).toBe(200);

    const refused = await run(['apply', dir, '--plan', file('stale.json')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the saved plan is stale');
    expect(refused.stderr).toContain(`TCPEdge/ssh (${ssh.id}) changed`);
    expect((await managed('/edges/tcp', 'tcp_edges', 'TCPEdge/ssh')).description).toBe('changed by hand');
  });

  it('refuses, naming the field, when the manifests give another secret than the plan was made with', async () => {
    const cert2 = await managed('/tls_certificates', 'tls_certificates', 'TLSCertificate/wild');
    expect((await http.del(`/tls_certificates/${cert2.id}`)).status).toBe(204);
    writeManifests('changed by hand', true);
    const planned = await run(['plan', dir, '--out', file('secret.json')]);
    expect(planned.code, planned.stderr).toBe(0);
    // The backend still carries the hand edit of the first test: a fresh plan reverts it.
    expect(planned.stdout).toContain('Plan: 1 to create, 1 to update, 0 to replace, 0 to delete.');
    const refused = await run(['apply', '--plan', file('secret.json')], otherCert.keyPem);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('TLSCertificate/wild: private_key_pem');
    expect(containsKeyMaterial(refused.stdout + refused.stderr, otherCert.keyPem)).toBe(false);
    const ok = await run(['apply', '--plan', file('secret.json')]);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await run(['plan', dir, '--detailed-exitcode'])).code).toBe(0);
  });

  it('made against a snapshot with no key at all, keys its fingerprints per file (and says so), and applies', async () => {
    const snap = await run(['export', '--snapshot', file('snap.json'), '--stack', 'saved']);
    expect(snap.code, snap.stderr).toBe(0);
    writeFileSync(join(dir, 'more.yaml'), ['kind: TLSCertificate', 'name: wild2', 'certificate_pem: {file: cert.pem}', 'private_key_pem: {env: WILD_KEY}', ''].join('\n'));
    try {
      const offline = await edgeops(['plan', dir, '--against', file('snap.json'), '--out', file('offline.json')], { env: { WILD_KEY: cert.keyPem } });
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.stderr).toContain('Note: no API key (or EDGEOPS_PLAN_KEY) was available to key the secret fingerprints, so they are only salted');
      const bytes = readFileSync(file('offline.json'), 'utf8');
      expect(JSON.parse(bytes).secret_fingerprints.source).toBe('file');
      expect(containsKeyMaterial(bytes, cert.keyPem)).toBe(false);
      const applied = await run(['apply', '--plan', file('offline.json')]);
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout).toContain('Apply complete: 1 created, 0 updated, 0 replaced, 0 deleted.');
    } finally {
      rmSync(join(dir, 'more.yaml'));
    }
    const wild2 = await managed('/tls_certificates', 'tls_certificates', 'TLSCertificate/wild2');
    expect((await http.del(`/tls_certificates/${wild2.id}`)).status).toBe(204);
  });

  it('refuses a file that is not a saved plan, and a plan for another stack', async () => {
    writeFileSync(file('junk.json'), '{"format":"something else"}');
    const junk = await run(['apply', '--plan', file('junk.json')]);
    expect(junk.code).toBe(1);
    expect(junk.stderr).toContain('not a valid saved plan');
    const other = await run(['apply', '--plan', file('secret.json'), '--stack', 'elsewhere']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('is a plan for stack "saved", but this run is for stack "elsewhere"');
  });
});

describe('plan checksum and apply --checksum', () => {
  it('applies only a fresh plan with the approved checksum', async () => {
    writeManifests('ssh v4', true);
    const planned = await run(['plan', dir]);
    const checksum = checksumIn(planned);
    expect(checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(checksumIn(await run(['plan', dir]))).toBe(checksum);

    const wrong = await run(['apply', dir, '--checksum', `sha256:${'0'.repeat(64)}`]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`this plan is not the approved one: its checksum is ${checksum}`);
    expect((await managed('/edges/tcp', 'tcp_edges', 'TCPEdge/ssh')).description).toBe('changed by hand');

    // A live change after approval changes the plan's meaning, so the approved checksum no longer applies.
    const ssh = await managed('/edges/tcp', 'tcp_edges', 'TCPEdge/ssh');
    expect((await http.patch(`/edges/tcp/${ssh.id}`, { description: 'changed again' })).status).toBe(200);
    const stale = await run(['apply', dir, '--checksum', checksum]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('not the approved one');

    const approved = checksumIn(await run(['plan', dir]));
    const ok = await run(['apply', dir, '--checksum', approved]);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await managed('/edges/tcp', 'tcp_edges', 'TCPEdge/ssh')).description).toBe('ssh v4');
  });

  it('prints the checksum in JSON and Markdown output too, and none for an empty plan', async () => {
    const empty = await run(['plan', dir]);
    expect(empty.stdout).toContain('No changes.');
    expect(empty.stdout).not.toContain('Checksum:');
    writeManifests('ssh v5', true);
    const json = JSON.parse((await run(['plan', dir, '--format', 'json'])).stdout);
    expect(json.checksum).toBe(checksumIn(await run(['plan', dir])));
    const md = await run(['plan', dir, '--format', 'markdown']);
    expect(md.stdout).toContain(`Checksum: \`${json.checksum}\``);
  });
});
