// A pull request that deletes a stack root is never silent about it, however many stack roots it leaves: in a
// repository of two stacks, deleting one leaves a single stack root below `path`, which still runs as a stack of
// the repository (under its own stack, not "default"), so the removed stack is warned about with the live
// resources it leaves unmanaged. The merge applies the remaining stack's reviewed plan and deletes nothing of the
// removed one. Run as processes against the real service, a stand-in GitHub and real git history.
import { describe, expect, it } from 'vitest';
import { extractStacksRecord } from '../../src/action/stack-record.ts';
import { serviceForFile } from '../helpers/service.ts';
import { expectSecretAbsent, gitHubForFile, push, runAction, type Doc } from './harness.ts';
import { applyFirstCommit, backends as backendsOf, ok, PARTNERS, PROD, pullRequestOf, STAGING, stacksRepo } from './stacks-repo.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
const inputs = () => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey });

const office: Doc = { kind: 'IPPolicy', name: 'office', description: 'office networks' };
const web: Doc = { kind: 'TunnelGroupBackend', name: 'web', description: 'web tier', labels: { app: 'web' } };
const api2: Doc = { kind: 'TunnelGroupBackend', name: 'api', description: 'api tier', labels: { app: 'api' } };
const backends = (stack: string) => backendsOf(svc, stack);

describe('a pull request removing a stack root', () => {
  it('of two stacks: the one left plans under its own stack and the removed one is reported with its live resources', async () => {
    const repo = stacksRepo('rm');
    await applyFirstCommit(repo, [office, web], inputs(), gh);
    const { staging, partners } = repo.names;
    // The repository of two stacks the pull request starts from: staging and partners.
    repo.remove(PROD);
    const base = repo.commit('prod leaves the repository');
    repo.docs(STAGING, [office, web, api2]);
    repo.remove(PARTNERS);
    const head = repo.commit('staging gains api, partners goes');

    const plan = await runAction({ event: pullRequestOf(61, base, head), inputs: inputs(), cwd: repo.dir, github: gh });
    ok(plan);
    const warning = `stack ${partners} was removed from the repository; its 2 live resources stay unmanaged`;
    expect(plan.stdout).toContain(`::warning::${warning}`);
    const comments = gh.comments(61).filter((c) => c.body.startsWith('<!-- edgeops-stacks-plan -->'));
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body).toMatch(new RegExp(`\\| \`${staging}\` \\(\`${STAGING}\`\\) \\| staging \\| 1 to create \\| — \\| \`sha256:`));
    expect(body).toContain(`| \`${partners}\` (\`${PARTNERS}\`) | — | **removed**: ${warning} | — |`);
    expect(body).toContain('+ TunnelGroupBackend/api');
    expect(body).not.toContain('default');
    expect(extractStacksRecord(body)!.stacks.map((r) => [r.dir, r.removed ?? false])).toEqual([[STAGING, false], [PARTNERS, true]]);
    expectSecretAbsent(plan, svc.apiKey, gh);

    // The merge applies the reviewed plan of the stack left; the removed stack's resources stay.
    gh.mergePull(61, head, head);
    const merge = await runAction({ event: push('main', head), inputs: inputs(), cwd: repo.dir, github: gh });
    ok(merge);
    expect(merge.outputs.summary).toBe(`Apply of 1 stack: ${staging} applied.`);
    expect(await backends(staging)).toEqual(['api tier', 'web tier']);
    expect(await backends(partners)).toEqual(['web tier']);
  }, 300_000);
});
