// The plan reviewed on the pull request is the plan applied on merge, run as processes against the real service
// and a stand-in GitHub: the plan comment records the checksum; the push of the merge commit finds the merged
// pull request, applies with that checksum, and refuses (commenting the difference) when live state moved.
import { describe, expect, it } from 'vitest';
import { api, serviceForFile } from '../helpers/service.ts';
import { dispatch, expectSecretAbsent, gitHubForFile, pullRequest, push, runAction, workspace, type Doc } from './harness.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
const inputs = (extra: Record<string, string> = {}) => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, ...extra });

const base: Doc[] = [{ kind: 'IPPolicy', name: 'office', description: 'office networks' }];
const withBackend: Doc[] = [...base, { kind: 'TunnelGroupBackend', name: 'web', description: 'web tier', labels: { app: 'web' } }];

const REVIEWED = /<!-- edgeops-reviewed:(sha256:[0-9a-f]{64}) at ([0-9a-f]{40}) -->/;
const sha = (c: string) => c.repeat(40);

async function backends(stack: string): Promise<unknown[]> {
  const all = (await api(svc).listAll('/backends/tunnel_group', 'backends')) as { metadata?: string }[];
  return all.filter((b) => (b.metadata ?? '').includes(`"stack":"${stack}"`));
}

async function policy(stack: string): Promise<{ id: string; description?: string }> {
  const all = (await api(svc).listAll('/ip_policies', 'ip_policies')) as { id: string; description?: string; metadata?: string }[];
  return all.find((p) => (p.metadata ?? '').includes(`"stack":"${stack}"`))!;
}

/** The stack with `base` applied, then a pull request planning `withBackend`; returns the recorded checksum. */
async function reviewed(stack: string, pr: number, head: string) {
  const ws = workspace(stack);
  ws.write(base);
  const setup = await runAction({ event: push('main', sha('0')), inputs: inputs({ 'on-stale': 'replan' }), cwd: ws.dir });
  expect(setup.code, setup.stdout + setup.stderr).toBe(0);
  ws.write(withBackend);
  const plan = await runAction({ event: pullRequest(pr, head), inputs: inputs(), cwd: ws.dir, github: gh });
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  const comment = gh.comments(pr).find((c) => c.body.startsWith(`<!-- edgeops-plan:${stack} -->`))!;
  const [, checksum, at] = REVIEWED.exec(comment.body)!;
  expect(at).toBe(head);
  expect(comment.body).toContain(`Checksum: \`${checksum}\``);
  expect(comment.body).toContain('merging applies exactly this plan');
  return { ws, checksum: checksum! };
}

describe('review to apply', () => {
  it('the merge of a reviewed pull request applies exactly the reviewed plan', async () => {
    const { ws, checksum } = await reviewed('rv-ok', 21, sha('1'));
    try {
      gh.mergePull(21, sha('a'), sha('1'));
      const run = await runAction({ event: push('main', sha('a')), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(gh.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/commits/${sha('a')}/pulls?per_page=100`))).toBe(true);
      expect(run.stdout).toContain('This is the plan reviewed on pull request #21 at `1111111`; applying exactly it.');
      expect(run.stdout).toContain(`$ edgeops apply infra --checksum ${checksum}`);
      expect(run.outputs.summary).toBe('Apply complete: 1 created, 0 updated, 0 replaced, 0 deleted (stack rv-ok).');
      expect(run.summary).toContain('Applied the plan reviewed on pull request #21 at `1111111`.');
      expect(await backends('rv-ok')).toHaveLength(1);
      // Nothing more is said on the pull request when the reviewed plan was applied.
      expect(gh.comments(21)).toHaveLength(1);
      expectSecretAbsent(run, svc.apiKey, gh);
    } finally {
      ws.dispose();
    }
  }, 300_000);

  it('a merge after a live change applies nothing, comments the difference and fails; a dispatch with the new checksum applies', async () => {
    const { ws, checksum } = await reviewed('rv-stale', 22, sha('2'));
    try {
      const office = await policy('rv-stale');
      expect((await api(svc).patch(`/ip_policies/${office.id}`, { description: 'edited in the console' })).status).toBe(200);
      gh.mergePull(22, sha('b'), sha('2'));

      const run = await runAction({ event: push('main', sha('b')), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain('$ edgeops apply');
      expect(run.stdout).toMatch(/^::error::edgeops apply refused for stack rv-stale: the plan now differs from the plan reviewed on pull request #22 .*Nothing was applied\./m);
      expect(await backends('rv-stale')).toHaveLength(0);
      expect((await policy('rv-stale')).description).toBe('edited in the console');

      const notes = gh.comments(22).filter((c) => c.body.startsWith('### edgeops apply for stack `rv-stale` refused'));
      expect(notes).toHaveLength(1);
      const note = notes[0]!.body;
      expect(note).toContain('Nothing was applied for the merge `bbbbbbb`');
      expect(note).toContain('#### Since the reviewed plan (`2222222`)\n\n1 added, 0 no longer planned, 0 changed.');
      expect(note).toContain('- **added** `IPPolicy/office`: update');
      expect(note).toContain('edited in the console');
      const fresh = /`checksum: (sha256:[0-9a-f]{64})`/.exec(note)![1]!;
      expect(fresh).not.toBe(checksum);
      expect(run.summary).toContain('#### Since the reviewed plan');
      // The plan comment still shows what was reviewed.
      expect(gh.comments(22).filter((c) => c.body.startsWith('<!-- edgeops-plan:rv-stale -->'))[0]!.body).toContain(checksum);

      // workflow_dispatch with the reviewed (old) checksum refuses too; with the new one it applies.
      const old = await runAction({ event: dispatch(), inputs: inputs({ checksum }), cwd: ws.dir, github: gh });
      expect(old.code).toBe(1);
      expect(old.stdout).toContain('edgeops apply (from the workflow_dispatch event)');
      expect(old.stdout).toMatch(/^::error::edgeops apply refused for stack rv-stale: the plan now differs from the checksum input/m);
      const approved = await runAction({ event: dispatch(), inputs: inputs({ checksum: fresh }), cwd: ws.dir, github: gh });
      expect(approved.code, approved.stdout + approved.stderr).toBe(0);
      expect(approved.stdout).toContain(`$ edgeops apply infra --checksum ${fresh}`);
      expect(await backends('rv-stale')).toHaveLength(1);
      expect((await policy('rv-stale')).description).toBe('office networks');
    } finally {
      ws.dispose();
    }
  }, 300_000);

  it('on-stale: replan applies the fresh plan and says so in the job summary and on the pull request', async () => {
    const { ws } = await reviewed('rv-replan', 23, sha('3'));
    try {
      const office = await policy('rv-replan');
      expect((await api(svc).patch(`/ip_policies/${office.id}`, { description: 'edited in the console' })).status).toBe(200);
      gh.mergePull(23, sha('c'), sha('3'));

      const run = await runAction({ event: push('main', sha('c')), inputs: inputs({ 'on-stale': 'replan' }), cwd: ws.dir, github: gh });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^::warning::applying a fresh plan, not a reviewed one \(on-stale: replan\): the plan now differs from the plan reviewed on pull request #23/m);
      expect(run.summary).toContain('### edgeops applied a fresh plan for stack `rv-replan`, not the reviewed one');
      expect(run.summary).toContain('- **added** `IPPolicy/office`: update');
      expect(run.outputs.summary).toBe('Apply complete: 1 created, 1 updated, 0 replaced, 0 deleted (stack rv-replan).');
      expect(await backends('rv-replan')).toHaveLength(1);
      expect((await policy('rv-replan')).description).toBe('office networks');
      expect(gh.comments(23).filter((c) => c.body.startsWith('### edgeops applied a fresh plan'))).toHaveLength(1);
    } finally {
      ws.dispose();
    }
  }, 300_000);

  it('a push with no pull request follows on-stale: fail applies nothing', async () => {
    const ws = workspace('rv-direct');
    try {
      ws.write(withBackend);
      const run = await runAction({ event: push('main', sha('e')), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^::error::edgeops apply refused for stack rv-direct: there is no reviewed plan to hold the apply to: commit eeeeeee has no merged pull request/m);
      expect(await backends('rv-direct')).toHaveLength(0);
    } finally {
      ws.dispose();
    }
  }, 300_000);
});
