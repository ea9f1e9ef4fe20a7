// Certificates the service would refuse are refused when the manifests are read: a key that does not match its
// certificate, a chain given root first, CA PEMs with text after their block (from a file, and inline).
// `validate`, `plan` and `apply` exit 1 with each problem at file:line:col (the `file`/`env` the value came
// from), print none of any key, and a recording proxy in front of the service sees no write. The same set with
// the right key applies: the check refuses only what the service refuses.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_PATH } from '../../src/lock/lock-record.ts';
import { containsKeyMaterial, makeCa, makeChain, makeCert, type MadeCert } from '../helpers/certs.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startProxy, type RoundRobinProxy as RecordingProxy } from '../support/round-robin-proxy.ts';
import { edgeops, type RunResult } from './run.ts';

let svc: TestService;
let log: RecordingProxy;
let site: MadeCert;
let other: MadeCert;
let expected: string[];
const dir = mkdtempSync(join(tmpdir(), 'edgeops-cert-checks-'));

beforeAll(async () => {
  svc = await startTestService();
  log = await startProxy(svc.url);
  site = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com'] });
  other = await makeCert({ keyType: 'rsa' });
  const { leaf, intermediate } = await makeChain();
  const ca = await makeCa({ commonName: 'Clients CA' });
  expected = [
    'all.yaml:8:24: TLSCertificate/site: private_key_pem: the private key does not match the public key of the first certificate in certificate_pem (in environment variable SITE_KEY)',
    'all.yaml:13:25: TLSCertificate/reversed: private_key_pem: the private key does not match the public key of the first certificate in certificate_pem (in file "leaf-key.pem")',
    `all.yaml:17:16: CertificateAuthority/clients: ca_pem: text that is not part of a PEM block at character ${ca.certPem.length + 1}; only PEM blocks and whitespace are allowed (in file "ca.pem")`,
    `all.yaml:21:9: CertificateAuthority/inline: ca_pem: text that is not part of a PEM block at character ${other.certPem.length + 1}; only PEM blocks and whitespace are allowed`,
    'edgeops: 4 problems in the manifests',
  ];
  writeFileSync(join(dir, 'site.pem'), site.certPem);
  writeFileSync(join(dir, 'site-key.pem'), site.keyPem);
  writeFileSync(join(dir, 'reversed.pem'), intermediate.chainPem + leaf.certPem);
  writeFileSync(join(dir, 'leaf-key.pem'), leaf.keyPem);
  writeFileSync(join(dir, 'ca.pem'), `${ca.certPem}# issued by the security team\n`);
  writeFileSync(join(dir, 'all.yaml'), [
    'kind: TunnelGroupBackend', 'name: web', 'labels: {app: web}',
    '---', 'kind: TLSCertificate', 'name: site', 'certificate_pem: {file: site.pem}', 'private_key_pem: {env: SITE_KEY}',
    '---', 'kind: TLSCertificate', 'name: reversed', 'certificate_pem: {file: reversed.pem}', 'private_key_pem: {file: leaf-key.pem}',
    '---', 'kind: CertificateAuthority', 'name: clients', 'ca_pem: {file: ca.pem}',
    '---', 'kind: CertificateAuthority', 'name: inline', 'ca_pem: |', ...other.certPem.trimEnd().split('\n').map((l) => `  ${l}`), '  trailing words',
    '',
  ].join('\n'));
});
afterAll(async () => {
  await log?.close();
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (key: string) => ({ EDGEOPS_API_URL: log.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: 'certs', SITE_KEY: key });

function expectRefused(r: RunResult): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr.trimEnd().split('\n')).toEqual(expected);
  for (const key of [other.keyPem, site.keyPem]) expect(containsKeyMaterial(`${r.stdout}\n${r.stderr}`, key)).toBe(false);
}

describe('certificates the service would refuse', () => {
  it.each([
    ['validate', []],
    ['plan', []],
    ['plan', ['--format', 'json']],
    ['apply', ['--auto-approve']],
  ])('%s %j exits 1 with each problem at its place and sends no write', async (command, args) => {
    log.requests.length = 0;
    const r = await edgeops([command, '.', ...args], { cwd: dir, env: env(other.keyPem) });
    expectRefused(r);
    expect(r.stdout).toBe('');
    expect(log.requests.filter((h) => h.method !== 'GET' && !(command === 'apply' && h.path.startsWith(LOCK_PATH)))).toEqual([]);
    if (command === 'validate') expect(log.requests).toEqual([]);
  });
});

it('the same certificate with its own key, and the CAs without the extra text, apply', async () => {
  writeFileSync(join(dir, 'ca.pem'), (await makeCa({ commonName: 'Clients CA' })).certPem);
  writeFileSync(join(dir, 'all.yaml'), [
    'kind: TLSCertificate', 'name: site', 'certificate_pem: {file: site.pem}', 'private_key_pem: {env: SITE_KEY}',
    '---', 'kind: CertificateAuthority', 'name: clients', 'ca_pem: {file: ca.pem}',
    '',
  ].join('\n'));
  log.requests.length = 0;
  const r = await edgeops(['apply', dir, '--auto-approve'], { env: env(site.keyPem) });
  expect(r.code, r.stderr).toBe(0);
  expect(log.requests.filter((h) => h.method !== 'GET' && !h.path.startsWith(LOCK_PATH)).map((h) => `${h.method} ${h.path}`).sort())
    .toEqual(['POST /certificate_authorities', 'POST /tls_certificates']);
});
