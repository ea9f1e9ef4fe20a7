// Ctrl-C during an apply: no new action starts, those in flight finish, the summary counts what never started,
// exit 1; a rerun creates exactly the rest and converges. The interrupt is sent as soon as the first action
// has finished, with hundreds still queued behind a concurrency of 1.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { ROOT, cleanEnv, edgeops } from './run.ts';

const COUNT = 300;
let svc: TestService;
const base = mkdtempSync(join(tmpdir(), 'edgeops-interrupt-'));
const dir = join(base, 'm');

beforeAll(async () => {
  svc = await startTestService();
  mkdirSync(dir);
  const docs = Array.from({ length: COUNT }, (_, i) => `kind: IPPolicy\nname: p-${String(i).padStart(3, '0')}\n`);
  writeFileSync(join(dir, 'policies.yaml'), docs.join('---\n'));
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('interrupting an apply', () => {
  it('stops starting actions, reports what never started, and a rerun converges', async () => {
    const env = cleanEnv({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey });
    const child = spawn(process.execPath, [join(ROOT, 'bin/edgeops.js'), 'apply', dir, '--auto-approve', '--concurrency', '1'], { cwd: ROOT, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (!sent && /^created IPPolicy\//m.test(stdout)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(code).toBe(1);
    expect(stderr).toContain('SIGINT: starting no new actions');
    expect(stderr).toContain('edgeops: apply interrupted');
    const created = stdout.match(/^created IPPolicy\//gm)?.length ?? 0;
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThan(COUNT);
    expect(stdout).toContain(`Apply failed: interrupted; ${created} created, 0 updated, 0 replaced, 0 deleted.`);
    expect(stdout).toContain(`  not started: ${COUNT - created} actions`);
    expect(stdout).not.toContain('skipped');

    const rerun = await edgeops(['apply', dir, '--auto-approve'], { env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey } });
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain(`Apply complete: ${COUNT - created} created, 0 updated, 0 replaced, 0 deleted.`);
    const plan = await edgeops(['plan', dir, '--detailed-exitcode'], { env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey } });
    expect(plan.code).toBe(0);
  });
});
