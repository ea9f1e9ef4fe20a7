// The whole-process benchmarks' models stand for what edgeops does: the list model reads exactly the
// collections a plan reads, and the apply model's requests are the apply's resource writes (no lock record),
// each naming the creates it depends on. No timing is asserted here; `npm run bench` measures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelRequests } from '../../bench/apply-process.ts';
import { startRecorder } from '../../bench/lib/recorder.ts';
import { LIST_PATHS } from '../../bench/plan-process.ts';
import { createApi } from '../../src/client/http.ts';
import { withStackLock } from '../../src/lock/stack-lock.ts';
import { computePlan, executePlan, loadDesired } from '../../src/pipeline.ts';
import { generateDocs, writeManifests } from '../../bench/lib/generate.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '../helpers/service.ts';
import { HOSTPORT_AVAILABILITY_PATH } from '../../src/contract/hostport-availability.ts';

let svc: TestService;
let tmp: string;
beforeAll(async () => {
  svc = await startTestService();
  tmp = await mkdtemp(join(tmpdir(), 'edgeops-models-'));
});
afterAll(async () => {
  await svc.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('the process models', () => {
  it('list what a plan lists, and replay the writes of an apply with their dependencies', async () => {
    const recorder = await startRecorder(svc.url);
    const api = createApi({ url: recorder.url, apiKey: svc.apiKey });
    try {
      const dir = join(tmp, 'm');
      await writeManifests(dir, generateDocs(30), 3);
      const desired = await loadDesired([dir], undefined, { stack: 'models' });
      await withStackLock(api, 'models', {}, async () => {
        const ctx = await computePlan(desired, api, { stack: 'models' });
        // The plan also asks whether the hostports it would claim are free (no list): not one of the lists.
        const lists = new Set(recorder.exchanges.filter((x) => x.method === 'GET' && !x.path.startsWith(HOSTPORT_AVAILABILITY_PATH)).map((x) => x.path.split('?')[0]));
        expect([...lists].sort()).toEqual([...LIST_PATHS].sort());
        expect((await executePlan(ctx, api, { stack: 'models', concurrency: 4 })).ok).toBe(true);
      });

      const requests = modelRequests(recorder.exchanges);
      const creates = requests.filter((r) => r.creates);
      expect(creates.length).toBeGreaterThan(0);
      expect(creates.length).toBeLessThanOrEqual(desired.resources.length);
      expect(requests.some((r) => r.uses.length > 0)).toBe(true);
      // No lock record among them: the lock's POST, PATCHes and DELETE are left out.
      expect(requests.every((r) => r.method !== 'DELETE')).toBe(true);
      const created = new Set<string>();
      for (const r of requests) {
        for (const id of r.uses) expect(created.has(id)).toBe(true);
        if (r.creates) created.add(r.creates);
      }
    } finally {
      await api.close();
      await recorder.close();
    }
  });
});
