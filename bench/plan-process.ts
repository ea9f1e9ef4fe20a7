// Benchmark 7: whole-process `edgeops plan` of a seeded account, as a user runs it (process start-up, manifest
// loading, lists, plan, output), against the list-everything model (bench/list-model.mjs: parse the same YAML,
// list every collection with 10 in flight with undici, the way decK works) and against the floor, measured in
// the same run: a bare client process (list-model.mjs without manifests) listing the same pages, every kind at
// once, each kind's pages in order; that is node's start-up plus the longest page chain. The service injects
// the latency into every request. Paired: floor, edgeops and the model alternate; medians of 5 rounds.
import { join } from 'node:path';
import { cliEntry, expectExit, timeEdgeops, timeProcess } from './lib/cli.ts';
import type { BenchContext, Benchmark } from './lib/context.ts';
import { ms, spread, type Figure } from './lib/figure.ts';
import { median, pairedRatio } from './lib/measure.ts';
import { benchDir } from './lib/child.ts';
import { STACK, useSeed } from './lib/seed.ts';
import { startServiceChild } from './lib/service-child.ts';

/** Every list endpoint a plan reads (one per kind with a collection of its own). */
export const LIST_PATHS = [
  '/ip_policies', '/ip_policy_rules', '/certificate_authorities', '/tls_certificates', '/backends/tunnel_group',
  '/backends/http_response', '/edges/tcp', '/edges/tls', '/edges/https', '/event_subscriptions',
];

const quick = (): boolean => Boolean(process.env.BENCH_QUICK);
const CASES = (): { count: number; latencyMs: number; floorTarget: number }[] =>
  quick() ? [{ count: 200, latencyMs: 20, floorTarget: 1.6 }] : [{ count: 1000, latencyMs: 20, floorTarget: 1.6 }, { count: 5000, latencyMs: 80, floorTarget: 1.3 }];

interface Shape {
  docs: number;
  items: number;
  pages: Record<string, number>;
}

async function measure(ctx: BenchContext, count: number, latencyMs: number, floorTarget: number): Promise<Figure[]> {
  const set = await ctx.seeded(count);
  const service = await startServiceChild({ dbFile: await useSeed(set, ctx.tmp), faults: { latencyMs } });
  try {
    const plan = () => timeEdgeops(['plan', set.manifestDir, '--stack', STACK], { env: { EDGEOPS_API_URL: service.url, EDGEOPS_API_KEY: service.apiKey, NO_COLOR: '1' } });
    const lists = (dir: string) => () => timeProcess(process.execPath, [join(benchDir, 'list-model.mjs'), service.url, service.apiKey, dir, ...LIST_PATHS]);
    const model = lists(set.manifestDir);
    const floor = lists('-');
    const node = () => timeProcess(process.execPath, ['-e', '0']);
    const first = expectExit(await plan(), [0], 'edgeops plan');
    if (!/No changes/i.test(first.stdout)) ctx.log(`   note: the plan of the seeded set is not empty: ${first.stdout.split('\n')[0]}`);
    const shape = JSON.parse(expectExit(await model(), [0], 'list model').stdout) as Shape;
    expectExit(await floor(), [0], 'fetch floor');
    const s: Record<'node' | 'floor' | 'plan' | 'model', number[]> = { node: [], floor: [], plan: [], model: [] };
    for (let i = 0; i < (quick() ? 1 : 5); i++) {
      s.node.push((await node()).ms);
      s.floor.push(expectExit(await floor(), [0], 'fetch floor').ms);
      s.plan.push(expectExit(await plan(), [0], 'edgeops plan').ms);
      s.model.push(expectExit(await model(), [0], 'list model').ms);
    }
    const p = median(s.plan);
    const m = median(s.model);
    const f = median(s.floor);
    const chain = Math.max(...Object.values(shape.pages));
    const name = `plan-process/${count}@${latencyMs}ms`;
    const note = `${shape.docs} documents, ${shape.items} live items, longest page chain ${chain} pages; edgeops ${spread(s.plan)}; model ${spread(s.model)}; ratio = median of the per-round ratios; entry ${cliEntry()}`;
    const vsModel = pairedRatio(s.plan, s.model);
    const vsFloor = pairedRatio(s.plan, s.floor);
    return [
      { name, values: [['decK-style model', ms(m)], ['edgeops plan', ms(p)]], ratio: vsModel, target: '<= 1.0x', ok: vsModel <= 1, note },
      {
        name: `${name}/floor`,
        values: [['floor', ms(f)], ['edgeops plan', ms(p)]],
        ratio: vsFloor,
        target: `<= ${floorTarget}x`,
        ok: vsFloor <= floorTarget,
        note: `floor = a bare client process listing the same pages (${spread(s.floor)}): node -e 0 ${ms(median(s.node))} + ${chain} pages x ${latencyMs} ms in its longest chain`,
      },
    ];
  } finally {
    await service.stop();
  }
}

export const planProcess: Benchmark = {
  name: 'plan-process',
  id: 7,
  title: 'whole-process edgeops plan vs the decK-style model and the fetch floor (node start-up + the same lists)',
  async run(ctx) {
    const out: Figure[] = [];
    for (const c of CASES()) out.push(...(await measure(ctx, c.count, c.latencyMs, c.floorTarget)));
    return out;
  },
};
