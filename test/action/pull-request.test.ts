// The action on pull_request events, run as a process against the real service and a stand-in GitHub: one
// comment created, then updated in place with the plan-to-plan difference; failures and read-only tokens.
import { describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { readMermaid } from '../cli/graph-parsers.ts';
import { expectSecretAbsent, gitHubForFile, pullRequest, runAction, workspace, type Doc } from './harness.ts';

const MARKER = '<!-- edgeops-plan:pr-stack -->';

const v1: Doc[] = [
  { kind: 'IPPolicy', name: 'office', description: 'office networks' },
  { kind: 'IPPolicyRule', name: 'office-v4', description: 'office v4', ip_policy_id: 'office', cidr: '203.0.113.0/24', action: 'allow' },
  { kind: 'IPPolicyRule', name: 'office-v6', description: 'office v6', ip_policy_id: 'office', cidr: '2001:db8::/48', action: 'allow' },
  { kind: 'TunnelGroupBackend', name: 'web', description: 'web tier', labels: { app: 'web' } },
];
// The second push: one rule's description changed, one rule dropped, one backend added.
const v2: Doc[] = [
  v1[0]!,
  { ...v1[1]!, description: 'office v4, renumbered' },
  v1[3]!,
  { kind: 'TunnelGroupBackend', name: 'api', labels: { app: 'api' } },
];

const SHA1 = '1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const SHA2 = '2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const SHA3 = '3333333ccccccccccccccccccccccccccccccccc';

const { svc } = serviceForFile();
const gh = gitHubForFile();

const inputs = () => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey });
const planComments = (issue: number) => gh.comments(issue).filter((c) => c.body.startsWith(MARKER));

/** The comment's folded dependency diagram: its summary line, and the Mermaid block read by a Mermaid parser. */
function diagramOf(body: string): { summary: string; graph: ReturnType<typeof readMermaid>; at: number } {
  const m = /<details><summary>(Dependency diagram[^<]*)<\/summary>\n\n```mermaid\n([\s\S]*?)```\n\n<\/details>/.exec(body);
  expect(m, body).not.toBeNull();
  return { summary: m![1]!, graph: readMermaid(m![2]!), at: m!.index };
}

describe('pull_request: the plan comment', () => {
  it('creates one comment, then updates it with what changed since the previous push', async () => {
    const ws = workspace('pr-stack');
    const issue = 7;
    // Others' comments around it, one quoting the marker: the list spans pages and the quote is not ours.
    gh.seed(issue, 'LGTM');
    gh.seed(issue, `> ${MARKER}\n> quoting the bot`);
    gh.seed(issue, 'please also add the api backend');
    try {
      ws.write(v1);
      const first = await runAction({ event: pullRequest(issue, SHA1), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(planComments(issue)).toHaveLength(1);
      const created = planComments(issue)[0]!;
      expect(created.user.type).toBe('Bot');
      expect(created.body).toContain('### edgeops plan for stack `pr-stack`');
      expect(created.body).toContain('+ IPPolicyRule/office-v6');
      expect(created.body).toContain('Plan: 4 to create, 0 to update, 0 to replace, 0 to delete.');
      expect(created.body).not.toContain('Since the previous plan');
      expect(created.body).toMatch(/<!-- edgeops-plan-state:[A-Za-z0-9+/=]+ -->/);
      // The diagram of what the plan changes, folded under the plan.
      const diagram = diagramOf(created.body);
      expect(diagram.at).toBeGreaterThan(created.body.indexOf('Plan: 4 to create'));
      expect(diagram.summary).toBe('Dependency diagram: 4 changed resources and what they touch (4 in all)');
      expect(Object.fromEntries([...diagram.graph.nodes].map(([a, n]) => [a, n.marked]))).toEqual({
        'IPPolicy/office': 'create', 'IPPolicyRule/office-v4': 'create', 'IPPolicyRule/office-v6': 'create', 'TunnelGroupBackend/web': 'create',
      });
      expect(diagram.graph.edges).toEqual([
        'IPPolicyRule/office-v4 -> IPPolicy/office (ip_policy_id)',
        'IPPolicyRule/office-v6 -> IPPolicy/office (ip_policy_id)',
      ]);
      expect(gh.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      // The list was followed past its first page (4 comments, 2 per page).
      expect(gh.requests.filter((r) => r.method === 'GET' && r.path.includes('page=2')).length).toBeGreaterThan(0);

      expect(first.outputs['has-changes']).toBe('true');
      expect(first.outputs.summary).toBe('Plan for stack pr-stack: 4 to create, 0 to update, 0 to replace, 0 to delete.');
      const planFile = first.outputs['plan-json']!;
      expect(planFile).toMatch(/edgeops-plan-pr-stack\.json$/);
      const json = JSON.parse(first.tempFiles['edgeops-plan-pr-stack.json']!);
      expect(json.format_version).toBe(2);
      expect(json.resources.map((r: { address: string }) => r.address).sort()).toEqual(
        ['IPPolicy/office', 'IPPolicyRule/office-v4', 'IPPolicyRule/office-v6', 'TunnelGroupBackend/web']);
      expect(first.summary).toContain('### edgeops plan for stack `pr-stack`');
      expectSecretAbsent(first, svc.apiKey, gh);

      ws.write(v2);
      const second = await runAction({ event: pullRequest(issue, SHA2), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(planComments(issue)).toHaveLength(1);
      const updated = planComments(issue)[0]!;
      expect(updated.id).toBe(created.id);
      expect(gh.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      expect(gh.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
      expect(updated.body).toContain('+ TunnelGroupBackend/api');
      expect(updated.body).not.toContain('+ IPPolicyRule/office-v6');
      // Nothing was applied: the second plan creates its four resources, and the dropped rule is gone from the diagram.
      const touched = diagramOf(updated.body);
      expect(touched.summary).toBe('Dependency diagram: 4 changed resources and what they touch (4 in all)');
      expect(Object.fromEntries([...touched.graph.nodes].map(([a, n]) => [a, n.marked]))).toEqual({
        'IPPolicy/office': 'create', 'IPPolicyRule/office-v4': 'create', 'TunnelGroupBackend/api': 'create', 'TunnelGroupBackend/web': 'create',
      });
      expect(touched.graph.edges).toEqual(['IPPolicyRule/office-v4 -> IPPolicy/office (ip_policy_id)']);
      // The difference sits under the full plan.
      const delta = updated.body.slice(updated.body.indexOf('#### Since the previous plan (`1111111`)'));
      expect(updated.body.indexOf('#### Since the previous plan')).toBeGreaterThan(updated.body.indexOf('Plan: 4 to create'));
      expect(delta).toContain('1 added, 1 no longer planned, 1 changed.');
      expect(delta).toContain('- **added** `TunnelGroupBackend/api`: create');
      expect(delta).toContain('- **no longer planned** `IPPolicyRule/office-v6` (was create)');
      expect(delta).toContain('- **changed** `IPPolicyRule/office-v4`: create; `description` (different value)');
      expect(delta).not.toContain('TunnelGroupBackend/web');
      expect(second.summary).toContain('#### Since the previous plan');
      expectSecretAbsent(second, svc.apiKey, gh);

      // The same plan again: the comment says so instead of listing anything.
      const third = await runAction({ event: pullRequest(issue, SHA3), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(third.code).toBe(0);
      expect(planComments(issue)).toHaveLength(1);
      expect(planComments(issue)[0]!.body).toContain('#### Since the previous plan (`2222222`)\n\nNo difference');
    } finally {
      ws.dispose();
    }
  }, 180_000);

  it('a failed plan replaces the comment with the error and keeps the last good plan to compare with', async () => {
    const ws = workspace('pr-stack');
    const issue = 8;
    try {
      ws.write(v1);
      const good = await runAction({ event: pullRequest(issue, SHA1), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(good.code).toBe(0);

      const badKey = 'wrong-key-0123456789abcdef';
      const failed = await runAction({ event: pullRequest(issue, SHA2), inputs: { ...inputs(), 'api-key': badKey }, cwd: ws.dir, github: gh });
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/^::error::edgeops plan failed: /m);
      expect(failed.outputs.summary).toMatch(/^edgeops plan failed: /);
      expect(failed.summary).toContain('### edgeops plan for stack `pr-stack` failed');
      expect(planComments(issue)).toHaveLength(1);
      const body = planComments(issue)[0]!.body;
      expect(body).toContain('### edgeops plan for stack `pr-stack` failed');
      expect(body).toContain('401');
      expect(body).not.toContain('+ IPPolicy/office');
      expectSecretAbsent(failed, badKey, gh);

      ws.write(v2);
      const again = await runAction({ event: pullRequest(issue, SHA3), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(again.code).toBe(0);
      expect(planComments(issue)).toHaveLength(1);
      expect(planComments(issue)[0]!.body).toContain('#### Since the previous plan (`1111111`)');
      expect(planComments(issue)[0]!.body).toContain('- **added** `TunnelGroupBackend/api`: create');
    } finally {
      ws.dispose();
    }
  }, 180_000);

  it("a first plan that fails goes to the comment of edgeops.yaml's stack, which the fixed plan then updates", async () => {
    // No stack input, no EDGEOPS_STACK, no earlier comment: only edgeops.yaml names the stack.
    const ws = workspace('from-file');
    const issue = 11;
    const mine = () => gh.comments(issue).filter((c) => c.body.startsWith('<!-- edgeops-plan:'));
    try {
      ws.write([{ kind: 'IPPolicyRule', name: 'orphan', ip_policy_id: 'no-such-policy', cidr: '10.0.0.0/8', action: 'allow' }]);
      const failed = await runAction({ event: pullRequest(issue, SHA1), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(failed.code).toBe(1);
      expect(mine()).toHaveLength(1);
      expect(mine()[0]!.body.startsWith('<!-- edgeops-plan:from-file -->\n')).toBe(true);
      expect(mine()[0]!.body).toContain('### edgeops plan for stack `from-file` failed');
      expect(mine()[0]!.body).toContain('no-such-policy');
      expect(failed.summary).toContain('### edgeops plan for stack `from-file` failed');

      ws.write(v1);
      const fixed = await runAction({ event: pullRequest(issue, SHA2), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
      expect(mine()).toHaveLength(1);
      expect(mine()[0]!.body).toContain('### edgeops plan for stack `from-file`');
      expect(mine()[0]!.body).toContain('+ IPPolicy/office');
      expect(mine()[0]!.body).not.toContain('failed');
    } finally {
      ws.dispose();
    }
  }, 180_000);

  it('the stack input outranks edgeops.yaml for a failure, as --stack does for the CLI', async () => {
    const ws = workspace('from-file');
    const issue = 12;
    try {
      ws.write([{ kind: 'IPPolicyRule', name: 'orphan', ip_policy_id: 'no-such-policy', cidr: '10.0.0.0/8', action: 'allow' }]);
      const run = await runAction({ event: pullRequest(issue, SHA1), inputs: { ...inputs(), stack: 'from-input' }, cwd: ws.dir, github: gh });
      expect(run.code).toBe(1);
      expect(gh.comments(issue).map((c) => c.body.split('\n')[0])).toEqual(['<!-- edgeops-plan:from-input -->']);
    } finally {
      ws.dispose();
    }
  }, 180_000);

  it('comment: false posts nothing; the plan still reaches the outputs and the job summary', async () => {
    const ws = workspace('pr-stack');
    const before = gh.requests.length;
    try {
      ws.write(v1);
      const run = await runAction({ event: pullRequest(9, SHA1), inputs: { ...inputs(), comment: 'false' }, cwd: ws.dir, github: gh });
      expect(run.code).toBe(0);
      expect(gh.requests.length).toBe(before);
      expect(run.outputs['has-changes']).toBe('true');
      expect(run.summary).toContain('+ TunnelGroupBackend/web');
    } finally {
      ws.dispose();
    }
  }, 180_000);

  it('a read-only token (a fork) fails the job by default, naming the permission; comment-failure: warn keeps it green', async () => {
    const ws = workspace('pr-stack');
    gh.failWrites = 403;
    try {
      ws.write(v1);
      const failing = await runAction({ event: pullRequest(10, SHA1), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(failing.code).toBe(1);
      expect(failing.stdout).toMatch(/^::error::the plan was not posted on pull request #10 \(GitHub API create comment: 403 [^\n]*permissions: pull-requests: write/m);
      expect(failing.summary).toContain('+ TunnelGroupBackend/web');

      const run = await runAction({ event: pullRequest(10, SHA1), inputs: { ...inputs(), 'comment-failure': 'warn' }, cwd: ws.dir, github: gh });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^::warning::the plan was not posted on pull request #10 \(GitHub API create comment: 403 /m);
      expect(gh.comments(10)).toHaveLength(0);
      expect(run.summary).toContain('+ TunnelGroupBackend/web');
    } finally {
      gh.failWrites = undefined;
      ws.dispose();
    }
  }, 180_000);
});
