// Ctrl-C, as a user presses it, to the real bin.
// - In the middle of a large apply (300 resources, half of them depending on the other half, the default
//   concurrency): no new action starts, those in flight finish, the summary names what never started, exit 1;
//   a rerun creates exactly the rest and converges, with one live resource per document.
// - Between the two halves of a replace (the signal arrives while the replacement's POST is in flight): the old
//   resource still goes once the new one is made, nothing else starts, and one live resource is left per document.
// - While the plan is being made (lists slowed down by the service's latency fault): the run ends at once with
//   exit 1, says so, changes nothing and releases the stack's lock.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { api as http, startTestService, type TestService } from '../helpers/service.ts';
import { policySetState, writePolicySet } from '../helpers/policy-set.ts';
import { startRoundRobinProxy } from '../support/round-robin-proxy.ts';
import { ROOT, cleanEnv, edgeops } from './run.ts';

const POLICIES = 150;
const base = mkdtempSync(join(tmpdir(), 'edgeops-interrupt-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Starts `edgeops apply DIR --auto-approve`; `onOutput` sees the whole stdout and stderr so far, and may interrupt. */
function startApply(svc: Pick<TestService, 'url' | 'apiKey'>, dir: string, onOutput: (stdout: string, stderr: string, interrupt: () => void) => void, args: string[] = []) {
  const env = cleanEnv({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey });
  const child = spawn(process.execPath, [join(ROOT, 'bin/edgeops.js'), 'apply', dir, '--auto-approve', ...args], { cwd: ROOT, env, stdio: 'pipe' });
  const out = { stdout: '', stderr: '', sent: false };
  const interrupt = () => {
    if (out.sent) return;
    out.sent = true;
    child.kill('SIGINT');
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out.stdout += d;
    onOutput(out.stdout, out.stderr, interrupt);
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    out.stderr += d;
  });
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { out, closed, interrupt };
}

describe('interrupting an apply', () => {
  it('in the middle of 300 creates: stops starting actions, names what never started, and a rerun converges', async () => {
    // A little latency on writes, so the apply takes long enough to be interrupted half-way.
    const svc = await startTestService({ faults: 'POST.latency=10' });
    try {
      const dir = writePolicySet(base, 'large', POLICIES);
      const total = POLICIES * 2;
      const run = startApply(svc, dir, (stdout, _stderr, interrupt) => {
        if ((stdout.match(/^created /gm)?.length ?? 0) >= total / 3) interrupt();
      });
      const { code } = await run.closed;
      const { stdout, stderr } = run.out;

      expect(code, stderr).toBe(1);
      expect(stderr).toContain('SIGINT: starting no new actions');
      expect(stderr).toContain('edgeops: apply interrupted');
      const created = stdout.match(/^created IP(Policy|PolicyRule)\//gm)?.length ?? 0;
      // Interrupted in the middle: well after the first creates, well before the last.
      expect(created).toBeGreaterThanOrEqual(total / 3);
      expect(created).toBeLessThan(total - 50);
      expect(stdout).toContain(`Apply failed: interrupted; ${created} created, 0 updated, 0 replaced, 0 deleted.`);
      const notStarted = total - created;
      const summary = stdout.slice(stdout.indexOf('Apply failed:')).split('\n');
      expect(summary[1]).toBe(`  not started: ${notStarted} actions`);
      // The first 20 by name, then a count of the rest; each named one is really missing.
      const named = summary.slice(2, 22);
      expect(named.every((l) => /^ {4}create IP(Policy|PolicyRule)\/p-\d{3}(-r)?$/.test(l)), named.join('\n')).toBe(true);
      expect(summary[22]).toBe(`    and ${notStarted - 20} more`);
      expect(stdout).not.toContain('  skipped:');
      const after = await policySetState(svc);
      expect(after.locks).toBe(0);
      expect(Object.values(after.copies).every((n) => n === 1)).toBe(true);
      expect(Object.keys(after.copies)).toHaveLength(created);
      for (const line of named) expect(after.copies[line.trim().slice('create '.length)]).toBeUndefined();

      const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey };
      const rerun = await edgeops(['apply', dir, '--auto-approve'], { env });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stdout).toContain(`Apply complete: ${notStarted} created, 0 updated, 0 replaced, 0 deleted.`);
      const final = await policySetState(svc);
      expect(Object.keys(final.copies)).toHaveLength(total);
      expect(Object.entries(final.copies).filter(([, n]) => n !== 1)).toEqual([]);
      expect((await edgeops(['plan', dir, '--detailed-exitcode'], { env })).code).toBe(0);
    } finally {
      await svc.close();
    }
  }, 60_000);

  it('between the two halves of a replace: the old one still goes, nothing new starts, one live resource per document', async () => {
    const svc = await startTestService();
    // The signal is sent while the replacement rule's POST is held at the proxy, then the POST goes on.
    let run: ReturnType<typeof startApply> | undefined;
    let held = false;
    const proxy = await startRoundRobinProxy([svc.url], {
      hold: (method, path) => {
        if (held || method !== 'POST' || path !== '/ip_policy_rules' || !run) return undefined;
        held = true;
        run.interrupt();
        return new Promise((resolve) => setTimeout(resolve, 500));
      },
    });
    try {
      const write = (name: string, docs: object[]): string => {
        const dir = join(base, name);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'all.yaml'), docs.map((d) => stringify(d)).join('---\n'));
        return dir;
      };
      const office = { kind: 'IPPolicy', name: 'office' };
      const rule = (action: string) => ({ kind: 'IPPolicyRule', name: 'v4', ip_policy_id: 'office', cidr: '203.0.113.0/24', action });
      const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey };
      expect((await edgeops(['apply', write('halves-1', [office, rule('allow')]), '--auto-approve'], { env })).code).toBe(0);
      const [old] = (await http(svc).listAll('/ip_policy_rules', 'ip_policy_rules')) as { id: string }[];
      // One action at a time: the new rule x waits behind the replace, and never starts.
      const extra = { kind: 'IPPolicyRule', name: 'x', ip_policy_id: 'office', cidr: '198.51.100.0/24', action: 'allow' };
      run = startApply({ url: proxy.url, apiKey: svc.apiKey }, write('halves-2', [office, rule('deny'), extra]), () => undefined, ['--concurrency', '1']);
      const { code } = await run.closed;
      const { stdout, stderr } = run.out;

      expect(held).toBe(true);
      expect(code, stderr).toBe(1);
      expect(stderr).toContain('edgeops: apply interrupted');
      expect(stdout).toContain('Apply failed: interrupted; 0 created, 0 updated, 1 replaced, 0 deleted.');
      expect(stdout).toContain('    create IPPolicyRule/x');
      expect(stdout).not.toContain('kept:');
      const rules = (await http(svc).listAll('/ip_policy_rules', 'ip_policy_rules')) as { id: string; action: string; metadata: string }[];
      expect(rules.map((r) => [parseMetadata(r.metadata).marker?.name, r.action])).toEqual([['IPPolicyRule/v4', 'deny']]);
      expect(rules[0]!.id).not.toBe(old!.id);
    } finally {
      await proxy.close();
      await svc.close();
    }
  }, 60_000);

  it('while planning: ends at once with exit 1, changes nothing, and releases the lock', async () => {
    // Every GET takes a second: taking the lock lists once, and planning lists every kind.
    const svc = await startTestService({ faults: 'GET.latency=1000' });
    try {
      const dir = writePolicySet(base, 'planning', 5);
      const run = startApply(svc, dir, () => undefined);
      // Once the lock record exists (the apply has it, or is about to), the apply is planning for seconds.
      const client = http(svc);
      const hasLock = async () => ((await client.listAll('/ip_policies', 'ip_policies')) as { metadata?: string }[])
        .some((i) => parseMetadata(i.metadata).marker?.name === 'Lock/default');
      while (!(await hasLock())) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const interruptedAt = Date.now();
      run.interrupt();
      const { code, signal } = await run.closed;
      const { stdout, stderr } = run.out;

      expect({ code, signal }, stderr).toEqual({ code: 1, signal: null });
      expect(Date.now() - interruptedAt).toBeLessThan(5000);
      expect(stderr).toContain('SIGINT: stopping before any action started');
      expect(stderr).not.toContain('waiting for those in flight');
      expect(stderr, stderr).toMatch(/edgeops: apply interrupted (while planning|while taking the lock)|edgeops: interrupted while taking the lock/);
      expect(stderr).toContain('nothing was changed');
      expect(stdout).not.toContain('Apply');
      expect(await policySetState(svc)).toEqual({ copies: {}, locks: 0 });
    } finally {
      await svc.close();
    }
  }, 60_000);
});
