// Benchmark 1: plan of 5,000 managed resources against the fetch floor, the time to make the same list reads
// with the same client and do nothing else. Target: plan <= 1.25x the floor.
import { ms, spread, type Figure } from './lib/figure.ts';
import type { Benchmark } from './lib/context.ts';
import { interleaved, median, reps } from './lib/measure.ts';
import { openPlanFixture } from './lib/plan-fixture.ts';
import { recordingApi, replayReads } from './lib/recording-api.ts';
import { computePlan } from '../src/pipeline.ts';
import { STACK } from './lib/seed.ts';

export const COUNT = 5000;

export const planFloor: Benchmark = {
  name: 'plan-vs-fetch-floor',
  id: 1,
  title: `plan of ${COUNT} managed resources vs the fetch floor`,
  async run(ctx) {
    const fx = await openPlanFixture(ctx, COUNT);
    try {
      const rec = recordingApi(fx.api);
      const first = await computePlan(fx.desired, rec.api, { stack: STACK });
      if (rec.writes > 0) throw new Error(`plan made ${rec.writes} writes`);
      const items = await replayReads(fx.api, rec.reads);
      const s = await interleaved({ floor: () => replayReads(fx.api, rec.reads), plan: fx.plan }, reps(2, 9));
      const floor = median(s.floor);
      const plan = median(s.plan);
      const ratio = plan / floor;
      const lists = rec.reads.filter((r) => r.op === 'list').length;
      const fig: Figure = {
        name: 'plan-vs-fetch-floor',
        values: [['floor', ms(floor)], ['plan', ms(plan)]],
        ratio,
        target: '<= 1.25x',
        ok: ratio <= 1.25,
        note:
          `${COUNT} resources (${kindsText(fx.set.kinds)}); ${lists} list endpoints, ${items} items fetched; ` +
          `plan has ${first.plan.actions.length} actions; floor ${spread(s.floor)}; plan ${spread(s.plan)}`,
      };
      return [fig];
    } finally {
      await fx.close();
    }
  },
};

export function kindsText(kinds: Record<string, number>): string {
  return Object.entries(kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}
