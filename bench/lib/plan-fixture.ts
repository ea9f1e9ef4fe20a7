// A seeded service child plus the desired state of its manifests and a client: what the plan benchmarks share.
import { createApi } from '../../src/client/http.ts';
import type { DesiredState } from '../../src/manifest/document.ts';
import { computePlan, loadDesired } from '../../src/pipeline.ts';
import type { BenchContext } from './context.ts';
import { STACK, useSeed, type SeedSet } from './seed.ts';
import { startServiceChild, type ServiceChild } from './service-child.ts';

export interface PlanFixture {
  set: SeedSet;
  service: ServiceChild;
  api: ReturnType<typeof createApi>;
  desired: DesiredState;
  plan(): ReturnType<typeof computePlan>;
  close(): Promise<void>;
}

/** `service` options: the read cache (default on), and faults such as latency injected into every GET. */
export async function openPlanFixture(ctx: BenchContext, count: number, opts: { readCache?: boolean; faults?: unknown } = {}): Promise<PlanFixture> {
  const set = await ctx.seeded(count);
  const service = await startServiceChild({ dbFile: await useSeed(set, ctx.tmp), ...opts });
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
