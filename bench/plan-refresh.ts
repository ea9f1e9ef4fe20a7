// Benchmark 2: the same plan against a per-resource refresh, the strategy of state-based tools: GET every
// resource by id, 10 requests in flight. Target: plan >= 10x faster.
import pLimit from 'p-limit';
import { createApi } from '../src/client/http.ts';
import type { LiveItem } from '../src/kinds/resource-kind.ts';
import type { Benchmark } from './lib/context.ts';
import { ms, spread, type Figure } from './lib/figure.ts';
import { interleaved, median, reps } from './lib/measure.ts';
import { openPlanFixture } from './lib/plan-fixture.ts';
import { COUNT } from './plan-floor.ts';

const IN_FLIGHT = 10;

/** Resources without a `uri` of their own (modules and sub-objects keyed by their parents). */
const naturalPaths: Record<string, (id: string) => string> = {
  RouteResponseHeaders: (id) => {
    const [edge, route] = id.split('/');
    return `/edges/https/${edge}/routes/${route}/response_headers`;
  },
  EventSources: (id) => `/event_subscriptions/${id}/sources`,
};

function pathOf(kind: string, item: LiveItem): string {
  const uri = item.raw.uri;
  if (typeof uri === 'string') return new URL(uri, 'http://x').pathname;
  const natural = naturalPaths[kind];
  if (!natural) throw new Error(`no GET path for ${kind} ${item.id}`);
  return natural(item.id);
}

export const planRefresh: Benchmark = {
  name: 'plan-vs-refresh',
  id: 2,
  title: `plan of ${COUNT} resources vs GET of each by id (${IN_FLIGHT} in flight)`,
  async run(ctx) {
    const fx = await openPlanFixture(ctx, COUNT);
    try {
      const first = await fx.plan();
      const paths = [...first.live.byKind].flatMap(([kind, items]) => items.map((i) => pathOf(kind, i)));
      // Its own client with room for 10 requests in flight (the plan's client bounds requests at 8).
      const refreshApi = createApi({ url: fx.service.url, apiKey: fx.service.apiKey, concurrency: IN_FLIGHT });
      const refresh = async () => {
        const limit = pLimit(IN_FLIGHT);
        await Promise.all(paths.map((p) => limit(() => refreshApi.get(p))));
      };
      const s = await interleaved({ refresh, plan: fx.plan }, reps(1, 5)).finally(() => refreshApi.close());
      const r = median(s.refresh);
      const p = median(s.plan);
      const ratio = r / p;
      return [
        {
          name: 'plan-vs-refresh',
          values: [['refresh', ms(r)], ['plan', ms(p)]],
          ratio,
          target: '>= 10x',
          ok: ratio >= 10,
          note: `${paths.length} GETs by id, ${IN_FLIGHT} in flight; refresh ${spread(s.refresh)}; plan ${spread(s.plan)}`,
        },
      ];
    } finally {
      await fx.close();
    }
  },
};
