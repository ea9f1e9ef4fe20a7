// Policies in the Action on pull requests, run as a process against the real service and the stand-in GitHub:
// the comment's policy section, annotations on the offending lines, a deny failing the check, and an exception
// the pull request adds counting only once an owner other than the author approved (the reviews API, a team
// owner through its membership); a committed exception the pull request does not touch counts as it is.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, serviceForFile } from '../helpers/service.ts';
import { gitHubForFile, push, runAction, schedule, workspace, type EventSpec, type Workspace } from './harness.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
const inputs = () => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey });

/** A pull request opened by `author`. */
const pullRequestBy = (number: number, author: string): EventSpec => ({
  name: 'pull_request',
  payload: { number, pull_request: { number, user: { login: author }, head: { sha: `${number}`.repeat(40).slice(0, 40), ref: 'feature' } }, repository: { default_branch: 'main' } },
  ref: `refs/pull/${number}/merge`,
  sha: `${number}`.repeat(40).slice(0, 40),
});

const POLICY = [
  'kind: Policy', 'name: no-world', 'severity: deny', 'owners: ["@acme/netsec"]', 'match: {kinds: [IPPolicyRule]}',
  'validations:', '  - expression: "object.action != \'allow\' || cidr(object.cidr).prefixLength() > 0"', '    message: allows every address', '',
  '---', 'kind: Policy', 'name: described', 'severity: warn', 'match: {kinds: [IPPolicy]}',
  'validations:', '  - expression: "has(object.description)"', '    message: has no description', '',
].join('\n');
const MANIFEST = [
  'kind: IPPolicy', 'name: office',
  '---', 'kind: IPPolicyRule', 'name: partner-any', 'ip_policy_id: office', 'cidr: 0.0.0.0/0', 'action: allow', '',
].join('\n');
const EXCEPTION = ['kind: PolicyException', 'name: partner', 'policy: no-world', 'targets: [IPPolicyRule/partner-any]', 'reason: partner without fixed egress (NET-412)', 'expires: 2099-03-31', ''].join('\n');

function policyWorkspace(stack: string, exception: boolean): Workspace {
  const ws = workspace(stack);
  writeFileSync(join(ws.dir, 'infra', 'edgeops.yaml'), `stack: ${stack}\npolicies: [../policies]\n`);
  writeFileSync(join(ws.dir, 'infra', 'all.yaml'), MANIFEST);
  mkdirSync(join(ws.dir, 'policies'));
  writeFileSync(join(ws.dir, 'policies', 'edge.yaml'), POLICY);
  if (exception) writeFileSync(join(ws.dir, 'policies', 'exception.yaml'), EXCEPTION);
  return ws;
}

const planComment = (issue: number, stack: string): string => gh.comments(issue).find((c) => c.body.startsWith(`<!-- edgeops-plan:${stack} -->`))!.body;
const lineOf = (ws: Workspace, text: string): number => readFileSync(join(ws.dir, 'infra', 'all.yaml'), 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

describe('policies in the Action', () => {
  it('a deny fails the check, with the policy section in the comment and annotations on the lines', async () => {
    const ws = policyWorkspace('pol-deny', false);
    try {
      const run = await runAction({ event: pullRequestBy(61, 'dev'), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code, run.stdout).toBe(1);
      const body = planComment(61, 'pol-deny');
      expect(body).toContain('Plan: 2 to create');
      expect(body).toContain('#### Policies: 1 deny, 1 warn');
      expect(body).toContain(`| deny | \`no-world\` | \`IPPolicyRule/partner-any\` | \`cidr\` | allows every address | \`infra/all.yaml:${lineOf(ws, 'cidr:')}\` | **blocks** |`);
      expect(body).toContain('| warn | `described` | `IPPolicy/office` |');
      // No checksum: a denied plan is nothing a merge could apply.
      expect(body).not.toContain('merging applies exactly this plan');
      expect(run.stdout).toContain(`::error file=infra/all.yaml,line=${lineOf(ws, 'cidr:')},col=7,title=edgeops policy no-world::deny no-world: IPPolicyRule/partner-any: cidr: allows every address\n`);
      expect(run.stdout).toContain('::warning file=infra/all.yaml,line=1,col=1,title=edgeops policy described::warn described: IPPolicy/office: description: has no description\n');
      expect(run.stdout).toContain('::error::edgeops plan: 1 deny, 1 warn: a policy denies this plan');
      expect(JSON.parse(run.tempFiles['edgeops-plan-pol-deny.json']!).policy).toHaveLength(2);
    } finally {
      ws.dispose();
    }
  });

  it('an exception the pull request adds awaits an owner\'s approval; the author\'s own does not count', async () => {
    const ws = policyWorkspace('pol-exception', true);
    const pr = 62;
    gh.setPullFiles(pr, ['policies/exception.yaml', 'infra/all.yaml']);
    gh.addTeamMember('acme', 'netsec', 'dev');
    try {
      const waiting = await runAction({ event: pullRequestBy(pr, 'dev'), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(waiting.code, waiting.stdout).toBe(1);
      expect(planComment(pr, 'pol-exception')).toContain('exception awaiting approval by @acme/netsec (`partner`)');
      expect(waiting.stdout).toContain('(exception partner awaiting approval by @acme/netsec)');

      // The author approving their own exception, even as a member of the owning team, changes nothing.
      gh.review(pr, 'dev', 'APPROVED');
      gh.review(pr, 'mallory', 'APPROVED');
      const self = await runAction({ event: pullRequestBy(pr, 'dev'), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(self.code).toBe(1);
      expect(planComment(pr, 'pol-exception')).toContain('exception awaiting approval by @acme/netsec');

      gh.addTeamMember('acme', 'netsec', 'carol');
      gh.review(pr, 'carol', 'APPROVED');
      const approved = await runAction({ event: pullRequestBy(pr, 'dev'), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(approved.code, approved.stdout).toBe(0);
      const body = planComment(pr, 'pol-exception');
      expect(body).not.toContain('awaiting approval');
      expect(body).toContain(`| \`cidr\` | allows every address | \`infra/all.yaml:${lineOf(ws, 'cidr:')}\` | exception \`partner\` |`);
      expect(body).toContain('> Exceptions used: partner');
      expect(body).toContain('merging applies exactly this plan');
      expect(approved.stdout).toContain(`::warning file=infra/all.yaml,line=${lineOf(ws, 'cidr:')},col=7,title=edgeops policy no-world::deny no-world: IPPolicyRule/partner-any: cidr: allows every address (exception partner)`);
    } finally {
      ws.dispose();
    }
  });

  it('a committed exception the pull request does not change counts without a review', async () => {
    const ws = policyWorkspace('pol-committed', true);
    gh.setPullFiles(63, ['infra/all.yaml']);
    try {
      const run = await runAction({ event: pullRequestBy(63, 'dev'), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code, run.stdout).toBe(0);
      expect(planComment(63, 'pol-committed')).toContain('exception `partner`');
    } finally {
      ws.dispose();
    }
  });

  it('a merge whose policy set differs from the reviewed one is stale and applies nothing', async () => {
    const ws = policyWorkspace('pol-merge', true);
    const pr = 64;
    gh.setPullFiles(pr, ['infra/all.yaml']);
    try {
      const planned = await runAction({ event: pullRequestBy(pr, 'dev'), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(planned.code, planned.stdout).toBe(0);
      expect(planComment(pr, 'pol-merge')).toContain('merging applies exactly this plan');
      // After the review, a policy changes on the main branch: the merge commit holds a policy set nobody reviewed.
      writeFileSync(join(ws.dir, 'policies', 'edge.yaml'), POLICY.replace('has no description', 'needs a description'));
      gh.mergePull(pr, 'e'.repeat(40), `${pr}`.repeat(40).slice(0, 40));
      const merged = await runAction({ event: push('main', 'e'.repeat(40)), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(merged.code).toBe(1);
      expect(merged.stdout).toContain('the plan now differs from the plan reviewed on pull request #64');
      expect(merged.stdout).toContain('live state, the manifests or their policies changed since the review. Nothing was applied.');
      const live = (await api(svc).listAll('/ip_policies', 'ip_policies')) as { metadata?: string }[];
      expect(live.filter((p) => (p.metadata ?? '').includes('"stack":"pol-merge"'))).toEqual([]);
    } finally {
      ws.dispose();
    }
  });

  it('drift on a schedule reports a hand-added world rule in a managed policy, in the job and the drift issue', async () => {
    const ws = workspace('pol-drift');
    writeFileSync(join(ws.dir, 'infra', 'edgeops.yaml'), 'stack: pol-drift\npolicies: [edgeops:baseline]\n');
    writeFileSync(join(ws.dir, 'infra', 'all.yaml'), ['kind: IPPolicy', 'name: office', 'description: office networks', '---', 'kind: IPPolicyRule', 'name: lan', 'ip_policy_id: office', 'cidr: 203.0.113.0/24', 'action: allow', ''].join('\n'));
    try {
      expect((await runAction({ event: push('main', 'f'.repeat(40)), inputs: { ...inputs(), 'on-stale': 'replan' }, cwd: ws.dir })).code).toBe(0);
      const office = ((await api(svc).listAll('/ip_policies', 'ip_policies')) as { id: string; metadata?: string }[]).find((p) => (p.metadata ?? '').includes('"stack":"pol-drift"'))!;
      const hand = await api(svc).post('/ip_policy_rules', { ip_policy_id: office.id, cidr: '0.0.0.0/0', action: 'allow' });
      expect(hand.status, hand.text).toBe(201);
      const run = await runAction({ event: schedule(), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code).toBe(1);
      expect(run.outputs.summary).toBe('Drift on stack pol-drift: 1 policy finding on live state.');
      const issue = gh.issues().find((i) => i.title === 'Drift on edgeops stack pol-drift')!;
      expect(issue.body).toContain(`| deny | \`no-world-allow\` | \`IPPolicyRule/${(hand.body as { id: string }).id}\` | \`cidr\` | allows 0.0.0.0/0 (every address) |`);
    } finally {
      ws.dispose();
    }
  });
});
