// A plan of hundreds of resources through the whole action: the comment stays under GitHub's 65,536
// characters, keeps the summary and the first resources, says how many are left out, the job summary holds
// the full plan, and the next push is still compared with it.
import { describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { expectSecretAbsent, gitHubForFile, pullRequest, runAction, workspace, type Doc } from './harness.ts';

const RULES = 400;

function manifests(changedRule?: number): Doc[] {
  const docs: Doc[] = [{ kind: 'IPPolicy', name: 'big', description: 'a policy with very many rules' }];
  for (let i = 0; i < RULES; i++) {
    const note = i === changedRule ? 'moved to another rack' : 'one of the many office ranges kept in this policy';
    docs.push({ kind: 'IPPolicyRule', name: `rule-${i}`, description: `rule ${i}: ${note}`, ip_policy_id: 'big', cidr: `10.${i >> 8}.${i & 255}.0/24`, action: 'allow' });
  }
  return docs;
}

const { svc } = serviceForFile();
const gh = gitHubForFile();

describe('a very large plan', () => {
  it('fits the comment, counts what is left out, and keeps the full plan in the job summary', async () => {
    const ws = workspace('big-stack');
    const inputs = { path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey };
    try {
      ws.write(manifests());
      const run = await runAction({ event: pullRequest(3, 'f'.repeat(40)), inputs, cwd: ws.dir, github: gh });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const [comment, ...others] = gh.comments(3);
      expect(others).toEqual([]);
      const body = comment!.body;
      expect(body.length).toBeLessThanOrEqual(65_536);

      const shown = body.match(/^\+ IPPolicyRule\/rule-\d+$/gm) ?? [];
      const omitted = Number(/> \*\*(\d+) of 401 resources are not shown here\*\*/.exec(body)?.[1]);
      expect(shown.length).toBeGreaterThan(50);
      expect(omitted).toBeGreaterThan(0);
      expect(body).toMatch(/^\+ IPPolicy\/big$/m);
      expect(shown.length + 1 + omitted).toBe(RULES + 1);
      expect(body).toContain(`# ... ${omitted} more resources not shown (${omitted} creates)`);
      expect(body).toContain('The full plan is in the [job summary](https://github.example/acme/infra/actions/runs/4242).');
      // The summary table and the closing count are kept.
      expect(body).toContain(`| ${RULES + 1} | 0 | 0 | 0 |`);
      expect(body).toContain(`Plan: ${RULES + 1} to create, 0 to update, 0 to replace, 0 to delete.`);
      expect(body).toMatch(/<!-- edgeops-plan-state:[A-Za-z0-9+/=]+ -->\n<!-- edgeops-reviewed:sha256:[0-9a-f]{64} at f{40} -->\n$/);

      expect(run.summary.match(/^\+ IPPolicyRule\/rule-\d+$/gm)).toHaveLength(RULES);
      expect(run.summary).not.toContain('not shown');
      expectSecretAbsent(run, svc.apiKey, gh);

      // The next push changes one rule: the difference is still found, from the compact fingerprint.
      ws.write(manifests(399));
      const next = await runAction({ event: pullRequest(3, 'e'.repeat(40)), inputs, cwd: ws.dir, github: gh });
      expect(next.code).toBe(0);
      expect(gh.comments(3)).toHaveLength(1);
      const updated = gh.comments(3)[0]!.body;
      expect(updated.length).toBeLessThanOrEqual(65_536);
      expect(updated).toContain('#### Since the previous plan (`fffffff`)\n\n0 added, 0 no longer planned, 1 changed.');
      expect(updated).toMatch(/- \*\*changed\*\* `IPPolicyRule\/rule-399`: create/);
    } finally {
      ws.dispose();
    }
  });
});
