// Benchmark 6: peak RSS of a plan (load manifests + fetch + diff, in a fresh process) at 5,000, 10,000 and
// 20,000 resources. Targets: under 300 MB at 20,000, and growth at most linear: the RSS added per resource
// from 10k to 20k is no more than the average RSS per resource (above the process's base) at 10k. A fixed
// cost plus a linear part gives a ratio below 1; quadratic growth gives about 3. Slopes over 10k resources
// rather than 5k keep GC timing noise (a few MB either way) small against the signal.
// Two measurements of the same plan: the child (plan-memory-child.ts, under tsx) reports where the peak comes
// from (base, after load, heap retained), and its base includes tsx's own transform; `edgeops plan` as a user
// runs it (the built CLI, one whole process) gives the figure the 300 MB limit is for.
import { join } from 'node:path';
import type { Benchmark } from './lib/context.ts';
import { cliEntry, expectExit, timeEdgeops } from './lib/cli.ts';
import { benchDir, benchScript, spawnTs } from './lib/child.ts';
import { mb, type Figure } from './lib/figure.ts';
import { median, reps } from './lib/measure.ts';
import { startSeeded, STACK } from './lib/seed.ts';

const SIZES = [5000, 10_000, 20_000] as const;
const LIMIT = 300e6;

interface ChildReport {
  base: number;
  /** High-water mark after loading the manifests, before the plan. */
  afterLoad: number;
  peak: number;
  /** Heap in use after the plan and a full GC. */
  retained: number;
  planMs: number;
  resources: number;
  live: number;
  actions: number;
}

/** The peak RSS of one whole `edgeops plan` process, as the reporter loaded ahead of it writes it at exit. */
async function cliPeak(service: { url: string; apiKey: string }, dir: string): Promise<number> {
  const run = expectExit(
    await timeEdgeops(['plan', dir, '--stack', STACK], {
      nodeArgs: ['--import', join(benchDir, 'lib', 'peak-rss-reporter.mjs')],
      env: { EDGEOPS_API_URL: service.url, EDGEOPS_API_KEY: service.apiKey, NO_COLOR: '1' },
    }),
    [0, 2],
    'edgeops plan',
  );
  const m = /^bench-peak-rss (\d+)$/m.exec(run.stderr);
  if (!m) throw new Error('edgeops plan reported no peak RSS (not Linux?)');
  return Number(m[1]);
}

async function measure(ctx: Parameters<Benchmark['run']>[0], count: number): Promise<{ child: ChildReport[]; cli: number[] }> {
  const set = await ctx.seeded(count);
  const service = await startSeeded(set, ctx.tmp);
  try {
    const cli: number[] = [];
    for (let i = 0; i < reps(0, 3).reps; i++) cli.push(await cliPeak(service, set.manifestDir));
    const out: ChildReport[] = [];
    for (let i = 0; i < reps(0, 3).reps; i++) {
      const child = spawnTs(benchScript('plan-memory-child.ts'), ['--url', service.url, '--key', service.apiKey, '--dir', set.manifestDir, '--stack', STACK], {
        nodeArgs: ['--expose-gc'],
      });
      try {
        out.push(await child.next<ChildReport>());
      } finally {
        await child.stop();
      }
    }
    return { child: out, cli };
  } finally {
    await service.stop();
  }
}

const kb = (bytes: number) => `${(bytes / 1e3).toFixed(1)} kB`;

export const planMemory: Benchmark = {
  name: 'plan-memory',
  id: 6,
  title: 'peak RSS of plan at 5,000, 10,000 and 20,000 resources',
  async run(ctx) {
    const peaks = new Map<number, number>();
    const cliPeaks = new Map<number, number>();
    const bases: number[] = [];
    const notes: string[] = [];
    const cliNotes: string[] = [];
    for (const n of SIZES) {
      const { child: runs, cli } = await measure(ctx, n);
      peaks.set(n, median(runs.map((r) => r.peak)));
      cliPeaks.set(n, median(cli));
      cliNotes.push(`${n}: ${cli.map(mb).join('/')}`);
      bases.push(...runs.map((r) => r.base));
      const r = runs[0]!;
      notes.push(
        `${n}: peaks ${runs.map((x) => mb(x.peak)).join('/')}, base ${mb(r.base)}, after load ${mb(median(runs.map((x) => x.afterLoad)))}, heap retained after GC ${mb(median(runs.map((x) => x.retained)))}, ` +
          `${r.live} live, ${r.actions} actions, plan ${median(runs.map((x) => x.planMs)).toFixed(0)} ms`,
      );
    }
    const [a, b, c] = SIZES.map((n) => peaks.get(n)!) as [number, number, number];
    const [ca, cb, cc] = SIZES.map((n) => cliPeaks.get(n)!) as [number, number, number];
    const base = median(bases);
    const avg10k = (b - base) / SIZES[1];
    const marginal = (c - b) / (SIZES[2] - SIZES[1]);
    const linearity = marginal / avg10k;
    const figures: Figure[] = [
      {
        name: 'plan-rss-20k',
        values: [['5k', mb(ca)], ['10k', mb(cb)], ['20k', mb(cc)], ['limit', mb(LIMIT)]],
        ratio: cc / LIMIT,
        target: '<= 1.00x of 300 MB',
        ok: cc <= LIMIT,
        note: `whole \`edgeops plan\` processes (${cliEntry()}), peaks ${cliNotes.join('; ')}`,
      },
      {
        name: 'plan-rss-20k/in-harness',
        values: [['5k', mb(a)], ['10k', mb(b)], ['20k', mb(c)], ['limit', mb(LIMIT)]],
        ratio: c / LIMIT,
        target: 'reported',
        ok: true,
        note: `the same plan in plan-memory-child.ts under tsx (its base includes tsx): ${notes.join('; ')}`,
      },
      {
        name: 'plan-rss-linearity',
        values: [['base', mb(base)], ['per resource at 10k', kb(avg10k)], ['added per resource 10k-20k', kb(marginal)]],
        ratio: linearity,
        target: '<= 1.10x',
        ok: linearity <= 1.1,
        note:
          `ratio = RSS added per resource from 10k to 20k over the average RSS per resource above base at 10k ` +
          `(< 1: fixed cost + linear; ~3: quadratic); 5k-10k added ${kb((b - a) / (SIZES[1] - SIZES[0]))} per resource`,
      },
    ];
    return figures;
  },
};
