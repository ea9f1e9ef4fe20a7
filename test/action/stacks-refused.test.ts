// A path of several stacks that cannot run as such is refused before any call to the service, saying why: a
// manifest that belongs to no stack root, two roots naming one stack (annotated on its line), a stack named
// for all of them, and a pull request whose base is not in the checkout (a shallow clone); a merge whose
// reviewed plans cannot be looked up applies nothing.
import { describe, expect, it } from 'vitest';
import { gitHubForFile, push, runAction, type Doc } from './harness.ts';
import { PARTNERS, PROD, pullRequestOf, STAGING, stacksRepo } from './stacks-repo.ts';

const gh = gitHubForFile();
// Nothing listens here: a run that reached the service would fail differently.
const inputs = { path: 'infra', 'api-url': 'http://127.0.0.1:9', 'api-key': 'key-never-used-0123' };
const office: Doc = { kind: 'IPPolicy', name: 'office', description: 'office networks' };

function repoWithStacks(prefix: string) {
  const repo = stacksRepo(prefix);
  for (const root of [STAGING, PROD, PARTNERS]) repo.docs(root, [office]);
  return repo;
}

describe('a path of several stacks that cannot run', () => {
  it('refuses a manifest under no stack root', async () => {
    const repo = repoWithStacks('rl');
    repo.write('infra/common.yaml', 'kind: IPPolicy\nname: shared\n');
    const head = repo.commit('stacks and a stray manifest');
    const run = await runAction({ event: pullRequestOf(81, head, head), inputs, cwd: repo.dir, github: gh });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error::edgeops action: path holds 3 stack roots, and manifests that belong to none of them (no edgeops.yaml in or above their directory): infra/common.yaml;');
    expect(gh.comments(81)).toEqual([]);
  });

  it('refuses two stack roots naming one stack, annotated on the line that says it', async () => {
    const repo = repoWithStacks('rs');
    repo.write(`${PARTNERS}/edgeops.yaml`, `stack: ${repo.names.staging}\n`);
    const head = repo.commit('partners names the staging stack');
    const run = await runAction({ event: pullRequestOf(82, head, head), inputs, cwd: repo.dir, github: gh });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^::error file=(${STAGING}|${PARTNERS})/edgeops\\.yaml,line=1,col=\\d+,title=edgeops::stack: "${repo.names.staging}" is also the stack of `, 'm'));
    expect(run.stdout).toContain('::error::edgeops action: the stack roots under infra cannot run together: 1 problem in the manifests');
  });

  it('refuses a stack input, and a base commit the checkout does not have', async () => {
    const repo = repoWithStacks('rb');
    const head = repo.commit('three stacks');
    const named = await runAction({ event: pullRequestOf(83, head, head), inputs: { ...inputs, stack: 'one' }, cwd: repo.dir, github: gh });
    expect(named.code).toBe(1);
    expect(named.stdout).toContain('::error::edgeops action: input stack names one stack, but path holds 3 stack roots, each naming its own: leave stack empty');
    const shallow = await runAction({ event: pullRequestOf(84, 'f'.repeat(40), head), inputs, cwd: repo.dir, github: gh });
    expect(shallow.code).toBe(1);
    expect(shallow.stdout).toMatch(/^::error::edgeops action: cannot tell which stacks the pull request changes: .*Check out the whole history \(actions\/checkout with fetch-depth: 0\), or set stacks: all$/m);
  });

  it('applies nothing when the reviewed plans cannot be looked up, and says to re-run', async () => {
    const repo = repoWithStacks('ro');
    const head = repo.commit('three stacks');
    gh.failNext('GET', /\/commits\/[0-9a-f]+\/pulls$/, 404);
    const run = await runAction({ event: push('main', head), inputs, cwd: repo.dir, github: gh });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error::edgeops apply failed: cannot look up the reviewed plans, so nothing was applied: GitHub API list pull requests of the commit: 404 .*Re-run the job\.$/m);
    expect(run.stdout).not.toContain('$ edgeops');
  });
});
