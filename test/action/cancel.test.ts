// A cancelled job: the runner signals the action's process, which runs the apply itself, so it stops as the
// CLI's apply stops on Ctrl-C: while it waits for the stack's lock, the wait ends, nothing is written and its
// queued lock record is deleted, and the job fails saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/client/http.ts';
import { listLockRecords } from '../../src/lock/records.ts';
import { api, serviceForFile } from '../helpers/service.ts';
import { holdStackLock } from '../helpers/stack-lock.ts';
import { push, runAction, workspace, type Workspace } from './harness.ts';

const { svc } = serviceForFile();
let ws: Workspace;
const STACK = 'cancel';

beforeAll(() => {
  ws = workspace(STACK);
  ws.write([{ kind: 'TunnelGroupBackend', name: 'web', labels: { app: 'web' } }]);
});
afterAll(() => ws.dispose());

describe('a cancelled job', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s while the apply waits for the lock: nothing written, no record left, the job fails', async (signal) => {
    const client = createApi({ url: svc.url, apiKey: svc.apiKey });
    const held = await holdStackLock(client, STACK, { holder: 'another apply' });
    try {
      const run = await runAction({
        event: push('main'),
        inputs: { path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, 'on-stale': 'replan' },
        cwd: ws.dir,
        signalWhen: { text: `for the lock of stack "${STACK}"`, signal },
      });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stderr).toContain(`Waiting up to 120 s for the lock of stack "${STACK}"`);
      expect(run.stderr).toContain(`${signal}: stopping before any action started`);
      expect(run.stdout).toMatch(/^::error::edgeops apply failed: /m);
      expect(await api(svc).listAll('/backends/tunnel_group', 'backends')).toEqual([]);
      expect((await listLockRecords(client, STACK)).map((r) => r.id)).toEqual([held.id]);
    } finally {
      await held.release();
      await client.close();
    }
  });
});
