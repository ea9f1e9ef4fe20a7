// The secret sweep: every command a user runs, as child processes of the real bin against a real
// `edgeops serve` child, with two private keys (one read through {file: ...}, one through {env: ...}) and a
// distinctive API key. Every byte of every stdout and stderr (the service's own log included) and every file
// written under the working directory (.edgeops/, exports, snapshots, saved plans, the service's database) is
// scanned: no key may appear whole or as any 16-character run, and neither may the API key.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, edgeops, ROOT, type RunResult } from '../cli/run.ts';
import { makeCert, makeKeyPem } from '../helpers/certs.ts';
import { api as http } from '../helpers/service.ts';
import { fileText, privateKeySecret, secretsIn, tokenSecret, walkFiles, type Secret } from './secret-scan.ts';

const base = mkdtempSync(join(tmpdir(), 'edgeops-secrets-'));
/** The keys live outside the scanned tree: they are the inputs, everything under `work` is output. */
const secretsDir = join(base, 'secrets');
const work = join(base, 'work');
const API_KEY = `eosk_${randomBytes(24).toString('hex')}`;
const KEY_VAR = 'EDGEOPS_SWEEP_KEY';

let secrets: Secret[];
let keyFromFile: string;
let keyFromEnv: string;
let serve: ChildProcessWithoutNullStreams;
let serveOutput = '';
let url: string;
const captured: { label: string; text: string }[] = [];

function docs(lines: string[][]): string {
  return lines.map((d) => d.join('\n')).join('\n---\n') + '\n';
}

const CERT_FROM_FILE = [
  'kind: TLSCertificate', 'name: site', 'description: site certificate',
  'certificate_pem: {file: ../../../secrets/site.pem}', 'private_key_pem: {file: ../../../secrets/site-key.pem}',
];
const CERT_FROM_ENV = [
  'kind: TLSCertificate', 'name: api', 'description: api certificate',
  'certificate_pem: {file: ../../../secrets/api.pem}', `private_key_pem: {env: ${KEY_VAR}}`,
];
const EDGE = [
  'kind: TLSEdge', 'name: front', 'hostports: ["front.example.com:443"]',
  'tls_termination: {terminate_at: edge, min_version: "1.2"}', 'backend: {backend_id: web}',
];
const BACKEND = ['kind: TunnelGroupBackend', 'name: web', 'labels: {app: web}'];

async function startServe(): Promise<void> {
  serve = spawn(process.execPath, [join(ROOT, 'bin/edgeops.js'), 'serve', '--port', '0', '--api-key', API_KEY, '--db', join(work, 'svc', 'service.db')], {
    cwd: work, env: cleanEnv({ HOME: join(work, 'home') }), stdio: 'pipe',
  });
  serve.stdout.setEncoding('utf8');
  serve.stderr.setEncoding('utf8').on('data', (d: string) => { serveOutput += d; });
  url = await new Promise<string>((resolve, reject) => {
    serve.stdout.on('data', (d: string) => {
      serveOutput += d;
      const m = /listening on (http:\/\/\S+)/.exec(serveOutput);
      if (m) resolve(m[1]!);
    });
    serve.on('exit', (code) => reject(new Error(`serve exited early (${code}): ${serveOutput}`)));
  });
}

async function stopServe(): Promise<void> {
  if (serve.exitCode !== null) return;
  const exited = new Promise((resolve) => serve.on('exit', resolve));
  serve.kill('SIGTERM');
  await exited;
}

/** One CLI run in the working directory, recorded for the sweep. */
async function run(args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  const r = await edgeops(args, {
    cwd: work,
    env: { HOME: join(work, 'home'), EDGEOPS_API_URL: url, EDGEOPS_API_KEY: API_KEY, [KEY_VAR]: keyFromEnv, ...env },
  });
  captured.push({ label: `edgeops ${args.join(' ')}`, text: `${r.stdout}\n${r.stderr}` });
  return r;
}

beforeAll(async () => {
  mkdirSync(secretsDir);
  mkdirSync(join(work, 'svc'), { recursive: true });
  mkdirSync(join(work, 'home'));
  const site = await makeCert({ keyType: 'rsa', commonName: 'site.example.com', dnsNames: ['site.example.com'] });
  const apiCert = await makeCert({ keyType: 'ecdsa', commonName: 'api.example.com', dnsNames: ['api.example.com'] });
  keyFromFile = site.keyPem;
  keyFromEnv = apiCert.keyPem;
  writeFileSync(join(secretsDir, 'site.pem'), site.chainPem);
  writeFileSync(join(secretsDir, 'site-key.pem'), site.keyPem);
  writeFileSync(join(secretsDir, 'api.pem'), apiCert.chainPem);
  secrets = [
    privateKeySecret('private key read from a file', keyFromFile, await makeKeyPem('rsa')),
    privateKeySecret('private key read from the environment', keyFromEnv, await makeKeyPem('ecdsa')),
    tokenSecret('API key', API_KEY),
  ];

  const m = join(work, 'manifests');
  mkdirSync(join(m, 'ok'), { recursive: true });
  writeFileSync(join(m, 'ok', 'all.yaml'), docs([CERT_FROM_FILE, CERT_FROM_ENV, BACKEND, [...EDGE, 'description: front door']]));
  // A failing apply: a hostport held by an edge edgeops does not manage fails on the service with the secret in
  // the request bodies of the creates before it. A key that does not match its certificate is refused before
  // any request, as the service would refuse it.
  mkdirSync(join(m, 'fail'));
  writeFileSync(join(m, 'fail', 'all.yaml'), docs([
    CERT_FROM_FILE, BACKEND, [...EDGE, 'hostports: ["taken.example.com:443"]'].filter((l) => !l.startsWith('hostports: ["front')),
  ]));
  mkdirSync(join(m, 'mismatch'));
  writeFileSync(join(m, 'mismatch', 'all.yaml'), docs([
    ['kind: TLSCertificate', 'name: mismatch', 'certificate_pem: {file: ../../../secrets/site.pem}', `private_key_pem: {env: ${KEY_VAR}}`],
  ]));
  // Manifests with secrets pasted in are inputs too: they live beside the keys, outside the scanned tree.
  // Private keys given in fields that are not secret: as the certificate, appended to a certificate's chain,
  // as a CA (from a file and from the environment), and pasted into a description.
  writeFileSync(join(secretsDir, 'site-bundle.pem'), `${site.chainPem}${site.keyPem}`);
  mkdirSync(join(secretsDir, 'key-in-field'));
  writeFileSync(join(secretsDir, 'key-in-field', 'all.yaml'), docs([
    ['kind: TLSCertificate', 'name: swapped', 'certificate_pem: {file: ../site-key.pem}', 'private_key_pem: {file: ../site-key.pem}'],
    ['kind: TLSCertificate', 'name: bundled', 'certificate_pem: {file: ../site-bundle.pem}', 'private_key_pem: {file: ../site-key.pem}'],
    ['kind: CertificateAuthority', 'name: ca-file', 'ca_pem: {file: ../site-key.pem}'],
    ['kind: CertificateAuthority', 'name: ca-env', `ca_pem: {env: ${KEY_VAR}}`],
    ['kind: IPPolicy', 'name: pasted', 'description: |', ...keyFromEnv.trimEnd().split('\n').map((l) => `  ${l}`)],
  ]));
  // The API key pasted into manifests: where validation echoes a bad value, and where a plan shows a good one.
  mkdirSync(join(secretsDir, 'pasted-key'));
  writeFileSync(join(secretsDir, 'pasted-key', 'all.yaml'), docs([['kind: TCPEdge', 'name: pasted', `hostports: ["${API_KEY}"]`]]));
  mkdirSync(join(secretsDir, 'pasted-key-plan'));
  writeFileSync(join(secretsDir, 'pasted-key-plan', 'all.yaml'), docs([['kind: IPPolicy', 'name: pasted', `description: "token ${API_KEY}"`]]));
  // Validation errors right next to the secret fields (wrong types, an unknown field, a malformed secret source).
  mkdirSync(join(m, 'invalid'));
  writeFileSync(join(m, 'invalid', 'all.yaml'), docs([
    [...CERT_FROM_FILE.filter((l) => !l.startsWith('description')), 'description: 42', 'private_key_pemm: x'],
    ['kind: TLSCertificate', 'name: env-bad', 'certificate_pem: {file: ../../../secrets/api.pem}', `private_key_pem: {env: ${KEY_VAR}, file: x}`],
    ['kind: TLSCertificate', 'name: unset', 'certificate_pem: {file: ../../../secrets/site.pem}', 'private_key_pem: {env: EDGEOPS_SWEEP_UNSET}'],
  ]));
  // The embedded service (--local) writes its database under .edgeops/ next to the manifests.
  cpSync(join(m, 'ok'), join(m, 'local'), { recursive: true });
  await startServe();
}, 60_000);

afterAll(async () => {
  if (serve) await stopServe();
  rmSync(base, { recursive: true, force: true });
});

describe('secrets never leak', () => {
  it('the scanner finds a key by any 16-character run, at any offset, and the API key', () => {
    const body = keyFromFile.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    // Past the PKCS#8 header every RSA key shares (the decoy takes it out of the secret's runs).
    for (const offset of [100, 101, 102, 103, 301, body.length - 20]) {
      expect(secretsIn(`x ${body.slice(offset, offset + 16)} y`, secrets)).toEqual(['private key read from a file']);
    }
    expect(secretsIn(JSON.stringify({ pem: keyFromEnv }), secrets)).toEqual(['private key read from the environment']);
    expect(secretsIn(`Bearer ${API_KEY}`, secrets)).toEqual(['API key']);
    expect(secretsIn('nothing here', secrets)).toEqual([]);
    expect(secretsIn(fileText(join(secretsDir, 'site-key.pem')), secrets)).toEqual(['private key read from a file']);
  });

  it('in every command, output and file', async () => {
    const ok = 'manifests/ok';
    // Assertions see output only when it holds no secret: a failing test must not print one either.
    const safe = (text: string) => (secretsIn(text, secrets).length === 0 ? text : '(withheld: it holds a secret)');
    const expectCode = (r: RunResult, code: number) => expect(r.code, safe(r.stderr).slice(0, 600)).toBe(code);

    expectCode(await run(['validate', ok]), 0);
    for (const format of ['text', 'json', 'markdown']) expectCode(await run(['plan', ok, '--format', format]), 0);
    expectCode(await run(['plan', ok, '--format', 'json', '--api-key', API_KEY, '--api-url', url], { EDGEOPS_API_KEY: undefined, EDGEOPS_API_URL: undefined }), 0);
    // A saved plan, made before the apply below, so applying it afterwards is refused as stale.
    expectCode(await run(['plan', ok, '--out', 'saved-plan.json']), 0);

    const applied = await run(['apply', ok, '--auto-approve']);
    expectCode(applied, 0);
    expect(safe(applied.stdout)).toContain('Apply complete: 4 created');
    expectCode(await run(['plan', ok, '--detailed-exitcode']), 0);
    expectCode(await run(['apply', '--plan', 'saved-plan.json']), 1);

    // Drift: a change made by hand to a certificate (its description) and to the edge.
    const client = http({ url, apiKey: API_KEY });
    const certs = (await client.get('/tls_certificates')).body.tls_certificates as { id: string }[];
    expect(certs).toHaveLength(2);
    expect((await client.patch(`/tls_certificates/${certs[0]!.id}`, { description: 'changed by hand' })).status).toBe(200);
    for (const format of ['text', 'json', 'markdown']) expectCode(await run(['drift', ok, '--format', format]), 2);

    expectCode(await run(['export', '--out', 'exported', '--snapshot', 'snapshot.json']), 0);
    expectCode(await run(['export', '--all', '--out', 'exported-all']), 0);
    expectCode(await run(['plan', ok, '--against', 'snapshot.json', '--format', 'json'], { EDGEOPS_API_URL: undefined, EDGEOPS_API_KEY: undefined }), 0);
    // The exported certificates read their keys from EDGEOPS_KEY_<NAME> variables.
    expectCode(await run(['plan', 'exported', '--detailed-exitcode'], { EDGEOPS_KEY_SITE: keyFromFile, EDGEOPS_KEY_API: keyFromEnv }), 0);

    expect((await client.post('/edges/tls', { hostports: ['taken.example.com:443'], description: 'not managed' })).status).toBe(201);
    const failed = await run(['apply', 'manifests/fail', '--auto-approve'], { EDGEOPS_STACK: 'failing' });
    expectCode(failed, 1);
    // The plan sees the hostport held outside the stack: an error at its position, and nothing is written.
    expect(safe(failed.stderr)).toMatch(/hostport "taken\.example\.com:443" is held by/);
    expectCode(await run(['apply', 'manifests/fail', '--auto-approve'], { EDGEOPS_STACK: 'failing', EDGEOPS_DEBUG: '1' }), 1);
    for (const command of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
      const mismatch = await run([command[0]!, 'manifests/mismatch', ...command.slice(1)], { EDGEOPS_STACK: 'failing', EDGEOPS_DEBUG: '1' });
      expectCode(mismatch, 1);
      expect(safe(mismatch.stderr)).toMatch(/all\.yaml:\d+:\d+: TLSCertificate\/mismatch: private_key_pem: the private key does not match/);
    }

    // Keys where no secret belongs are refused before any request, each named at its place.
    const misplaced = await run(['validate', join(secretsDir, 'key-in-field')]);
    expectCode(misplaced, 1);
    for (const at of ['TLSCertificate/swapped: certificate_pem', 'TLSCertificate/bundled: certificate_pem', 'CertificateAuthority/ca-file: ca_pem', 'CertificateAuthority/ca-env: ca_pem', 'IPPolicy/pasted: description']) {
      expect(safe(misplaced.stderr)).toMatch(new RegExp(`all\\.yaml:\\d+:\\d+: ${at}: holds a PEM private key`));
    }
    expectCode(await run(['plan', join(secretsDir, 'key-in-field'), '--format', 'json']), 1);
    expectCode(await run(['plan', join(secretsDir, 'key-in-field'), '--out', 'key-in-field-plan.json'], { EDGEOPS_DEBUG: '1' }), 1);
    expect(existsSync(join(work, 'key-in-field-plan.json'))).toBe(false);
    expectCode(await run(['apply', join(secretsDir, 'key-in-field'), '--auto-approve'], { EDGEOPS_STACK: 'misplaced', EDGEOPS_DEBUG: '1' }), 1);
    const pasted = await run(['validate', join(secretsDir, 'pasted-key')]);
    expectCode(pasted, 1);
    expect(safe(pasted.stderr)).toContain('TCPEdge/pasted: hostports[0]: "(sensitive)" is not host:port');
    expectCode(await run(['plan', join(secretsDir, 'pasted-key-plan'), '--format', 'json'], { EDGEOPS_STACK: 'pasted' }), 0);

    const unauthorized = await run(['plan', ok], { EDGEOPS_API_KEY: `${API_KEY.slice(0, 10)}-wrong` });
    expectCode(unauthorized, 1);
    expect(safe(unauthorized.stderr)).toMatch(/401/);
    // The right key sent to a port nothing listens on: a transport error.
    expectCode(await run(['plan', ok], { EDGEOPS_API_URL: 'http://127.0.0.1:9', EDGEOPS_DEBUG: '1', EDGEOPS_RETRY_BUDGET: '0' }), 1);

    // A mistyped command line: the key given to the wrong option, or with the newline of the file it came from.
    const swapped = await run(['plan', ok, '--api-url', API_KEY, '--api-key', url], { EDGEOPS_API_KEY: undefined, EDGEOPS_API_URL: undefined });
    expectCode(swapped, 1);
    expect(safe(swapped.stderr)).toContain('--api-url: not a URL: a value of');
    expectCode(await run(['plan', ok, '--stack', API_KEY]), 1);
    expectCode(await run(['apply', ok, '--concurrency', API_KEY, '--auto-approve']), 1);
    expectCode(await run(['plan', ok, '--api-url', `http://edgeops:${API_KEY}@127.0.0.1:9`], { EDGEOPS_API_URL: undefined, EDGEOPS_RETRY_BUDGET: '0' }), 1);
    const newline = await run(['plan', ok], { EDGEOPS_API_KEY: `${API_KEY}\n` });
    expectCode(newline, 1);
    expect(safe(newline.stderr)).toContain('EDGEOPS_API_KEY: the API key has whitespace');
    expectCode(await run(['serve', '--port', API_KEY]), 1);

    const invalid = await run(['validate', 'manifests/invalid']);
    expectCode(invalid, 1);
    expect(safe(invalid.stderr)).toMatch(/all\.yaml:\d+:\d+: TLSCertificate\/site: /);
    expect(safe(invalid.stderr)).toContain('EDGEOPS_SWEEP_UNSET');
    expectCode(await run(['plan', 'manifests/invalid', '--format', 'json']), 1);

    const local = await run(['apply', 'manifests/local', '--local', '--auto-approve'], { EDGEOPS_API_URL: undefined, EDGEOPS_API_KEY: undefined });
    expectCode(local, 0);
    expectCode(await run(['drift', 'manifests/local', '--local'], { EDGEOPS_API_URL: undefined, EDGEOPS_API_KEY: undefined }), 0);

    for (const cmd of [[], ['validate'], ['plan'], ['apply'], ['drift'], ['export'], ['serve']]) expectCode(await run([...cmd, '--help']), 0);

    await stopServe();
    captured.push({ label: 'edgeops serve (its own output)', text: serveOutput });

    const files = walkFiles(work);
    expect(files).toEqual(expect.arrayContaining(['manifests/local/.edgeops/local.db', 'svc/service.db', 'snapshot.json', 'saved-plan.json']));
    expect(files.some((f) => f.startsWith('exported/'))).toBe(true);
    for (const file of files) captured.push({ label: `file ${file}`, text: fileText(join(work, file)) });

    const leaks = captured.flatMap(({ label, text }) => secretsIn(text, secrets).map((secret) => `${label}: ${secret}`));
    expect(leaks).toEqual([]);
  }, 240_000);
});
