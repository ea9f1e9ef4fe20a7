// The service restarting in the middle of an apply: stopped for 3 s while an apply of 300 resources runs, then
// started again on the same SQLite file and port. The apply rides it out (connections refused and reset are
// retried within the retry budget, creates through their landed check): exit 0, no failed action, one live
// resource per document, one line on stderr for the outage, and the next plan shows no changes. With
// --retry-budget 0 the same outage fails the run fast instead. A service that never answered (a closed port)
// is no outage: whatever the budget, the run fails within seconds, saying why and naming --retry-budget.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/server.ts';
import { cleanEnv, edgeops, ROOT } from '../cli/run.ts';
import { tempDbFile } from '../helpers/service.ts';
import { policySetState, writePolicySet } from '../helpers/policy-set.ts';

const base = mkdtempSync(join(tmpdir(), 'edgeops-restart-'));
const db = tempDbFile();
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  db.cleanup();
});

const API_KEY = 'restart-key';
const POLICIES = 150;

const start = (port = 0): Promise<RunningService> =>
  startService({ host: '127.0.0.1', port, apiKeys: [API_KEY], db: db.dbFile, quiet: true, faults: 'POST.latency=10' });

describe('the service restarting during an apply', () => {
  it('stopped for 3 s mid-apply of 300 resources and restarted on the same db: exit 0, nothing failed, nothing doubled', async () => {
    let service = await start();
    const url = service.url;
    const port = Number(new URL(url).port);
    const dir = writePolicySet(base, 'restart', POLICIES);
    const env = { EDGEOPS_API_URL: url, EDGEOPS_API_KEY: API_KEY };
    const child = spawn(process.execPath, [join(ROOT, 'bin/edgeops.js'), 'apply', dir, '--auto-approve'], { cwd: base, env: cleanEnv(env), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    let stopped: Promise<void> | undefined;
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (!stopped && (stdout.match(/^created /gm)?.length ?? 0) >= 100) {
        stopped = (async () => {
          await service.close();
          await new Promise((resolve) => setTimeout(resolve, 3000));
          service = await start(port);
        })();
      }
    });
    try {
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      await stopped;
      expect(stopped, 'the service was stopped during the apply').toBeDefined();
      expect(code, `${stdout.slice(-2000)}\n${stderr}`).toBe(0);
      expect(stdout).toContain(`Apply complete: ${POLICIES * 2} created, 0 updated, 0 replaced, 0 deleted.`);
      // Ids are random text, so only whole words count.
      expect(stdout).not.toMatch(/\bfail(ed|ure)?\b/i);
      // One line for the outage, whatever the number of requests that met it, and one when it was over.
      expect(stderr.match(/^service unreachable \((ECONNREFUSED|ECONNRESET|EPIPE|UND_ERR_SOCKET)\), retrying for up to 60 s from the first failure \(--retry-budget\)$/gm), stderr).toHaveLength(1);
      expect(stderr).toMatch(/^service reachable again after \d+ s$/m);
      const after = await policySetState({ url, apiKey: API_KEY });
      expect(after.locks).toBe(0);
      expect(Object.keys(after.copies)).toHaveLength(POLICIES * 2);
      expect(Object.entries(after.copies).filter(([, n]) => n !== 1)).toEqual([]);
      const plan = await edgeops(['plan', dir, '--detailed-exitcode'], { env, cwd: base });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(plan.stdout).toContain('No changes.');
    } finally {
      child.kill('SIGKILL');
      await stopped;
      await service.close();
    }
  }, 120_000);

  it('with --retry-budget 0 a stopped service fails the run fast, with no outage line', async () => {
    const service = await start();
    const url = service.url;
    await service.close();
    const r = await edgeops(['plan', writePolicySet(base, 'stopped', 2), '--retry-budget', '0'], { env: { EDGEOPS_API_URL: url, EDGEOPS_API_KEY: API_KEY }, cwd: base });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot connect to http:\/\/127\.0\.0\.1:\d+: connection refused/);
    expect(r.stderr).not.toContain('service unreachable');
  });

  it('a plan against a closed port (nothing ever answered) exits 1 within 10 s with the default budget, the failure printed once', async () => {
    const service = await start();
    const url = service.url;
    await service.close();
    const dir = writePolicySet(base, 'never', 2);
    // Three runs at once, as three CI jobs might start against a service that is down.
    const runs = await Promise.all([0, 1, 2].map(async () => {
      const started = Date.now();
      const r = await edgeops(['plan', dir], { env: { EDGEOPS_API_URL: url, EDGEOPS_API_KEY: API_KEY }, cwd: base });
      return { r, elapsed: Date.now() - started };
    }));
    for (const { r, elapsed } of runs) {
      expect(r.code, r.stderr).toBe(1);
      expect(elapsed, r.stderr).toBeLessThan(10_000);
      // One line: the URL, the cause, why it gave up so soon, and the option for restarts.
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(/^edgeops: cannot connect to http:\/\/127\.0\.0\.1:\d+: connection refused; .*the service has not answered once in this run \(--retry-budget, 60 s, /);
      expect(r.stdout).toBe('');
    }
  }, 60_000);
});
