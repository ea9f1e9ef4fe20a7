// The Action redacts as the CLI does: it runs the operations in its own process, and every text they print
// passes the run's redactor (the API key, the manifests' secret values, any PEM private key block) before it
// reaches the log, the job summary, an output, the plan file or a pull-request comment.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsKeyMaterial, makeCert, type MadeCert } from '../helpers/certs.ts';
import { serviceForFile } from '../helpers/service.ts';
import { expectSecretAbsent, gitHubForFile, pullRequest, push, runAction, workspace, type ActionRun, type Doc, type Workspace } from './harness.ts';
import type { GitHubStub } from './github-stub.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
let cert: MadeCert;
let ws: Workspace;

const docs: Doc[] = [
  { kind: 'TunnelGroupBackend', name: 'web', labels: { app: 'web' } },
  { kind: 'TLSCertificate', name: 'wild', description: 'wildcard', certificate_pem: { file: 'cert.pem' }, private_key_pem: { file: 'key.pem' } },
];

beforeAll(async () => {
  cert = await makeCert({ commonName: '*.example.com', dnsNames: ['*.example.com'] });
  ws = workspace('secrets');
  writeFileSync(join(ws.dir, 'infra', 'cert.pem'), cert.chainPem);
  writeFileSync(join(ws.dir, 'infra', 'key.pem'), cert.keyPem);
});
afterAll(() => ws.dispose());

const inputs = (extra: Record<string, string> = {}) => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, ...extra });

/** No piece of the private key anywhere the run wrote, nor the API key. */
function expectNoKey(run: ActionRun, github?: GitHubStub): void {
  const places = { stdout: run.stdout, stderr: run.stderr, outputs: JSON.stringify(run.outputs), summary: run.summary, files: JSON.stringify(run.tempFiles), github: JSON.stringify(github?.requests ?? []) };
  for (const [where, text] of Object.entries(places)) expect(containsKeyMaterial(text, cert.keyPem), `key material in ${where}`).toBe(false);
  expectSecretAbsent(run, svc.apiKey, github);
}

describe('secrets in the Action', () => {
  it('a pull request plan with a private key comments the certificate, never the key', async () => {
    ws.write(docs);
    const run = await runAction({ event: pullRequest(31, 'e'.repeat(40)), inputs: inputs(), cwd: ws.dir, github: gh });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const comment = gh.comments(31)[0]!.body;
    expect(comment).toContain('TLSCertificate/wild');
    expect(run.tempFiles['edgeops-plan-secrets.json']).toContain('TLSCertificate/wild');
    expectNoKey(run, gh);
  });

  it('the apply on merge writes the certificate and prints no key', async () => {
    ws.write(docs);
    const run = await runAction({ event: push('main'), inputs: inputs({ 'on-stale': 'replan' }), cwd: ws.dir, github: gh });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('created TLSCertificate/wild');
    expectNoKey(run, gh);
  });

  it('a private key put in a field that is not secret fails with an annotation and is not quoted', async () => {
    ws.write([...docs, { kind: 'IPPolicy', name: 'leak', description: cert.keyPem }]);
    const run = await runAction({ event: pullRequest(32, 'f'.repeat(40)), inputs: inputs(), cwd: ws.dir, github: gh });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error file=infra\/all\.yaml,line=\d+,col=\d+,title=edgeops::/m);
    expectNoKey(run, gh);
  });
});
