// A schedule over a repository of three stacks, run as a process against the real service and a stand-in
// GitHub: drift of every stack, one issue per drifted stack, and a job-summary table of all of them; the issue
// is closed by the run that finds its stack in sync again.
import { describe, expect, it } from 'vitest';
import { api, serviceForFile } from '../helpers/service.ts';
import { gitHubForFile, runAction, schedule, type Doc } from './harness.ts';
import { applyFirstCommit, ok, PARTNERS, PROD, STAGING, stacksRepo } from './stacks-repo.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
const office: Doc = { kind: 'IPPolicy', name: 'office', description: 'office networks' };

async function policyOf(stack: string): Promise<{ id: string }> {
  const all = (await api(svc).listAll('/ip_policies', 'ip_policies')) as { id: string; metadata?: string }[];
  return all.find((p) => (p.metadata ?? '').includes(`"stack":"${stack}"`))!;
}

describe('a schedule over several stacks', () => {
  it('checks every stack, opens one issue for the drifted one, and closes it once in sync', async () => {
    const repo = stacksRepo('md');
    const inputs = { path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey };
    await applyFirstCommit(repo, [office], inputs, gh);
    const { staging, prod, partners } = repo.names;
    const id = (await policyOf(prod)).id;
    expect((await api(svc).patch(`/ip_policies/${id}`, { description: 'edited in the console' })).status).toBe(200);

    const drifted = await runAction({ event: schedule(), inputs, cwd: repo.dir, github: gh });
    expect(drifted.code).toBe(1);
    expect(drifted.stdout).toMatch(new RegExp(`^::error::Drift on stack ${prod} \\(1\\)\\.`, 'm'));
    expect(drifted.summary).toContain('### edgeops drift over every stack');
    expect(drifted.summary).toContain(`| \`${staging}\` (\`${STAGING}\`) | staging | in sync | — |`);
    expect(drifted.summary).toContain(`| \`${partners}\` (\`${PARTNERS}\`) | — | in sync | — |`);
    expect(drifted.summary).toMatch(new RegExp(`\\| \`${prod}\` \\(\`${PROD}\`\\) \\| production \\| \\*\\*drifted\\*\\*: 1 resource \\| opened drift issue #\\d+`));
    expect(drifted.outputs['has-changes']).toBe('true');
    expect(drifted.outputs.summary).toBe(`Drift check of 3 stacks: ${prod} drifted, ${staging} in sync, ${partners} in sync.`);
    const issues = gh.issues().filter((i) => i.title.startsWith('Drift on edgeops stack md-'));
    expect(issues.map((i) => [i.title, i.state])).toEqual([[`Drift on edgeops stack ${prod} (environment production)`, 'open']]);

    expect((await api(svc).patch(`/ip_policies/${id}`, { description: 'office networks' })).status).toBe(200);
    const synced = await runAction({ event: schedule(), inputs, cwd: repo.dir, github: gh });
    ok(synced);
    expect(synced.outputs.summary).toBe('No drift on 3 stacks: live state matches the manifests.');
    expect(issues[0]!.state).toBe('closed');
    expect(synced.summary).toMatch(new RegExp(`\\| \`${prod}\` \\(\`${PROD}\`\\) \\| production \\| in sync \\| closed drift issue #\\d+`));
  }, 300_000);
});
