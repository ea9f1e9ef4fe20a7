// The merge of a pull request over several stacks when not everything goes well, run as processes against the
// real service and a stand-in GitHub with real git history: a stack whose live state moved since the review is
// stale and skips the stack after it; a pull request deleting a stack root says what it leaves unmanaged and
// deletes nothing; a stack whose apply fails skips its dependent and opens its issue, which the next successful
// apply closes; a cancelled job stops the stack in flight and starts no other.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/client/http.ts';
import { api, serviceForFile } from '../helpers/service.ts';
import { holdStackLock } from '../helpers/stack-lock.ts';
import { gitHubForFile, push, runAction, type Doc } from './harness.ts';
import { applyFirstCommit, backends as backendsOf, ok, PARTNERS, PROD, pullRequestOf, STAGING, stacksRepo } from './stacks-repo.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
const MARKER = '<!-- edgeops-stacks-plan -->';
const backends = (stack: string) => backendsOf(svc, stack);

const office: Doc = { kind: 'IPPolicy', name: 'office', description: 'office networks' };
const web: Doc = { kind: 'TunnelGroupBackend', name: 'web', description: 'web tier', labels: { app: 'web' } };
const api2: Doc = { kind: 'TunnelGroupBackend', name: 'api', description: 'api tier', labels: { app: 'api' } };

/** In front of the service for one stack: while `failing`, every create of a backend is refused with a 400. */
let proxy: Server;
let proxyUrl = '';
let failing = false;
beforeAll(async () => {
  proxy = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (failing && req.method === 'POST' && req.url?.startsWith('/backends/tunnel_group')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error_code: 'ERR_INVALID_BODY', status_code: 400, msg: 'refused by the test proxy', details: {} }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'service-version', 'content-type', 'if-match']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = await request(`${svc.url}${req.url}`, { method: req.method as 'GET', headers, body: body === '' ? undefined : body });
    const text = await upstream.body.text();
    res.writeHead(upstream.statusCode, { 'content-type': 'application/json' });
    res.end(text);
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => proxy?.close(done));
});

async function policyOf(stack: string): Promise<{ id: string }> {
  const all = (await api(svc).listAll('/ip_policies', 'ip_policies')) as { id: string; metadata?: string }[];
  return all.find((p) => (p.metadata ?? '').includes(`"stack":"${stack}"`))!;
}

describe('a merge over several stacks', () => {
  it('a stale stack skips its dependent (on-stale: replan applies it fresh); a removed stack root is reported and nothing of it deleted', async () => {
    const repo = stacksRepo('mr');
    const inputs = { path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey };
    const base = await applyFirstCommit(repo, [office, web], inputs, gh);
    const { staging, prod, partners } = repo.names;
    repo.docs(STAGING, [office, web, api2]);
    repo.docs(PROD, [office, web, api2]);
    repo.remove(PARTNERS);
    const head = repo.commit('api in staging and prod; partners retired from the repository');

    const plan = await runAction({ event: pullRequestOf(61, base, head), inputs, cwd: repo.dir, github: gh });
    ok(plan);
    const body = gh.comments(61).find((c) => c.body.startsWith(MARKER))!.body;
    expect(body).toContain(`| \`${partners}\` (\`${PARTNERS}\`) | — | **removed**: stack ${partners} was removed from the repository; its 2 live resources stay unmanaged | — |`);
    expect(plan.stdout).toContain(`::warning::stack ${partners} was removed from the repository; its 2 live resources stay unmanaged`);
    expect(JSON.parse(plan.outputs.stacks!).stacks.find((x: { dir: string }) => x.dir === PARTNERS)).toMatchObject({ stack: partners, removed: true, changed: true });

    // Staging's live state moves after the review: its plan is no longer the reviewed one.
    expect((await api(svc).patch(`/ip_policies/${(await policyOf(staging)).id}`, { description: 'edited in the console' })).status).toBe(200);
    gh.mergePull(61, head, head);
    const merge = await runAction({ event: push('main', head), inputs, cwd: repo.dir, github: gh });
    expect(merge.code).toBe(1);
    expect(merge.stdout).not.toContain('$ edgeops apply');
    expect(merge.stdout).toMatch(new RegExp(`^::error::stack ${staging}: not applied: the plan now differs from the one reviewed on pull request #61 \\(on-stale: fail\\)`, 'm'));
    const result = gh.comments(61).find((c) => c.body.startsWith('### edgeops apply on merge'))!.body;
    expect(result).toContain('### edgeops apply on merge: 1 stale, 1 skipped');
    expect(result).toContain(`| \`${staging}\` (\`${STAGING}\`) | staging | ⚠️ stale | not applied: the plan now differs from the one reviewed on pull request #61 |`);
    expect(result).toContain(`| \`${prod}\` (\`${PROD}\`) | production | ⏭️ skipped | skipped: ${staging} is stale |`);
    expect(result).toMatch(new RegExp(`run the workflow by hand \\(workflow_dispatch\\) with \`path: ${STAGING}\` and \`checksum: sha256:[0-9a-f]{64}\``));
    expect(result).not.toContain(partners);
    expect(await backends(staging)).toEqual(['web tier']);
    expect(await backends(prod)).toEqual(['web tier']);
    // The removed stack keeps its live resources.
    expect(await backends(partners)).toEqual(['web tier']);
    expect(merge.outputs.summary).toBe(`Apply of 2 stacks: ${staging} stale, ${prod} skipped.`);

    // Re-run with on-stale: replan: staging's fresh plan is applied (and says so), then prod's reviewed one.
    const replan = await runAction({ event: push('main', head), inputs: { ...inputs, 'on-stale': 'replan' }, cwd: repo.dir, github: gh });
    ok(replan);
    expect(replan.stdout).toMatch(new RegExp(`^::warning::stack ${staging}: applying a fresh plan, not a reviewed one \\(on-stale: replan\\)`, 'm'));
    const second = gh.comments(61).filter((c) => c.body.startsWith('### edgeops apply on merge')).at(-1)!.body;
    expect(second).toContain(`| \`${staging}\` (\`${STAGING}\`) | staging | ✅ applied | Apply complete: 1 created, 1 updated, 0 replaced, 0 deleted; a fresh plan (on-stale: replan; the plan now differs from the one reviewed on pull request #61) |`);
    expect(second).toContain(`| \`${prod}\` (\`${PROD}\`) | production | ✅ applied | Apply complete: 1 created, 0 updated, 0 replaced, 0 deleted; the plan reviewed on pull request #61 |`);
    expect(await backends(staging)).toEqual(['api tier', 'web tier']);
    expect(await backends(prod)).toEqual(['api tier', 'web tier']);
  }, 300_000);

  it('a failed stack skips its dependent and opens its issue; the next successful apply closes it', async () => {
    // Staging talks to the service through the proxy (its edgeops.yaml's api_url); the others directly.
    const repo = stacksRepo('mf', { [STAGING]: `api_url: ${proxyUrl}\n`, [PROD]: `api_url: ${svc.url}\n`, [PARTNERS]: `api_url: ${svc.url}\n` });
    const inputs = { path: 'infra', 'api-key': svc.apiKey };
    const base = await applyFirstCommit(repo, [office], inputs, gh);
    const { staging, prod } = repo.names;
    repo.docs(STAGING, [office, web]);
    repo.docs(PROD, [office, web]);
    const head = repo.commit('web in staging and prod');
    ok(await runAction({ event: pullRequestOf(71, base, head), inputs, cwd: repo.dir, github: gh }));

    failing = true;
    gh.mergePull(71, head, head);
    const merge = await runAction({ event: push('main', head), inputs, cwd: repo.dir, github: gh });
    failing = false;
    expect(merge.code).toBe(1);
    expect(merge.stdout).toContain(`$ edgeops apply ${STAGING} --checksum sha256:`);
    expect(merge.stdout).not.toContain(`$ edgeops apply ${PROD}`);
    expect(merge.stdout).toMatch(new RegExp(`^::error::stack ${staging}: apply failed: 1 action failed`, 'm'));
    const result = gh.comments(71).find((c) => c.body.startsWith('### edgeops apply on merge'))!.body;
    expect(result).toContain(`| \`${staging}\` (\`${STAGING}\`) | staging | ❌ failed | 1 action failed; 0 created, 0 updated, 0 replaced, 0 deleted. |`);
    expect(result).toContain(`| \`${prod}\` (\`${PROD}\`) | production | ⏭️ skipped | skipped: ${staging} failed |`);
    expect(await backends(prod)).toEqual([]);

    // The stack's issue: the drift issue's title and labels, saying the apply failed after #71, with the line to apply the rest.
    const issues = gh.issues().filter((i) => i.title === `Drift on edgeops stack ${staging} (environment staging)`);
    expect(issues).toHaveLength(1);
    const issue = issues[0]!;
    expect(issue.state).toBe('open');
    expect(issue.labels.map((l) => l.name)).toEqual(['edgeops-drift']);
    expect(issue.body).toContain(`The apply of stack \`${staging}\` (\`${STAGING}\`) failed after #71`);
    expect(issue.body).toContain('refused by the test proxy');
    const left = new RegExp(`workflow_dispatch\\) with \`path: ${STAGING}\` and \`checksum: (sha256:[0-9a-f]{64})\``).exec(issue.body)![1]!;
    expect(issue.body.startsWith(`<!-- edgeops-drift:${staging} -->`)).toBe(true);

    // The line in the issue applies what is left: a run over that one stack root, as a workflow_dispatch.
    const dispatch = { name: 'workflow_dispatch', payload: { inputs: {}, repository: { default_branch: 'main' } }, ref: 'refs/heads/main', sha: head };
    const byHand = await runAction({ event: dispatch, inputs: { ...inputs, path: STAGING, checksum: left }, cwd: repo.dir, github: gh });
    ok(byHand);
    expect(await backends(staging)).toEqual(['web tier']);

    // The next merge applies prod and finds staging in sync: the issue is closed.
    repo.write('NOTES.md', 'staging was applied by hand\n');
    const next = repo.commit('a note outside every stack');
    ok(await runAction({ event: pullRequestOf(72, head, next), inputs: { ...inputs, stacks: 'all' }, cwd: repo.dir, github: gh }));
    gh.mergePull(72, next, next);
    const again = await runAction({ event: push('main', next), inputs, cwd: repo.dir, github: gh });
    ok(again);
    expect(await backends(prod)).toEqual(['web tier']);
    expect(issue.state).toBe('closed');
    expect(gh.comments(issue.number).at(-1)!.body).toContain(`Stack \`${staging}\` was applied successfully by the merge of #72`);
  }, 300_000);

  it('a cancelled job stops the stack in flight and starts none after it', async () => {
    const repo = stacksRepo('mc');
    const inputs = { path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey };
    const base = await applyFirstCommit(repo, [office], inputs, gh);
    const { staging, prod } = repo.names;
    repo.docs(STAGING, [office, web]);
    repo.docs(PROD, [office, web]);
    const head = repo.commit('web in staging and prod');
    ok(await runAction({ event: pullRequestOf(91, base, head), inputs, cwd: repo.dir, github: gh }));
    gh.mergePull(91, head, head);

    // Staging's apply waits for its lock, held elsewhere, when the runner cancels the job.
    const client = createApi({ url: svc.url, apiKey: svc.apiKey });
    const held = await holdStackLock(client, staging, { holder: 'another apply' });
    try {
      const run = await runAction({ event: push('main', head), inputs, cwd: repo.dir, github: gh, signalWhen: { text: `for the lock of stack "${staging}"`, signal: 'SIGINT' } });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('SIGINT: stopping before any action started');
      expect(run.stdout).not.toContain(`$ edgeops apply ${PROD}`);
      const result = gh.comments(91).find((c) => c.body.startsWith('### edgeops apply on merge'))!.body;
      expect(result).toContain(`| \`${staging}\` (\`${STAGING}\`) | staging | ❌ failed |`);
      expect(result).toContain(`| \`${prod}\` (\`${PROD}\`) | production | ⏭️ skipped | skipped: ${staging} failed |`);
      expect(await backends(staging)).toEqual([]);
      expect(await backends(prod)).toEqual([]);
    } finally {
      await held.release();
      await client.close();
    }
  }, 300_000);
});
