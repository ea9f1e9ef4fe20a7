// Delete safety through the real CLI against the real service: plan shows the threshold status and exits 0;
// apply (and apply --plan) refuses a plan over max_deletes or a per-kind limit, naming the count and the limit,
// and deletes nothing; --allow-deletes lets it through.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { api, startTestService, type TestService } from '../helpers/service.ts';
import { edgeops, type RunResult } from './run.ts';

let svc: TestService;
const base = mkdtempSync(join(tmpdir(), 'edgeops-deletes-'));
const dir = join(base, 'infra');
const POLICIES = Array.from({ length: 12 }, (_, i) => `p${i}`);
const RULES = ['r1', 'r2', 'r3'];

/** The manifests with the given policies (besides `office`) and rules of `office`. */
function write(policies: string[], rules: string[]): void {
  const docs = [
    ['kind: IPPolicy', 'name: office'],
    ...policies.map((p) => ['kind: IPPolicy', `name: ${p}`]),
    ...rules.map((r) => ['kind: IPPolicyRule', `name: ${r}`, 'ip_policy_id: office', `cidr: 10.0.${RULES.indexOf(r)}.0/24`, 'action: allow']),
  ];
  writeFileSync(join(dir, 'all.yaml'), `${docs.map((d) => d.join('\n')).join('\n---\n')}\n`);
}

const run = (args: string[]): Promise<RunResult> => edgeops(args, { env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey } });

async function managedCount(path: string, key: string): Promise<number> {
  const items = (await api(svc).listAll(path, key)) as { metadata?: string }[];
  return items.filter((i) => parseMetadata(i.metadata).marker?.stack === 'deletes').length;
}

async function applyAll(): Promise<void> {
  write(POLICIES, RULES);
  const r = await run(['apply', dir, '--auto-approve']);
  expect(r.code, r.stderr).toBe(0);
  expect(await managedCount('/ip_policies', 'ip_policies')).toBe(13);
}

beforeAll(async () => {
  svc = await startTestService();
  mkdirSync(dir);
  writeFileSync(join(dir, 'edgeops.yaml'), 'stack: deletes\nmax_deletes_per_kind: {IPPolicyRule: 1}\n');
  await applyAll();
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('max_deletes (default 10)', () => {
  it('plan informs, apply and apply --plan refuse without --allow-deletes, and --allow-deletes passes', async () => {
    write(POLICIES.slice(0, 1), RULES);
    const plan = await run(['plan', dir, '--out', join(base, 'over.json')]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 11 to delete.');
    expect(plan.stdout).toContain('Warning: This plan deletes 11 resources, more than max_deletes (10); apply refuses it without --allow-deletes.');
    expect(plan.stdout).not.toContain('within the limits');

    const refused = await run(['apply', dir, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to apply this plan: it deletes 11 resources, more than max_deletes (10)');
    expect(refused.stderr).toContain('--allow-deletes');
    const saved = await run(['apply', '--plan', join(base, 'over.json')]);
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain('it deletes 11 resources, more than max_deletes (10)');
    expect(await managedCount('/ip_policies', 'ip_policies')).toBe(13);

    const allowed = await run(['apply', '--plan', join(base, 'over.json'), '--allow-deletes']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await managedCount('/ip_policies', 'ip_policies')).toBe(2);
  });

  it('apply --allow-deletes passes a plain apply over the limit too', async () => {
    await applyAll();
    write([], RULES);
    const allowed = await run(['apply', dir, '--auto-approve', '--allow-deletes']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await managedCount('/ip_policies', 'ip_policies')).toBe(1);
  });
});

describe('max_deletes_per_kind', () => {
  it('refuses a plan over a per-kind limit even within max_deletes, and passes one within it', async () => {
    write([], ['r3']);
    const plan = await run(['plan', dir]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Warning: This plan deletes 2 IPPolicyRule resources, more than max_deletes_per_kind.IPPolicyRule (1); apply refuses it without --allow-deletes.');
    const refused = await run(['apply', dir, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('it deletes 2 IPPolicyRule resources, more than max_deletes_per_kind.IPPolicyRule (1)');
    expect(await managedCount('/ip_policy_rules', 'ip_policy_rules')).toBe(3);

    write([], ['r2', 'r3']);
    const within = await run(['plan', dir]);
    expect(within.stdout).toContain('Deletes: 1 of max 10 (IPPolicyRule 1 of max 1), within the limits.');
    const ok = await run(['apply', dir, '--auto-approve']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(await managedCount('/ip_policy_rules', 'ip_policy_rules')).toBe(2);
  });
});
