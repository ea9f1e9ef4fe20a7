// Benchmark 6: peak RSS of a plan (load manifests + fetch + diff, in a fresh process) at 5,000, 10,000 and
// 20,000 resources. Targets: under 300 MB at 20,000, and growth linear (the per-resource slope from 10k to
// 20k no more than 1.25x the slope from 5k to 10k).
import type { Benchmark } from './lib/context.ts';
import { benchScript, spawnTs } from './lib/child.ts';
import { mb, type Figure } from './lib/figure.ts';
import { median, reps } from './lib/measure.ts';
import { startSeeded, STACK } from './lib/seed.ts';

const SIZES = [5000, 10_000, 20_000] as const;
const LIMIT = 300 * 1024 * 1024;

interface ChildReport {
  base: number;
  peak: number;
  planMs: number;
  resources: number;
  live: number;
  actions: number;
}

async function measure(ctx: Parameters<Benchmark['run']>[0], count: number): Promise<ChildReport[]> {
  const set = await ctx.seeded(count);
  const service = await startSeeded(set, ctx.tmp);
  try {
    const out: ChildReport[] = [];
    for (let i = 0; i < reps(0, 3).reps; i++) {
      const child = spawnTs(benchScript('plan-memory-child.ts'), ['--url', service.url, '--key', service.apiKey, '--dir', set.manifestDir, '--stack', STACK]);
      try {
        out.push(await child.next<ChildReport>());
      } finally {
        await child.stop();
      }
    }
    return out;
  } finally {
    await service.stop();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export const planMemory: Benchmark = {
  name: 'plan-memory',
  id: 6,
  title: 'peak RSS of plan at 5,000, 10,000 and 20,000 resources',
  async run(ctx) {
    const peaks = new Map<number, number>();
    const notes: string[] = [];
    for (const n of SIZES) {
      const runs = await measure(ctx, n);
      peaks.set(n, median(runs.map((r) => r.peak)));
      const r = runs[0]!;
      notes.push(`${n}: peaks ${runs.map((x) => mb(x.peak)).join('/')}, base ${mb(r.base)}, ${r.live} live, ${r.actions} actions, plan ${median(runs.map((x) => x.planMs)).toFixed(0)} ms`);
    }
    const [a, b, c] = SIZES.map((n) => peaks.get(n)!) as [number, number, number];
    const slopeLow = (b - a) / (SIZES[1] - SIZES[0]);
    const slopeHigh = (c - b) / (SIZES[2] - SIZES[1]);
    const linearity = slopeHigh / slopeLow;
    const figures: Figure[] = [
      {
        name: 'plan-rss-20k',
        values: [['5k', mb(a)], ['10k', mb(b)], ['20k', mb(c)], ['limit', mb(LIMIT)]],
        ratio: c / LIMIT,
        target: '<= 1.00x of 300 MB',
        ok: c <= LIMIT,
        note: notes.join('; '),
      },
      {
        name: 'plan-rss-linearity',
        values: [['slope 5k-10k', `${kb(slopeLow)}/resource`], ['slope 10k-20k', `${kb(slopeHigh)}/resource`]],
        ratio: linearity,
        target: '<= 1.25x',
        ok: linearity <= 1.25,
        note: 'ratio = per-resource RSS growth from 10k to 20k over that from 5k to 10k (1.0 = linear)',
      },
    ];
    return figures;
  },
};
