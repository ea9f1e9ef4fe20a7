// Benchmark 2: the same plan against a per-resource refresh, the strategy of state-based tools: GET every
// resource by id, 10 requests in flight. Target: plan >= 10x faster.
//
// Measured on loopback (where a GET costs the service's work and little else, so the refresh is as cheap as it
// can ever be) and with 5 ms added to every GET by the service, a stand-in for any real network.
import pLimit from 'p-limit';
import { createApi } from '../src/client/http.ts';
import type { LiveItem } from '../src/kinds/resource-kind.ts';
import type { BenchContext, Benchmark } from './lib/context.ts';
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

/** GET latency injected by the service in the second figure: a nearby API, far closer than a real one. */
const LATENCY_MS = 5;

async function measure(ctx: BenchContext, name: string, latencyMs: number): Promise<Figure> {
  const fx = await openPlanFixture(ctx, COUNT, latencyMs > 0 ? { faults: { latencyMs, methods: ['GET'] } } : {});
  try {
    const first = await fx.plan();
    const paths = [...first.live.byKind].flatMap(([kind, items]) => items.map((i) => pathOf(kind, i)));
    // Its own client with room for 10 requests in flight (the plan's client bounds requests at 8).
    const refreshApi = createApi({ url: fx.service.url, apiKey: fx.service.apiKey, concurrency: IN_FLIGHT });
    const refresh = async () => {
      const limit = pLimit(IN_FLIGHT);
      await Promise.all(paths.map((p) => limit(() => refreshApi.get(p))));
    };
    const s = await interleaved({ refresh, plan: fx.plan }, latencyMs > 0 ? reps(0, 3) : reps(1, 5)).finally(() => refreshApi.close());
    const r = median(s.refresh);
    const p = median(s.plan);
    const ratio = r / p;
    return {
      name,
      values: [['refresh', ms(r)], ['plan', ms(p)]],
      ratio,
      target: '>= 10x',
      ok: ratio >= 10,
      note:
        `${paths.length} GETs by id, ${IN_FLIGHT} in flight; ${latencyMs ? `${latencyMs} ms added to every GET by the service` : 'loopback, no added latency'}; ` +
        `refresh ${spread(s.refresh)}; plan ${spread(s.plan)}`,
    };
  } finally {
    await fx.close();
  }
}

export const planRefresh: Benchmark = {
  name: 'plan-vs-refresh',
  id: 2,
  title: `plan of ${COUNT} resources vs GET of each by id (${IN_FLIGHT} in flight)`,
  async run(ctx) {
    return [await measure(ctx, 'plan-vs-refresh', 0), await measure(ctx, `plan-vs-refresh/${LATENCY_MS}ms-latency`, LATENCY_MS)];
  },
};
