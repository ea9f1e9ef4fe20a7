// A seeded service child plus the desired state of its manifests and a client: what the plan benchmarks share.
import { createApi } from '../../src/client/http.ts';
import type { DesiredState } from '../../src/manifest/document.ts';
import { computePlan, loadDesired } from '../../src/pipeline.ts';
import type { BenchContext } from './context.ts';
import { startSeeded, STACK, type SeedSet } from './seed.ts';
import type { ServiceChild } from './service-child.ts';

export interface PlanFixture {
  set: SeedSet;
  service: ServiceChild;
  api: ReturnType<typeof createApi>;
  desired: DesiredState;
  plan(): ReturnType<typeof computePlan>;
  close(): Promise<void>;
}

export async function openPlanFixture(ctx: BenchContext, count: number): Promise<PlanFixture> {
  const set = await ctx.seeded(count);
  const service = await startSeeded(set, ctx.tmp);
  const api = createApi({ url: service.url, apiKey: service.apiKey });
  const desired = await loadDesired([set.manifestDir], undefined, { stack: STACK });
  return {
    set,
    service,
    api,
    desired,
    plan: () => computePlan(desired, api, { stack: STACK }),
    async close() {
      await api.close();
      await service.stop();
    },
  };
}
