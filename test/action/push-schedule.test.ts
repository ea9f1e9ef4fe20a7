// The action on push and schedule events, run as a process against the real service: a push to the default
// branch applies (the service then has the resources), a push elsewhere only plans, and a schedule runs
// drift, failing the job when fail-on-drift is set and reporting to the job summary either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, serviceForFile } from '../helpers/service.ts';
import { expectSecretAbsent, push, runAction, schedule, workspace, type Doc, type Workspace } from './harness.ts';

const docs: Doc[] = [
  { kind: 'IPPolicy', name: 'office', description: 'office networks' },
  { kind: 'IPPolicyRule', name: 'office-v4', description: 'office v4', ip_policy_id: 'office', cidr: '203.0.113.0/24', action: 'allow' },
  { kind: 'TunnelGroupBackend', name: 'web', description: 'web tier', labels: { app: 'web' } },
];

const { svc } = serviceForFile();
let ws: Workspace;

beforeAll(() => {
  ws = workspace('ci-stack');
  ws.write(docs);
});
afterAll(() => {
  ws.dispose();
});

const inputs = (extra: Record<string, string> = {}) => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, ...extra });

async function policies(): Promise<{ id: string; description?: string }[]> {
  return (await api(svc).listAll('/ip_policies', 'ip_policies')) as { id: string; description?: string }[];
}

describe('push and schedule', () => {
  it('a push to another branch only plans', async () => {
    const run = await runAction({ event: push('feature'), inputs: inputs(), cwd: ws.dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('edgeops plan (from the push event)');
    expect(run.outputs['has-changes']).toBe('true');
    expect(await policies()).toEqual([]);
  });

  it('a push to the default branch without a reviewed plan applies a fresh one with on-stale: replan', async () => {
    const run = await runAction({ event: push('main'), inputs: inputs({ 'on-stale': 'replan' }), cwd: ws.dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('edgeops apply (from the push event)');
    expect(run.stdout).toContain('created IPPolicy/office');
    expect(run.outputs['has-changes']).toBe('true');
    expect(run.outputs.summary).toBe('Apply complete: 3 created, 0 updated, 0 replaced, 0 deleted (stack ci-stack).');
    expect(JSON.parse(run.tempFiles['edgeops-plan-ci-stack.json']!).summary).toEqual({ create: 3, update: 0, replace: 0, delete: 0 });
    expect(run.summary).toContain('### edgeops apply for stack `ci-stack`');
    expect(run.summary).toContain('Apply complete: 3 created');
    expectSecretAbsent(run, svc.apiKey);

    expect((await policies()).map((p) => p.description)).toEqual(['office networks']);
    expect(await api(svc).listAll('/ip_policy_rules', 'ip_policy_rules')).toHaveLength(1);
    expect(await api(svc).listAll('/backends/tunnel_group', 'backends')).toHaveLength(1);

    expect(run.stdout).toMatch(/^::warning::applying a fresh plan, not a reviewed one \(on-stale: replan\): there is no reviewed plan/m);
    expect(run.summary).toContain('### edgeops applied a fresh plan for stack `ci-stack`, not the reviewed one');

    // Nothing to apply: no reviewed plan is needed, whatever on-stale says.
    const again = await runAction({ event: push('main'), inputs: inputs(), cwd: ws.dir });
    expect(again.code).toBe(0);
    expect(again.outputs['has-changes']).toBe('false');
  });

  it('a schedule in sync reports no drift', async () => {
    const run = await runAction({ event: schedule(), inputs: inputs({ 'fail-on-drift': 'true' }), cwd: ws.dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('edgeops drift (from the schedule event)');
    expect(run.outputs['has-changes']).toBe('false');
    expect(run.outputs.summary).toBe('No drift on stack ci-stack: live state matches the manifests.');
    expect(run.summary).toContain('No drift');
  });

  it('drift made by hand fails the job (fail-on-drift defaults to true), and is a warning with fail-on-drift: false', async () => {
    const [policy] = await policies();
    const patched = await api(svc).patch(`/ip_policies/${policy!.id}`, { description: 'edited in the console' });
    expect(patched.status).toBe(200);

    const failing = await runAction({ event: schedule(), inputs: inputs(), cwd: ws.dir });
    expect(failing.code).not.toBe(0);
    expect(failing.stdout).toMatch(/^::error::Drift on stack ci-stack: 1 resource differs from the manifests\./m);
    expect(failing.outputs['has-changes']).toBe('true');
    expect(failing.outputs.summary).toBe('Drift on stack ci-stack: 1 resource differs from the manifests.');
    expect(failing.summary).toContain('IPPolicy/office');
    expect(failing.summary).toContain('edited in the console');
    expect(JSON.parse(failing.tempFiles['edgeops-plan-ci-stack.json']!).resources[0].action).toBe('update');
    expectSecretAbsent(failing, svc.apiKey);

    const warning = await runAction({ event: schedule(), inputs: inputs({ 'fail-on-drift': 'false' }), cwd: ws.dir });
    expect(warning.code).toBe(0);
    expect(warning.stdout).toMatch(/^::warning::Drift on stack ci-stack/m);
    expect(warning.summary).toContain('edited in the console');

    // Drift never writes: the hand edit is still there.
    expect((await policies())[0]!.description).toBe('edited in the console');
  });

  it('a failed apply fails the job and reports every failure', async () => {
    // A failure no plan can foresee: the service serves no event destinations, and no list shows which exist.
    // (A policy that a rule made by hand refers to is foreseen: deleting it is a plan error, test/e2e/attachments.test.ts.)
    const other = workspace('ci-fail');
    try {
      const keep: Doc = { kind: 'TunnelGroupBackend', name: 'keep', labels: { app: 'keep' } };
      other.write([keep]);
      const first = await runAction({ event: push('main'), inputs: inputs({ 'on-stale': 'replan' }), cwd: other.dir });
      expect(first.code, first.stdout + first.stderr).toBe(0);
      other.write([
        keep,
        { kind: 'TunnelGroupBackend', name: 'fine', labels: { app: 'fine' } },
        { kind: 'EventSubscription', name: 'hooks', description: 'delivered nowhere', destination_ids: [`ed_${'Z'.repeat(27)}`] },
      ]);
      const run = await runAction({ event: push('main'), inputs: inputs({ 'on-stale': 'replan' }), cwd: other.dir });
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^::error::edgeops apply failed: /m);
      expect(run.outputs.summary).toBe('edgeops apply failed: 1 action failed; 1 created, 0 updated, 0 replaced, 0 deleted.');
      expect(run.summary).toContain('### edgeops apply for stack `ci-fail` failed');
      expect(run.summary).toContain('EventSubscription/hooks');
      expect(run.summary).toContain('created TunnelGroupBackend/fine');
      expectSecretAbsent(run, svc.apiKey);
    } finally {
      other.dispose();
    }
  });

  it('an explicit command wins over the event', async () => {
    const run = await runAction({ event: schedule(), inputs: inputs({ command: 'apply', 'on-stale': 'replan' }), cwd: ws.dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^edgeops apply on infra$/m);
    expect((await policies())[0]!.description).toBe('office networks');

    const bad = await runAction({ event: schedule(), inputs: inputs({ command: 'destroy' }), cwd: ws.dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^::error::edgeops action: input command must be one of plan, apply, drift/m);
  });
});
