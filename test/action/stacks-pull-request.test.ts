// The action over a repository of three stacks, run as a process against the real service and a stand-in GitHub
// with real git history: a pull request touching two stacks gets ONE comment (a table, a section per changed
// stack, the record of every checksum); its merge applies exactly those two, staging before prod, each with its
// own checksum; the other open pull request that planned staging gets a failing `edgeops/STACK` status, which
// its next plan clears. A stack with a bad manifest fails alone; a pull request touching no stack applies nothing.
import { describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { expectSecretAbsent, gitHubForFile, push, runAction, type Doc } from './harness.ts';
import { applyFirstCommit, backends as backendsOf, ok, PARTNERS, PROD, pullRequestOf, STAGING, stacksRepo } from './stacks-repo.ts';
import { extractStacksRecord } from '../../src/action/stack-record.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
const inputs = (extra: Record<string, string> = {}) => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, ...extra });
const MARKER = '<!-- edgeops-stacks-plan -->';

const office: Doc = { kind: 'IPPolicy', name: 'office', description: 'office networks' };
const web: Doc = { kind: 'TunnelGroupBackend', name: 'web', description: 'web tier', labels: { app: 'web' } };
const api2: Doc = { kind: 'TunnelGroupBackend', name: 'api', description: 'api tier', labels: { app: 'api' } };

const backends = (stack: string) => backendsOf(svc, stack);

describe('a pull request over several stacks', () => {
  it('the table has a policies column: each stack\'s results in a word, its section the lines', async () => {
    const repo = stacksRepo('mpol');
    const base = await applyFirstCommit(repo, [office, web], inputs(), gh);
    const { staging, prod } = repo.names;
    repo.write(`${PROD}/policy.yaml`, [
      'kind: Policy',
      'name: no-web-tier',
      'severity: warn',
      'match: {kinds: [TunnelGroupBackend]}',
      'validations:',
      '  - expression: "object.description != \'api tier\'"',
      '    message: the api tier belongs to staging',
      '',
    ].join('\n'));
    repo.docs(STAGING, [office, web, api2]);
    repo.docs(PROD, [office, web, api2]);
    const head = repo.commit('both gain api; prod warns about it');
    const plan = await runAction({ event: pullRequestOf(51, base, head), inputs: inputs(), cwd: repo.dir, github: gh });
    ok(plan);
    const body = gh.comments(51).find((c) => c.body.startsWith(MARKER))!.body;
    expect(body).toMatch(new RegExp(`\\| \`${prod}\` \\(\`${PROD}\`\\) \\| production \\| 1 to create \\| 1 warn \\| \`sha256:[0-9a-f]{12}…\` \\|`));
    expect(body).toMatch(new RegExp(`\\| \`${staging}\` \\(\`${STAGING}\`\\) \\| staging \\| 1 to create \\| — \\| \`sha256:[0-9a-f]{12}…\` \\|`));
    expect(body).toContain('the api tier belongs to staging');
  });

  it('one comment with the table; the merge applies both changed stacks in order; the other open pull request is marked stale', async () => {
    const repo = stacksRepo('ms');
    const base = await applyFirstCommit(repo, [office, web], inputs(), gh);
    for (const stack of Object.values(repo.names)) expect(await backends(stack)).toEqual(['web tier']);
    const { staging, prod, partners } = repo.names;
    // Staging gains a backend, prod loses one (a delete: its section is open); partners is untouched.
    repo.docs(STAGING, [office, web, api2]);
    repo.docs(PROD, [office]);
    const head = repo.commit('staging gains api, prod drops web');

    // Another pull request, open, planned at the same commit: it plans staging too.
    const otherHead = 'e'.repeat(40);
    gh.openPull(42, otherHead);
    ok(await runAction({ event: pullRequestOf(42, base, otherHead), inputs: inputs(), cwd: repo.dir, github: gh }));

    const plan = await runAction({ event: pullRequestOf(41, base, head), inputs: inputs(), cwd: repo.dir, github: gh });
    ok(plan);
    const comments = gh.comments(41).filter((c) => c.body.startsWith(MARKER));
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body).toContain('### edgeops plan: 2 stacks planned, 2 with changes');
    expect(body).toContain('| stack | environment | changes | policies | checksum |');
    expect(body).toMatch(new RegExp(`\\| \`${staging}\` \\(\`${STAGING}\`\\) \\| staging \\| 1 to create \\| — \\| \`sha256:[0-9a-f]{12}…\` \\|`));
    expect(body).toMatch(new RegExp(`\\| \`${prod}\` \\(\`${PROD}\`\\) \\| production \\| 1 to delete \\| — \\| \`sha256:[0-9a-f]{12}…\` \\|`));
    expect(body).toContain(`Not planned, none of their inputs changed: \`${partners}\` (\`${PARTNERS}\`).`);
    // A delete opens its stack's section; a create stays folded.
    expect(body).toContain(`<details open><summary><code>${prod}</code> (<code>${PROD}</code>): 1 to delete</summary>`);
    expect(body).toContain(`<details><summary><code>${staging}</code> (<code>${STAGING}</code>): 1 to create</summary>`);
    expect(body).toContain('+ TunnelGroupBackend/api');
    expect(body).toContain('- TunnelGroupBackend/web');
    const record = extractStacksRecord(body)!;
    expect(record.sha).toBe(head);
    expect(record.stacks.map((r) => [r.dir, r.stack])).toEqual([[PROD, prod], [STAGING, staging]]);
    for (const r of record.stacks) {
      expect(r.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(body).toContain(`Checksum: \`${r.checksum}\``);
    }
    // The outputs: the stacks run, has-changes, and the plans in the multi-stack shape.
    const stacks = JSON.parse(plan.outputs.stacks!) as { stacks: { dir: string; stack: string; changed: boolean; after: string[]; inputs: string[] }[] };
    expect(stacks.stacks.map((x) => [x.dir, x.changed, x.after])).toEqual([[PROD, true, [STAGING]], [STAGING, true, []]]);
    expect(stacks.stacks[1]!.inputs).toContain(`${STAGING}/all.yaml`);
    expect(plan.outputs['has-changes']).toBe('true');
    const json = JSON.parse(plan.tempFiles['edgeops-plan-stacks.json']!) as { format_version: number; stacks: { stack: string; dir: string; environment: string; checksum: string; plan: { stack: string; summary: unknown } }[] };
    expect(plan.outputs['plan-json']).toMatch(/edgeops-plan-stacks\.json$/);
    expect(json.stacks.map((x) => [x.stack, x.dir, x.environment, x.checksum, x.plan.stack])).toEqual(record.stacks.map((r) => [r.stack, r.dir, r.stack === prod ? 'production' : 'staging', r.checksum, r.stack]));
    expect(plan.summary).toContain('### edgeops plan: 2 stacks planned');
    expectSecretAbsent(plan, svc.apiKey, gh);

    // The merge applies exactly the two reviewed plans, staging first (prod applies after it).
    gh.mergePull(41, head, head);
    const merge = await runAction({ event: push('main', head), inputs: inputs(), cwd: repo.dir, github: gh });
    ok(merge);
    const checksum = (dir: string) => record.stacks.find((r) => r.dir === dir)!.checksum!;
    const stagingAt = merge.stdout.indexOf(`$ edgeops apply ${STAGING} --checksum ${checksum(STAGING)}`);
    const prodAt = merge.stdout.indexOf(`$ edgeops apply ${PROD} --checksum ${checksum(PROD)}`);
    expect(stagingAt).toBeGreaterThan(-1);
    expect(prodAt).toBeGreaterThan(stagingAt);
    expect(merge.stdout).not.toContain(`$ edgeops apply ${PARTNERS}`);
    expect(await backends(staging)).toEqual(['api tier', 'web tier']);
    expect(await backends(prod)).toEqual([]);
    expect(await backends(partners)).toEqual(['web tier']);
    const result = gh.comments(41).find((c) => c.body.startsWith('### edgeops apply on merge'))!;
    expect(result.body).toContain('### edgeops apply on merge: 2 applied');
    expect(result.body).toMatch(new RegExp(`\\| \`${staging}\` \\(\`${STAGING}\`\\) \\| staging \\| ✅ applied \\| Apply complete: 1 created`));
    expect(result.body).toMatch(new RegExp(`\\| \`${prod}\` \\(\`${PROD}\`\\) \\| production \\| ✅ applied \\| Apply complete: 0 created, 0 updated, 0 replaced, 1 deleted`));
    expect(merge.outputs.summary).toBe(`Apply of 2 stacks: ${staging} applied, ${prod} applied.`);
    expectSecretAbsent(merge, svc.apiKey, gh);

    // The other open pull request planned staging and prod: both plans are stale now.
    const statuses = gh.statuses(otherHead);
    expect(statuses.map((st) => [st.context, st.state])).toEqual(expect.arrayContaining([[`edgeops/${staging}`, 'failure'], [`edgeops/${prod}`, 'failure']]));
    expect(statuses.find((st) => st.context === `edgeops/${staging}`)!.description).toBe(`plan is stale: ${staging} was applied by #41; push or re-run to re-plan`);
    // A re-run of its plan sets them back to success.
    ok(await runAction({ event: pullRequestOf(42, base, otherHead), inputs: inputs(), cwd: repo.dir, github: gh }));
    const latest = new Map<string, string>();
    for (const st of gh.statuses(otherHead)) if (!latest.has(st.context)) latest.set(st.context, st.state);
    expect(latest.get(`edgeops/${staging}`)).toBe('success');
    expect(latest.get(`edgeops/${prod}`)).toBe('success');
    // Updated in place: still one plan comment on that pull request.
    expect(gh.comments(42).filter((c) => c.body.startsWith(MARKER))).toHaveLength(1);
  }, 300_000);

  it('a stack with a bad manifest fails alone, annotated on its line; a pull request touching no stack applies nothing', async () => {
    const repo = stacksRepo('mb');
    for (const root of [STAGING, PROD, PARTNERS]) repo.docs(root, [office]);
    const base = repo.commit('three stacks');
    const { staging, prod } = repo.names;
    repo.docs(STAGING, [office, { ...web, labels: 'not a map' }]);
    repo.docs(PROD, [office, web]);
    const head = repo.commit('a broken staging, a good prod');

    // Run from infra/ (working-directory): the stacks, their changes and the annotations are found all the same.
    const plan = await runAction({ event: pullRequestOf(43, base, head), inputs: inputs({ 'working-directory': 'infra', path: '.' }), cwd: repo.dir, github: gh });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toMatch(new RegExp(`^::error file=${STAGING}/all\\.yaml,line=\\d+,col=\\d+,title=edgeops::stack ${staging}: TunnelGroupBackend/web: `, 'm'));
    expect(plan.stdout).toMatch(new RegExp(`^::error::edgeops plan failed for stack ${staging}; the other stacks were planned`, 'm'));
    const body = gh.comments(43).find((c) => c.body.startsWith(MARKER))!.body;
    expect(body).toContain(`| \`${staging}\` (\`${STAGING}\`) | staging | **plan failed** | — |`);
    expect(body).toContain(`<details open><summary><code>${staging}</code> (<code>${STAGING}</code>): plan failed</summary>`);
    expect(body).toContain(`### edgeops plan for stack \`${staging}\` failed`);
    expect(body).toMatch(new RegExp(`\\| \`${prod}\` \\(\`${PROD}\`\\) \\| production \\| 2 to create \\| — \\| \`sha256:`));
    expect(extractStacksRecord(body)!.stacks.find((r) => r.stack === staging)).toEqual({ dir: STAGING, stack: staging, checksum: null, failed: true });
    // plan-json lists the failed stack as the CLI does: no plan, no checksum, its error with the problem's position.
    const json = JSON.parse(plan.tempFiles['edgeops-plan-stacks.json']!) as { stacks: { stack: string; checksum: string | null; plan: unknown; error?: { code: string; problems: { file: string; line: number }[] } }[] };
    expect(json.stacks.map((x) => [x.stack, x.plan === null, x.checksum === null])).toEqual([[prod, false, false], [staging, true, true]]);
    const failed = json.stacks.find((x) => x.stack === staging)!;
    expect(failed.error!.code).toBe('E_MANIFEST');
    // Relative to the working directory (infra), as the CLI run there writes it.
    expect(failed.error!.problems[0]!.file).toBe(`${STAGING.replace(/^infra\//, '')}/all.yaml`);
    expect(json.stacks.find((x) => x.stack === prod)!.error).toBeUndefined();

    // A pull request that changes no file of any stack: one comment saying so, and its merge applies nothing.
    repo.write('NOTES.md', 'nothing for edgeops\n');
    const notes = repo.commit('notes only');
    ok(await runAction({ event: pullRequestOf(44, head, notes), inputs: inputs(), cwd: repo.dir, github: gh }));
    expect(gh.comments(44).find((c) => c.body.startsWith(MARKER))!.body).toContain('### edgeops plan: no stack changed');
    gh.mergePull(44, notes, notes);
    const merge = await runAction({ event: push('main', notes), inputs: inputs(), cwd: repo.dir, github: gh });
    ok(merge);
    expect(merge.outputs.summary).toBe('Nothing to apply: pull request #44 planned no stack.');
    expect(merge.stdout).not.toContain('$ edgeops apply');
  }, 300_000);
});
