// A JavaScript action has no step-level working-directory: the entry itself runs edgeops in the
// `working-directory` input, resolved from the job's directory, and the paths are relative to it.
import { describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { push, runAction, workspace } from './harness.ts';

const { svc } = serviceForFile();

describe('the working-directory input', () => {
  it('is where edgeops runs: path . there plans the manifests under it', async () => {
    const ws = workspace('wd');
    try {
      ws.write([{ kind: 'IPPolicy', name: 'office', description: 'office' }]);
      const inputs = { command: 'plan', path: '.', 'working-directory': 'infra', 'api-url': svc.url, 'api-key': svc.apiKey };
      const run = await runAction({ event: push('feature'), inputs, cwd: ws.dir });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.outputs.summary).toContain('1 to create');
      expect(run.outputs['has-changes']).toBe('true');
    } finally {
      ws.dispose();
    }
  });

  it('names a directory that does not exist: the step fails saying so', async () => {
    const ws = workspace('wd');
    try {
      const inputs = { command: 'plan', path: '.', 'working-directory': 'nowhere', 'api-url': svc.url, 'api-key': svc.apiKey };
      const run = await runAction({ event: push('feature'), inputs, cwd: ws.dir });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('::error::edgeops action: input working-directory: nowhere is not a directory');
    } finally {
      ws.dispose();
    }
  });
});
