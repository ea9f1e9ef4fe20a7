// An apply that dies leaves no one waiting: killed with kill -9, the next apply on the same host takes its lock
// at once (the record names the dead pid) instead of after the 60 s TTL; interrupted twice in a row, it still
// releases the lock before it exits. Both with the real bin as a child process against the real service.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { cleanEnv, edgeops, ROOT } from '../cli/run.ts';
import { api as http, startTestService, type TestService } from '../helpers/service.ts';
import { policySetState, writePolicySet } from '../helpers/policy-set.ts';

const base = mkdtempSync(join(tmpdir(), 'edgeops-lock-recovery-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** `edgeops apply DIR --auto-approve` as a child; `onOutput` sees stdout so far and may signal the child. */
function startApply(svc: TestService, dir: string, onOutput: (stdout: string, child: ReturnType<typeof spawn>) => void) {
  const child = spawn(process.execPath, [join(ROOT, 'bin/edgeops.js'), 'apply', dir, '--auto-approve'], {
    cwd: base, env: cleanEnv({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey }), stdio: 'pipe',
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out.stdout += d;
    onOutput(out.stdout, child);
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, out, closed };
}

async function lockIds(svc: TestService): Promise<string[]> {
  const items = (await http(svc).listAll('/ip_policies', 'ip_policies')) as { id: string; metadata?: string }[];
  return items.filter((i) => parseMetadata(i.metadata).marker?.name === 'Lock/default').map((i) => i.id);
}

const createdLines = (stdout: string): number => stdout.match(/^created /gm)?.length ?? 0;

describe('an apply that dies', () => {
  it('killed with kill -9 mid-apply: the next apply on this host takes its lock at once, saying so, and converges', async () => {
    const svc = await startTestService({ faults: 'POST.latency=10' });
    try {
      const dir = writePolicySet(base, 'killed', 100);
      let killed = false;
      const run = startApply(svc, dir, (stdout, child) => {
        if (!killed && createdLines(stdout) >= 20) {
          killed = true;
          child.kill('SIGKILL');
        }
      });
      expect((await run.closed).signal).toBe('SIGKILL');
      const [left] = await lockIds(svc);
      expect(left, 'the killed apply left its lock record').toBeDefined();

      const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey };
      const next = await edgeops(['apply', dir, '--auto-approve', '--lock-timeout', '0'], { env, cwd: base });
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toMatch(new RegExp(`^Took over the lock ${left} of stack "default" from \\S+@\\S+ pid ${run.child.pid}: that process is no longer running on this host \\(since \\S+Z\\)$`, 'm'));
      expect(next.stdout).toContain('Apply complete:');
      expect(await lockIds(svc)).toEqual([]);
      expect((await edgeops(['plan', dir, '--detailed-exitcode'], { env, cwd: base })).code).toBe(0);
    } finally {
      await svc.close();
    }
  }, 120_000);

  it('interrupted twice 30 ms apart: releases the lock before exiting with 1, and a rerun converges', async () => {
    // Creates slow enough that the actions in flight at the first SIGINT are still running at the second.
    const svc = await startTestService({ faults: 'POST.latency=300' });
    try {
      const dir = writePolicySet(base, 'twice', 60);
      let sent = false;
      const run = startApply(svc, dir, (stdout, child) => {
        if (!sent && createdLines(stdout) >= 20) {
          sent = true;
          child.kill('SIGINT');
          setTimeout(() => child.kill('SIGINT'), 30);
        }
      });
      const { code, signal } = await run.closed;
      expect({ code, signal }, run.out.stderr).toEqual({ code: 1, signal: null });
      expect(run.out.stderr).toContain('SIGINT: starting no new actions');
      expect(run.out.stderr).toContain('SIGINT again: releasing the lock and exiting now');
      expect(await lockIds(svc)).toEqual([]);

      const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey };
      const rerun = await edgeops(['apply', dir, '--auto-approve', '--lock-timeout', '0'], { env, cwd: base });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect((await edgeops(['plan', dir, '--detailed-exitcode'], { env, cwd: base })).code).toBe(0);
    } finally {
      await svc.close();
    }
  }, 120_000);
});
