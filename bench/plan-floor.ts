// Benchmark 1: plan of 5,000 managed resources against the fetch floor, the time to make the same list reads
// with the same client and do nothing else. Target: plan <= 1.25x the floor.
//
// Measured twice: against the service as it runs (a repeated page comes from its read cache, so the floor is
// little more than the client's HTTP and JSON.parse), and against the service without the read cache (each
// page read from SQLite, as on the first plan after a change). The first is the headline figure.
import { ms, spread, type Figure } from './lib/figure.ts';
import type { BenchContext, Benchmark } from './lib/context.ts';
import { interleaved, median, reps } from './lib/measure.ts';
import { openPlanFixture } from './lib/plan-fixture.ts';
import { memoryApi, recordingApi, replayReads } from './lib/recording-api.ts';
import { computePlan } from '../src/pipeline.ts';
import { STACK } from './lib/seed.ts';

export const COUNT = 5000;

async function measure(ctx: BenchContext, name: string, readCache: boolean): Promise<Figure> {
  const fx = await openPlanFixture(ctx, COUNT, { readCache });
  try {
    const rec = recordingApi(fx.api);
    const first = await computePlan(fx.desired, rec.api, { stack: STACK });
    if (rec.writes > 0) throw new Error(`plan made ${rec.writes} writes`);
    const items = await replayReads(fx.api, rec.reads);
    // The plan's own CPU: the same plan with every page already in memory (only JSON.parse left of the I/O).
    const mem = await memoryApi(fx.api, rec.reads);
    const s = await interleaved(
      { floor: () => replayReads(fx.api, rec.reads), plan: fx.plan, cpu: () => computePlan(fx.desired, mem, { stack: STACK }) },
      reps(2, 9),
    );
    const floor = median(s.floor);
    const plan = median(s.plan);
    const ratio = plan / floor;
    const lists = rec.reads.filter((r) => r.op === 'list').length;
    return {
      name,
      values: [['floor', ms(floor)], ['plan CPU alone', ms(median(s.cpu))], ['plan', ms(plan)]],
      ratio,
      target: '<= 1.25x',
      ok: ratio <= 1.25,
      note:
        `${COUNT} resources (${kindsText(fx.set.kinds)}); ${lists} list endpoints, ${items} items fetched; ` +
        `plan has ${first.plan.actions.length} actions; service read cache ${readCache ? 'on' : 'off'}; ` +
        `floor ${spread(s.floor)}; plan ${spread(s.plan)}; ` +
        `plan with every page in memory (its CPU alone) ${spread(s.cpu)}, so plan >= max(floor, ${ms(median(s.cpu))})`,
    };
  } finally {
    await fx.close();
  }
}

export const planFloor: Benchmark = {
  name: 'plan-vs-fetch-floor',
  id: 1,
  title: `plan of ${COUNT} managed resources vs the fetch floor`,
  async run(ctx) {
    return [await measure(ctx, 'plan-vs-fetch-floor', true), await measure(ctx, 'plan-vs-fetch-floor/no-read-cache', false)];
  },
};

export function kindsText(kinds: Record<string, number>): string {
  return Object.entries(kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}
