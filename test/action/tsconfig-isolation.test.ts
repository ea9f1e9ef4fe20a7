// The workspace's tsconfig.json, which a pull request can change, cannot redirect the action's imports (undici
// for the GitHub API) or those of the edgeops it runs, while the API key is in the environment: the action
// runs its bundle, which resolves nothing from the workspace.
import { describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { hostileWorkspace } from '../cli/hostile-tsconfig.ts';
import { gitHubForFile, pullRequest, push, runAction } from './harness.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();

describe("the workspace's tsconfig.json", () => {
  it('is not used by the action on a pull request (comment over undici) nor by the edgeops it runs', async () => {
    const ws = hostileWorkspace();
    try {
      const run = await runAction({ event: pullRequest(31, 'd'.repeat(40)), inputs: { path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey }, cwd: ws.dir, github: gh });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(gh.comments(31)[0]!.body).toContain('+ IPPolicy/office');
      expect(ws.hijacked()).toBe(false);
    } finally {
      ws.dispose();
    }
  });

  it('is not used by apply on a push either', async () => {
    const ws = hostileWorkspace();
    try {
      const run = await runAction({ event: push('main'), inputs: { path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, 'on-stale': 'replan' }, cwd: ws.dir });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.outputs.summary).toBe('Apply complete: 1 created, 0 updated, 0 replaced, 0 deleted (stack hostile).');
      expect(ws.hijacked()).toBe(false);
    } finally {
      ws.dispose();
    }
  });
});
