// What a reviewer reads is every value that changes, in full: `edgeops plan` (text, Markdown, JSON) and
// `edgeops drift` (text, Markdown), run as a user runs them against the real service, after the manifests change
// an 81-character description, a response body to three lines, a traffic rule's CEL expression to 98 characters,
// and rotate a certificate. No value is hidden behind a hash; the body reads line by line, the expressions entry
// by entry, and the certificate by what it says (old and new not_after), beside its fingerprint.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeops, type RunResult } from '../cli/run.ts';
import { makeCert, rfc3339, type MadeCert } from '../helpers/certs.ts';
import { writeDocs } from './export-fixtures.ts';
import { startE2E, STACK, type Doc, type E2E } from './harness.ts';

const DESCRIPTION = 'SSH to the bastion hosts in both data centres; ask #netops before changing a rule';
const BODY = ['We are down for maintenance until 18:00 UTC.', 'Status and updates: https://status.example.com', '-- the platform team'];
const CEL = "conn.client_ip != '203.0.113.17' && conn.client_ip != '198.51.100.23' && conn.server_port != 22022";

const OLD_EXPIRY = new Date('2027-01-01T00:00:00Z');
const NEW_EXPIRY = new Date('2028-06-30T12:00:00Z');

let e: E2E;
let oldCert: MadeCert;
let newCert: MadeCert;
let dir: string;
const env = () => ({ EDGEOPS_API_URL: e.svc.url, EDGEOPS_API_KEY: e.svc.apiKey, EDGEOPS_STACK: STACK });

function docs(changed: boolean): Doc[] {
  const cert = changed ? newCert : oldCert;
  return [
    { kind: 'TunnelGroupBackend', name: 'bastion', labels: { app: 'bastion' } },
    { kind: 'HTTPResponseBackend', name: 'maintenance', body: changed ? `${BODY.join('\n')}\n` : 'down for maintenance', status_code: 503 },
    {
      kind: 'TCPEdge',
      name: 'ssh',
      description: changed ? DESCRIPTION : 'SSH to the bastion hosts',
      hostports: ['1.tcp.example.com:20001'],
      backend: { backend_id: 'bastion' },
      policy: { enabled: true, inbound: [{ name: 'no-ssh-port', expressions: [changed ? CEL : 'conn.server_port != 22'], actions: [{ type: 'deny' }] }], outbound: [] },
    },
    { kind: 'TLSCertificate', name: 'www', certificate_pem: cert.certPem, private_key_pem: cert.keyPem },
  ];
}

const run = async (args: string[]): Promise<RunResult> => edgeops([...args], { env: env() });

beforeAll(async () => {
  expect(DESCRIPTION).toHaveLength(81);
  expect(CEL).toHaveLength(98);
  e = await startE2E();
  oldCert = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com'], notAfter: OLD_EXPIRY });
  newCert = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com', 'example.com'], notAfter: NEW_EXPIRY });
  await e.converge(docs(false));
  dir = writeDocs(docs(true));
}, 60_000);
afterAll(async () => {
  await e?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Each value appears as it is: the description and the expression quoted whole, the body's lines one by one, in order. */
function expectFullValues(out: string): void {
  expect(out).toContain(`"${DESCRIPTION}"`);
  expect(out).toContain(`"${CEL}"`);
  const lines = out.split('\n');
  const at = BODY.map((line) => lines.findIndex((l) => l.trimEnd().endsWith(` ${line}`)));
  expect(at.every((i) => i > 0), out).toBe(true);
  expect(at).toEqual([at[0], at[0]! + 1, at[0]! + 2]);
  expect(out).not.toContain('<text, ');
}

/** The rotation: the certificate's old and new not_after side by side, beside the PEMs' fingerprints. */
function expectRotation(out: string): void {
  expect(out).toMatch(/certificate_pem: .*<PEM CERTIFICATE, 1 block, \d+ bytes, sha256:[0-9a-f]{12}> -> <PEM CERTIFICATE, 1 block, \d+ bytes, sha256:[0-9a-f]{12}>/);
  expect(out).toContain(`not_after: "${rfc3339(OLD_EXPIRY)}" -> "${rfc3339(NEW_EXPIRY)}"`);
  expect(out).toContain(`serial: "${oldCert.serialNumber}" -> "${newCert.serialNumber}"`);
  expect(out).toContain('subject: "CN=www.example.com"');
  expect(out).toContain('sans: ["DNS:www.example.com"] -> ["DNS:www.example.com", "DNS:example.com"]');
}

describe('every non-secret value in full', () => {
  it('text plan: the description, the body line by line, the expression entry by entry, the certificate by what it says', async () => {
    const r = await run(['plan', dir]);
    expect(r.code, r.stderr).toBe(0);
    expectFullValues(r.stdout);
    expectRotation(r.stdout);
    // The body as a line diff (the old text had no final newline, the new one has), the expressions as an entry diff.
    const bodyDiff = ['      ~ body: <<EOT', '      -     down for maintenance', ...BODY.map((l) => `      +     ${l}`), '      -     (no newline at the end)', '        EOT'];
    expect(r.stdout).toContain(`${bodyDiff.join('\n')}\n`);
    expect(r.stdout).toContain(`          ~ policy.inbound[0].expressions: [\n          -     "conn.server_port != 22",\n          +     "${CEL}",\n            ]\n`);
  });

  it('Markdown plan: the same lines in the diff block', async () => {
    const r = await run(['plan', dir, '--format', 'markdown']);
    expect(r.code, r.stderr).toBe(0);
    expectFullValues(r.stdout);
    expectRotation(r.stdout);
    const bodyDiff = ['!     body: <<EOT', '-         down for maintenance', ...BODY.map((l) => `+         ${l}`), '-         (no newline at the end)', '      EOT'];
    expect(r.stdout).toContain(`${bodyDiff.join('\n')}\n`);
  });

  it('JSON plan: full values, and what the certificates say beside the PEMs', async () => {
    const r = await run(['plan', dir, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.format_version).toBe(2);
    const changes = plan.resources.flatMap((res: { changes: { path: string }[] }) => res.changes);
    const at = (path: string) => changes.find((c: { path: string }) => c.path === path);
    expect(at('/description').new).toBe(DESCRIPTION);
    expect(at('/body').new).toBe(`${BODY.join('\n')}\n`);
    expect(at('/policy/inbound/0/expressions').new).toEqual([CEL]);
    const pem = at('/certificate_pem');
    expect(pem.new).toBe(newCert.certPem.trimEnd());
    expect(pem.certificates.old[0]).toMatchObject({ not_after: rfc3339(OLD_EXPIRY), serial: oldCert.serialNumber, subject: 'CN=www.example.com' });
    expect(pem.certificates.new[0]).toMatchObject({ not_after: rfc3339(NEW_EXPIRY), serial: newCert.serialNumber, sans: ['DNS:www.example.com', 'DNS:example.com'] });
    expect(at('/description').certificates).toBeUndefined();
  });

  it('drift, text and Markdown: the same values, live against the manifests', async () => {
    const text = await run(['drift', dir]);
    expect(text.code, text.stderr).toBe(2);
    expectFullValues(text.stdout);
    expectRotation(text.stdout);
    expect(text.stdout).toContain(`description: live "SSH to the bastion hosts", manifests "${DESCRIPTION}"`);
    const markdown = await run(['drift', dir, '--format', 'markdown']);
    expect(markdown.code, markdown.stderr).toBe(2);
    expectFullValues(markdown.stdout);
    expectRotation(markdown.stdout);
  });

  it('after apply, nothing is left to show', async () => {
    const applied = await run(['apply', dir, '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const drift = await run(['drift', dir]);
    expect(drift.code, drift.stdout).toBe(0);
  });
});
