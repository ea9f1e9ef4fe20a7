// Benchmark 7: whole-process `edgeops plan` of a seeded account, as a user runs it (process start-up, manifest
// loading, lists, plan, output), against the list-everything model (bench/list-model.mjs: parse the same YAML,
// list every collection with 10 in flight with undici) and against the network floor (the longest page chain
// times the latency the service injects into every request). Paired: edgeops and the model alternate.
import { join } from 'node:path';
import { CLI_ENTRY, expectExit, timeEdgeops, timeProcess } from './lib/cli.ts';
import type { BenchContext, Benchmark } from './lib/context.ts';
import { ms, spread, type Figure } from './lib/figure.ts';
import { median } from './lib/measure.ts';
import { benchDir } from './lib/child.ts';
import { STACK, useSeed } from './lib/seed.ts';
import { startServiceChild } from './lib/service-child.ts';

/** Every list endpoint a plan reads (one per kind with a collection of its own). */
export const LIST_PATHS = [
  '/ip_policies', '/ip_policy_rules', '/certificate_authorities', '/tls_certificates', '/backends/tunnel_group',
  '/backends/http_response', '/edges/tcp', '/edges/tls', '/edges/https', '/event_subscriptions',
];

const quick = (): boolean => Boolean(process.env.BENCH_QUICK);
const CASES = (): { count: number; latencyMs: number; floorTarget?: number }[] =>
  quick() ? [{ count: 200, latencyMs: 20 }] : [{ count: 1000, latencyMs: 20 }, { count: 5000, latencyMs: 80, floorTarget: 1.5 }];

async function measure(ctx: BenchContext, count: number, latencyMs: number, floorTarget?: number): Promise<Figure[]> {
  const set = await ctx.seeded(count);
  const service = await startServiceChild({ dbFile: await useSeed(set, ctx.tmp), faults: { latencyMs } });
  try {
    const plan = () => timeEdgeops(['plan', set.manifestDir, '--stack', STACK], { env: { EDGEOPS_API_URL: service.url, EDGEOPS_API_KEY: service.apiKey, NO_COLOR: '1' } });
    const model = () => timeProcess(process.execPath, [join(benchDir, 'list-model.mjs'), service.url, service.apiKey, set.manifestDir, ...LIST_PATHS]);
    const first = expectExit(await plan(), [0], 'edgeops plan');
    if (!/No changes/i.test(first.stdout)) ctx.log(`   note: the plan of the seeded set is not empty: ${first.stdout.split('\n')[0]}`);
    const shape = JSON.parse(expectExit(await model(), [0], 'list model').stdout) as { docs: number; items: number; pages: Record<string, number> };
    const planMs: number[] = [];
    const modelMs: number[] = [];
    for (let i = 0; i < (quick() ? 1 : 5); i++) {
      planMs.push(expectExit(await plan(), [0], 'edgeops plan').ms);
      modelMs.push(expectExit(await model(), [0], 'list model').ms);
    }
    const p = median(planMs);
    const m = median(modelMs);
    const chain = Math.max(...Object.values(shape.pages));
    const floor = chain * latencyMs;
    const name = `plan-process/${count}@${latencyMs}ms`;
    const note = `${shape.docs} documents, ${shape.items} live items, longest page chain ${chain} pages; edgeops ${spread(planMs)}; model ${spread(modelMs)}; entry ${CLI_ENTRY}`;
    const figures: Figure[] = [{ name, values: [['model', ms(m)], ['edgeops plan', ms(p)]], ratio: p / m, target: '<= 1.25x', ok: p / m <= 1.25, note }];
    if (floorTarget) {
      figures.push({ name: `${name}/floor`, values: [['floor', ms(floor)], ['edgeops plan', ms(p)]], ratio: p / floor, target: `<= ${floorTarget}x`, ok: p / floor <= floorTarget, note: `floor = ${chain} pages x ${latencyMs} ms` });
    }
    return figures;
  } finally {
    await service.stop();
  }
}

export const planProcess: Benchmark = {
  name: 'plan-process',
  id: 7,
  title: 'whole-process edgeops plan vs the list-everything model and the network floor',
  async run(ctx) {
    const out: Figure[] = [];
    for (const c of CASES()) out.push(...(await measure(ctx, c.count, c.latencyMs, c.floorTarget)));
    return out;
  },
};
