// A comment you can trust, through the whole action against the real service and a stand-in GitHub: a 502 is
// retried and the one comment is still updated; GitHub failing past the retries fails the job saying the
// comment is stale (not blaming permissions); a plan too large for a comment keeps its deletes.
import { describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { gitHubForFile, pullRequest, push, runAction, workspace, type Doc } from './harness.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
const inputs = (extra: Record<string, string> = {}) => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, ...extra });
const backend = (name: string, description = `backend ${name}`): Doc => ({ kind: 'TunnelGroupBackend', name, description, labels: { app: name } });
const mine = (issue: number, stack: string) => gh.comments(issue).filter((c) => c.body.startsWith(`<!-- edgeops-plan:${stack} -->`));

describe('the plan comment', () => {
  it('a 502 on listing, then on updating the comment, is retried and the one comment is updated', async () => {
    const ws = workspace('retry');
    try {
      ws.write([backend('a')]);
      expect((await runAction({ event: pullRequest(31, '1'.repeat(40)), inputs: inputs(), cwd: ws.dir, github: gh })).code).toBe(0);
      const [first] = mine(31, 'retry');

      ws.write([backend('a'), backend('b')]);
      gh.failNext('GET', /\/issues\/31\/comments$/, 502);
      gh.failNext('PATCH', /\/issues\/comments\/\d+$/, 502);
      const run = await runAction({ event: pullRequest(31, '2'.repeat(40)), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).not.toContain('::warning::');
      expect(run.stdout).not.toContain('::error::');
      const listed = gh.requests.filter((r) => r.method === 'GET' && r.path.includes('/issues/31/comments'));
      const patched = gh.requests.filter((r) => r.method === 'PATCH');
      expect(listed.length).toBeGreaterThanOrEqual(2);
      expect(patched).toHaveLength(2);
      expect(mine(31, 'retry')).toHaveLength(1);
      expect(mine(31, 'retry')[0]!.id).toBe(first!.id);
      expect(mine(31, 'retry')[0]!.body).toContain('+ TunnelGroupBackend/b');
      expect(gh.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      // Every request, retries included, pins the REST API version.
      expect(gh.requests.length).toBeGreaterThan(0);
      expect(new Set(gh.requests.map((r) => r.apiVersion))).toEqual(new Set(['2022-11-28']));
    } finally {
      ws.dispose();
    }
  }, 300_000);

  it('a GitHub that keeps failing fails the job saying the comment is stale, without blaming permissions', async () => {
    const ws = workspace('stale');
    try {
      ws.write([backend('a')]);
      expect((await runAction({ event: pullRequest(32, '3'.repeat(40)), inputs: inputs(), cwd: ws.dir, github: gh })).code).toBe(0);
      ws.write([backend('a'), backend('c')]);
      gh.failNext('PATCH', /\/issues\/comments\/\d+$/, 503, 10);
      const before = gh.requests.length;
      const run = await runAction({ event: pullRequest(32, '4'.repeat(40)), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^::error::the plan comment on pull request #32 is stale: it still shows the plan for `3333333`, not this one \(GitHub API update comment: 503 [^)]*\)\. GitHub did not answer after retries\./m);
      expect(run.stdout).not.toContain('permissions');
      // Four tries: the first and three retries.
      expect(gh.requests.slice(before).filter((r) => r.method === 'PATCH' && r.path.includes('/issues/comments/'))).toHaveLength(4);
      expect(mine(32, 'stale')[0]!.body).not.toContain('TunnelGroupBackend/c');
      expect(run.summary).toContain('+ TunnelGroupBackend/c');
    } finally {
      gh.failNext('PATCH', /$^/, 0, 0);
      ws.dispose();
    }
  }, 300_000);

  it('a plan too large for the comment keeps its deletes and says what was left out', async () => {
    const ws = workspace('deletes-first');
    try {
      // Two backends applied, then a change deleting them and creating 1,200 more.
      ws.write([backend('old-1'), backend('old-2')]);
      const setup = await runAction({ event: push('main'), inputs: inputs({ 'on-stale': 'replan' }), cwd: ws.dir });
      expect(setup.code, setup.stdout + setup.stderr).toBe(0);
      const many = Array.from({ length: 1200 }, (_, i) => backend(`new-${i}`, `backend number ${i} of the many added by this change`));
      ws.write(many);
      const run = await runAction({ event: pullRequest(33, '5'.repeat(40)), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const body = mine(33, 'deletes-first')[0]!.body;
      expect(body.length).toBeLessThanOrEqual(65_536);
      expect(body).toMatch(/^- TunnelGroupBackend\/old-1 {2}# bkdtg_/m);
      expect(body).toMatch(/^- TunnelGroupBackend\/old-2 {2}# bkdtg_/m);
      const shown = body.match(/^\+ TunnelGroupBackend\/new-\d+$/gm) ?? [];
      const left = 1200 - shown.length;
      expect(left).toBeGreaterThan(0);
      expect(body).toContain(`> **${left} of 1202 resources are not shown here** (${left.toLocaleString('en-US')} creates)`);
      expect(body).toContain('deletes and replaces are shown first, then updates, then creates');
      expect(body).toContain('| 1200 | 0 | 0 | 2 |');
    } finally {
      ws.dispose();
    }
  }, 300_000);
});
