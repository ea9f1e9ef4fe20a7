// Inputs, the event, the runner's files and the comment lookup, as units.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPlanComment, findPlanComment } from '../../src/action/comment.ts';
import { GitHubClient } from '../../src/action/github.ts';
import { readGitHubContext, readInputs } from '../../src/action/inputs.ts';
import { createRunner } from '../../src/action/runner.ts';
import { runStack, type Session } from '../../src/action/session.ts';
import { COMMENT_LIMIT } from '../../src/action/truncate.ts';
import { startGitHubStub } from './github-stub.ts';
import { parseOutputs } from './harness.ts';

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-action-unit-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('inputs and event', () => {
  it('derives the command from the event', () => {
    const repo = { repository: { default_branch: 'trunk' } };
    const derived = (eventName: string, ref: string, env: NodeJS.ProcessEnv = {}) => {
      const inputs = readInputs(env, { eventName, event: repo, repository: 'o/r', ref, sha: 's', apiUrl: 'https://api', headSha: 's' });
      expect(inputs.derived).toBe(true);
      return inputs.command;
    };
    expect(derived('pull_request', 'refs/pull/1/merge')).toBe('plan');
    expect(derived('pull_request_target', 'refs/heads/trunk')).toBe('plan');
    expect(derived('push', 'refs/heads/trunk')).toBe('apply');
    expect(derived('push', 'refs/heads/main')).toBe('plan');
    expect(derived('push', 'refs/tags/v1')).toBe('plan');
    expect(derived('schedule', 'refs/heads/trunk')).toBe('drift');
    expect(derived('workflow_dispatch', 'refs/heads/trunk')).toBe('plan');
    expect(derived('workflow_dispatch', 'refs/heads/trunk', { INPUT_CHECKSUM: `sha256:${'a'.repeat(64)}` })).toBe('apply');
  });

  it('reads the pull request, the API base and the inputs', () => {
    const dir = temp();
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ number: 12, pull_request: { number: 12, head: { sha: 'cafe'.repeat(10) } } }));
    const env = {
      GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event, GITHUB_REPOSITORY: 'o/r', GITHUB_SHA: 'merge',
      GITHUB_API_URL: 'https://ghe.example/api/v3/', GITHUB_SERVER_URL: 'https://ghe.example', GITHUB_RUN_ID: '9',
      INPUT_PATH: 'infra/a\n  infra/b ', INPUT_COMMENT: 'False', INPUT_FAIL_ON_DRIFT: 'TRUE', INPUT_API_KEY: ' k-123 ',
    };
    const github = readGitHubContext(env);
    expect(github).toMatchObject({ pullNumber: 12, headSha: 'cafe'.repeat(10), apiUrl: 'https://ghe.example/api/v3', runUrl: 'https://ghe.example/o/r/actions/runs/9' });
    expect(readInputs(env, github)).toMatchObject({ command: 'plan', derived: true, paths: ['infra/a', 'infra/b'], comment: false, failOnDrift: true, apiKey: 'k-123', stack: undefined });
    expect(() => readInputs({ ...env, INPUT_COMMENT: 'yes' }, github)).toThrow('input comment must be true or false, got "yes"');
    expect(() => readInputs({ ...env, INPUT_COMMAND: 'destroy' }, github)).toThrow(/input command must be one of plan, apply, drift/);
    expect(readInputs({ ...env, INPUT_PATH: '' }, github).paths).toEqual(['.']);
  });

  it('takes against for plan and drift, and refuses it for apply', () => {
    const pr = { eventName: 'pull_request', event: {}, repository: 'o/r', ref: 'refs/pull/1/merge', sha: 's', apiUrl: 'https://api', headSha: 's' };
    expect(readInputs({ INPUT_AGAINST: ' snap/live.json ' }, pr)).toMatchObject({ command: 'plan', against: 'snap/live.json' });
    expect(readInputs({ INPUT_AGAINST: 'live.json', INPUT_COMMAND: 'drift' }, pr)).toMatchObject({ command: 'drift', against: 'live.json' });
    expect(readInputs({}, pr).against).toBeUndefined();
    expect(() => readInputs({ INPUT_AGAINST: 'live.json', INPUT_COMMAND: 'apply' }, pr)).toThrow(
      'input against plans from a snapshot, which apply cannot use: it changes the live service. Use against with plan or drift');
    const merge = { ...pr, eventName: 'push', ref: 'refs/heads/main', event: { repository: { default_branch: 'main' } } };
    expect(() => readInputs({ INPUT_AGAINST: 'live.json' }, merge)).toThrow('(apply follows from the push event on refs/heads/main)');
  });
});

describe('the stack of a run', () => {
  it('is resolved as the CLI does: input > EDGEOPS_STACK > edgeops.yaml > "default"', () => {
    const dir = temp();
    mkdirSync(join(dir, 'infra'));
    writeFileSync(join(dir, 'infra', 'edgeops.yaml'), 'stack: from-file\n');
    // A manifest the CLI would reject: the stack does not depend on the manifests being valid.
    writeFileSync(join(dir, 'infra', 'bad.yaml'), 'kind: Nope\n');
    const pr = { eventName: 'pull_request', event: {}, repository: 'o/r', ref: 'refs/pull/1/merge', sha: 's', apiUrl: 'https://api', headSha: 's' };
    const stackOf = (env: NodeJS.ProcessEnv) => {
      const inputs = readInputs(env, pr);
      return runStack({ env, inputs, cwd: dir } as Session);
    };
    expect(stackOf({ INPUT_PATH: 'infra' })).toBe('from-file');
    expect(stackOf({ INPUT_PATH: 'infra', EDGEOPS_STACK: 'from-env' })).toBe('from-env');
    expect(stackOf({ INPUT_PATH: 'infra', EDGEOPS_STACK: 'from-env', INPUT_STACK: 'from-input' })).toBe('from-input');
    expect(stackOf({ INPUT_PATH: '.' })).toBe('default');
    expect(stackOf({ INPUT_PATH: 'infra', EDGEOPS_STACK: 'Not_Valid' })).toBe('default');
  });

  it('reads adopt and allow-deletes as booleans, false by default', () => {
    const pr = { eventName: 'pull_request', event: {}, repository: 'o/r', ref: 'refs/pull/1/merge', sha: 's', apiUrl: 'https://api', headSha: 's' };
    expect(readInputs({}, pr)).toMatchObject({ adopt: false, allowDeletes: false });
    expect(readInputs({ INPUT_ADOPT: 'true', INPUT_ALLOW_DELETES: 'True' }, pr)).toMatchObject({ adopt: true, allowDeletes: true });
    expect(() => readInputs({ INPUT_ALLOW_DELETES: 'yes' }, pr)).toThrow('input allow-deletes must be true or false, got "yes"');
  });

  it('reads the review, comment and drift inputs with their defaults', () => {
    const ctx = (eventName: string) => ({ eventName, event: {}, repository: 'o/r', ref: 'refs/heads/main', sha: 's', apiUrl: 'https://api', headSha: 's' });
    expect(readInputs({}, ctx('push'))).toMatchObject({
      onStale: 'fail', commentFailure: 'fail', failOnDrift: true, driftIssue: false, driftIssueLabels: ['edgeops-drift'], checksum: undefined,
    });
    expect(readInputs({}, ctx('schedule'))).toMatchObject({ command: 'drift', driftIssue: true });
    expect(readInputs({ INPUT_DRIFT_ISSUE: 'false' }, ctx('schedule'))).toMatchObject({ driftIssue: false });
    expect(readInputs({ INPUT_DRIFT_ISSUE_LABELS: 'drift, ops\ninfra' }, ctx('schedule')).driftIssueLabels).toEqual(['drift', 'ops', 'infra']);
    expect(readInputs({ INPUT_DRIFT_ISSUE_LABELS: '' }, ctx('schedule')).driftIssueLabels).toEqual([]);
    expect(readInputs({ INPUT_ON_STALE: 'replan', INPUT_COMMENT_FAILURE: 'warn' }, ctx('push'))).toMatchObject({ onStale: 'replan', commentFailure: 'warn' });
    expect(() => readInputs({ INPUT_ON_STALE: 'apply' }, ctx('push'))).toThrow('input on-stale must be one of fail, replan, got "apply"');
    expect(readInputs({}, ctx('pull_request')).stacks).toBe('changed');
    expect(readInputs({ INPUT_STACKS: 'all' }, ctx('pull_request')).stacks).toBe('all');
    expect(() => readInputs({ INPUT_STACKS: 'some' }, ctx('pull_request'))).toThrow('input stacks must be one of changed, all, got "some"');
    const checksum = `sha256:${'0123456789abcdef'.repeat(4)}`;
    expect(readInputs({ INPUT_CHECKSUM: checksum }, ctx('workflow_dispatch'))).toMatchObject({ command: 'apply', checksum });
    expect(() => readInputs({ INPUT_CHECKSUM: 'sha256:abc' }, ctx('workflow_dispatch'))).toThrow('input checksum must be a plan checksum');
  });
});

describe('runner files and commands', () => {
  it('writes outputs in the heredoc form and scrubs registered secrets everywhere', () => {
    const dir = temp();
    const env = { GITHUB_OUTPUT: join(dir, 'out'), GITHUB_STEP_SUMMARY: join(dir, 'sum') };
    writeFileSync(env.GITHUB_OUTPUT, '');
    const log: string[] = [];
    const runner = createRunner(env, (t) => void log.push(t));
    runner.mask('s3cr3t-value');
    runner.mask('ab');
    runner.setOutput('summary', 'one line with s3cr3t-value');
    runner.setOutput('multi', 'a\nb=c\nd');
    runner.appendSummary('# report s3cr3t-value');
    runner.warning('50% done\nsecond line s3cr3t-value');
    expect(parseOutputs(readFileSync(env.GITHUB_OUTPUT, 'utf8'))).toEqual({ summary: 'one line with ***', multi: 'a\nb=c\nd' });
    expect(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')).toBe('# report ***\n');
    expect(log).toEqual(['::add-mask::s3cr3t-value\n', '::warning::50%25 done%0Asecond line ***\n']);
  });
});

describe('comment lookup and size', () => {
  const bot = { login: 'github-actions[bot]', type: 'Bot' };
  it('finds the comment that starts with the marker, the bot\'s first', () => {
    const comments = [
      { id: 1, body: '> <!-- edgeops-plan:prod -->\n> quoted', user: { login: 'a', type: 'User' } },
      { id: 2, body: '<!-- edgeops-plan:staging -->\nplan', user: bot },
      { id: 3, body: '<!-- edgeops-plan:prod -->\nby hand', user: { login: 'a', type: 'User' } },
      { id: 4, body: '<!-- edgeops-plan:prod -->\nplan', user: bot },
    ];
    expect(findPlanComment(comments, 'prod')?.id).toBe(4);
    expect(findPlanComment(comments, 'staging')?.id).toBe(2);
    expect(findPlanComment(comments.slice(0, 3), 'prod')?.id).toBe(3);
    expect(findPlanComment(comments, 'dev')).toBeUndefined();
  });

  it('fits the whole body, delta and fingerprint included, under the limit', () => {
    const blocks = Array.from({ length: 3000 }, (_, i) => `+ IPPolicy/p-${i}\n+     description: "policy number ${i}"`).join('\n\n');
    const plan = `### edgeops plan for stack \`s\`\n\n\`\`\`diff\n${blocks}\n\`\`\`\n\nPlan: 3000 to create, 0 to update, 0 to replace, 0 to delete.\n`;
    const { body, truncated } = buildPlanComment({
      stack: 's', planMarkdown: plan, deltaMarkdown: `#### Since\n\n${'- **added** `IPPolicy/x`: create\n'.repeat(50)}`,
      footer: 'edgeops plan', stateLine: `<!-- edgeops-plan-state:${'A'.repeat(19_000)} -->`,
    });
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body.startsWith('<!-- edgeops-plan:s -->\n### edgeops plan')).toBe(true);
    expect(body.endsWith(' -->\n')).toBe(true);
    expect(truncated.omitted).toBeGreaterThan(0);
  });

  it('follows only a rel="next" link', async () => {
    // The stub's pages hold 2 items and link as GitHub does: pages after the first also link back (prev, first).
    // Five comments are three pages, each fetched once; a commit with no pull requests is one page, no Link.
    const gh = await startGitHubStub('o/r');
    try {
      const seeded = [1, 2, 3, 4, 5].map((n) => gh.seed(1, `comment ${n}`).id);
      const client = new GitHubClient({ apiUrl: gh.apiUrl, token: gh.token, repository: 'o/r' });
      expect((await client.listIssueComments(1)).map((c) => c.id)).toEqual(seeded);
      const pages = (path: string) => gh.requests.filter((r) => r.method === 'GET' && r.path.includes(path)).map((r) => new URL(r.path, 'http://x').searchParams.get('page') ?? '1');
      expect(pages('/issues/1/comments')).toEqual(['1', '2', '3']);
      expect(await client.pullsOfCommit('abc')).toEqual([]);
      expect(pages('/commits/abc/pulls')).toEqual(['1']);
    } finally {
      await gh.close();
    }
  });
});
