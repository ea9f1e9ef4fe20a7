// The service restarting in the middle of an apply: stopped for 3 s while an apply of 300 resources runs, then
// started again on the same SQLite file and port. The apply rides it out (connections refused and reset are
// retried within the retry budget, creates through their landed check): exit 0, no failed action, one live
// resource per document, one line on stderr for the outage, and the next plan shows no changes. With
// --retry-budget 0 the same outage fails the run fast instead.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/engine/ownership.ts';
import { startService, type RunningService } from '../../src/service/server.ts';
import { cleanEnv, edgeops, ROOT } from '../cli/run.ts';
import { api as http, tempDbFile } from '../helpers/service.ts';

const base = mkdtempSync(join(tmpdir(), 'edgeops-restart-'));
const db = tempDbFile();
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  db.cleanup();
});

const API_KEY = 'restart-key';
const POLICIES = 150;

function writeManifests(name: string, count: number): string {
  const dir = join(base, name);
  mkdirSync(dir);
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    const p = `p-${String(i).padStart(3, '0')}`;
    docs.push(`kind: IPPolicy\nname: ${p}\n`);
    docs.push(`kind: IPPolicyRule\nname: ${p}-r\nip_policy_id: ${p}\ncidr: 10.${Math.floor(i / 256)}.${i % 256}.0/24\naction: allow\n`);
  }
  writeFileSync(join(dir, 'all.yaml'), docs.join('---\n'));
  return dir;
}

const start = (port = 0): Promise<RunningService> =>
  startService({ host: '127.0.0.1', port, apiKeys: [API_KEY], dbFile: db.dbFile, quiet: true, faults: 'POST.latency=10' });

/** Live copies per managed address, and lock records. */
async function liveState(url: string): Promise<{ copies: Record<string, number>; locks: number }> {
  const client = http({ url, apiKey: API_KEY });
  const copies: Record<string, number> = {};
  let locks = 0;
  for (const [path, key] of [['/ip_policies', 'ip_policies'], ['/ip_policy_rules', 'ip_policy_rules']] as const) {
    for (const item of (await client.listAll(path, key)) as { metadata?: string }[]) {
      const name = parseMetadata(item.metadata).marker?.name;
      if (name?.startsWith('Lock/')) locks++;
      else if (name) copies[name] = (copies[name] ?? 0) + 1;
    }
  }
  return { copies, locks };
}

describe('the service restarting during an apply', () => {
  it('stopped for 3 s mid-apply of 300 resources and restarted on the same db: exit 0, nothing failed, nothing doubled', async () => {
    let service = await start();
    const url = service.url;
    const port = Number(new URL(url).port);
    const dir = writeManifests('restart', POLICIES);
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
      expect(stdout).not.toMatch(/fail/i);
      // One line for the outage, whatever the number of requests that met it, and one when it was over.
      expect(stderr.match(/^service unreachable \((ECONNREFUSED|ECONNRESET|EPIPE|UND_ERR_SOCKET)\), retrying for up to 5[0-9] s$/gm), stderr).toHaveLength(1);
      expect(stderr).toMatch(/^service reachable again after \d+ s$/m);
      const after = await liveState(url);
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
    const r = await edgeops(['plan', writeManifests('stopped', 2), '--retry-budget', '0'], { env: { EDGEOPS_API_URL: url, EDGEOPS_API_KEY: API_KEY }, cwd: base });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ECONNREFUSED/);
    expect(r.stderr).not.toContain('service unreachable');
  });
});
