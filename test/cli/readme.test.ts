// The README's promises, run as written: the quick-start commands, and the curl session of docs/service.md that
// covers every resource kind of the service (create, list, update, delete), executed by bash against the real
// service.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestService, type TestService } from '../helpers/service.ts';
import { ROOT, makeCerts } from './run.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const serviceDoc = readFileSync(join(ROOT, 'docs', 'service.md'), 'utf8');
let svc: TestService;
const base = mkdtempSync(join(tmpdir(), 'edgeops-readme-'));

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

function curlSession(): string {
  const section = /<!-- curl-session:start -->([\s\S]*?)<!-- curl-session:end -->/.exec(serviceDoc)?.[1];
  if (!section) throw new Error('docs/service.md has no curl session');
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: { ...process.env, ...env }, stdio: 'pipe' });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { out += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('README', () => {
  it('starts with the install and the build, then an apply and the converging plan', () => {
    const quick = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.split('\n').filter(Boolean);
    expect(quick?.slice(0, 4)).toEqual([
      'npm ci',
      'npm run build',
      'npx edgeops apply examples/basic --local --auto-approve',
      'npx edgeops plan examples/basic --local          # No changes. Live state matches the manifests.',
    ]);
    expect(readme).toContain('npm test');
    expect(readme).toContain('## Service error codes');
    expect(readme).toContain('(docs/service.md)');
  });

  it('has a curl session that creates, lists, updates and deletes every resource kind, and it runs', async () => {
    const script = curlSession();
    for (const path of ['/ip_policies', '/ip_policy_rules', '/backends/tunnel_group', '/backends/http_response', '/tls_certificates',
      '/certificate_authorities', '/edges/tcp', '/edges/tls', '/edges/https', '/routes', '/response_headers', '/event_subscriptions', '/sources']) {
      for (const verb of ['POST|PUT', 'PATCH|PUT', 'DELETE']) {
        expect(script, `${verb} ${path}`).toMatch(new RegExp(`-X (${verb}) \\$EDGE[^ ]*${path.replace(/\//g, '\\/')}`));
      }
    }
    const cwd = join(base, 'work');
    mkdirSync(join(cwd, 'examples', 'tls'), { recursive: true });
    await makeCerts(join(cwd, 'examples', 'tls'));
    const r = await bash(script, cwd, { EDGE: svc.url, KEY: svc.apiKey });
    expect(r.out).not.toContain('"error_code"');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('"x-frame-options":"DENY"');
    // The session cleans up after itself: every list is empty again.
    for (const [path, key] of [['/ip_policies', 'ip_policies'], ['/edges/tcp', 'tcp_edges'], ['/edges/https', 'https_edges'],
      ['/tls_certificates', 'tls_certificates'], ['/event_subscriptions', 'event_subscriptions']] as const) {
      expect(await api(svc).listAll(path, key)).toEqual([]);
    }
  });
});
