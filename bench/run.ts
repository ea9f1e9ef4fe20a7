// `npm run bench` runs every benchmark; `npm run bench -- <name|number>...` runs some of them.
// Prints one line per figure (ratio last) on stdout, progress on stderr. `--md FILE` also writes the
// results table with the machine it ran on; `--json FILE` the raw figures; `--node 24` runs under Node 24.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fetchNode } from '../scripts/fetch-node.ts';
import { applyConcurrency } from './apply-concurrency.ts';
import { applyProcess } from './apply-process.ts';
import { loadSpeed } from './load-speed.ts';
import { npmInstall } from './npm-install.ts';
import { planProcess } from './plan-process.ts';
import { startup } from './startup.ts';
import type { BenchContext, Benchmark } from './lib/context.ts';
import { formatFigure, type Figure } from './lib/figure.ts';
import { load1, machine } from './lib/machine.ts';
import { renderMarkdown } from './lib/markdown.ts';
import { seed, type SeedSet } from './lib/seed.ts';
import { planFloor } from './plan-floor.ts';
import { planMemory } from './plan-memory.ts';
import { planRefresh } from './plan-refresh.ts';
import { serviceScale } from './service-scale.ts';
import { serviceThroughput } from './service-throughput.ts';
import { sqliteDrivers } from './sqlite-drivers.ts';
import { validateScale } from './validate-scale.ts';

export const BENCHMARKS: readonly Benchmark[] = [
  planFloor, planRefresh, applyConcurrency, validateScale, serviceThroughput, planMemory,
  planProcess, applyProcess, startup, npmInstall, loadSpeed, serviceScale, sqliteDrivers,
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { md: { type: 'string' }, json: { type: 'string' }, list: { type: 'boolean' }, quick: { type: 'boolean' }, node: { type: 'string' } },
});

// --node 24: the whole run under that Node (fetched from the npm registry, scripts/fetch-node.ts), every process
// it starts included: users run Node 22 and 24, whose start-up and compilers differ from the machine's Node.
if (values.node && values.node !== process.versions.node.split('.')[0]) {
  const bin = await fetchNode(Number(values.node));
  const args = [...positionals, ...(values.md ? ['--md', values.md] : []), ...(values.json ? ['--json', values.json] : []), ...(values.quick ? ['--quick'] : []), ...(values.list ? ['--list'] : [])];
  const child = spawnSync(bin, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

// --quick: one repetition and the small sizes, a smoke run (the same as BENCH_QUICK=1).
if (values.quick) process.env.BENCH_QUICK = '1';

if (values.list) {
  for (const b of BENCHMARKS) console.log(`${b.id}  ${b.name.padEnd(22)} ${b.title}`);
  process.exit(0);
}

const selected = positionals.length
  ? positionals.map((p) => {
      const b = BENCHMARKS.find((x) => x.name === p || String(x.id) === p) ?? BENCHMARKS.find((x) => x.name.startsWith(p));
      if (!b) throw new Error(`unknown benchmark "${p}"; known: ${BENCHMARKS.map((x) => x.name).join(', ')}`);
      return b;
    })
  : BENCHMARKS;

const tmp = await mkdtemp(join(tmpdir(), 'edgeops-bench-'));
// The compiled code edgeops keeps between runs starts empty in every bench run, inherited by every process it
// starts: each figure's warm-up run writes what its timed runs read, as a user's first run does.
if (!process.env.NODE_DISABLE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = join(tmp, 'compile-cache');
const seeds = new Map<number, Promise<SeedSet>>();
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
const ctx: BenchContext = {
  tmp,
  log,
  seeded(count) {
    let s = seeds.get(count);
    if (!s) seeds.set(count, (s = seed(tmp, count, log)));
    return s;
  },
};

const m = machine();
log(`${m.nproc} CPUs (${m.cpu}), node ${m.node}, scratch ${tmp}`);
const results: { bench: Benchmark; figures: Figure[]; error?: string; load?: [number, number] }[] = [];
for (const bench of selected) {
  const loadBefore = load1();
  log(`${bench.id}. ${bench.title} (load average ${loadBefore.toFixed(2)} on ${m.nproc} CPUs)`);
  if (loadBefore > m.nproc / 2) log(`   warning: the machine is busy; figures will be noisy`);
  try {
    const figures = await bench.run(ctx);
    const load: [number, number] = [loadBefore, load1()];
    for (const f of figures) {
      console.log(formatFigure(f));
      if (f.note) log(`   ${f.note}`);
    }
    results.push({ bench, figures, load });
  } catch (err) {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    console.log(`${bench.name}  ERROR ${message.split('\n')[0]}`);
    log(message);
    results.push({ bench, figures: [], error: message });
  }
}

if (values.md) await writeFile(values.md, await renderMarkdown(m, results, [...seeds.values()]));
if (values.json) await writeFile(values.json, `${JSON.stringify({ machine: m, results: results.map((r) => ({ name: r.bench.name, figures: r.figures, error: r.error })) }, null, 2)}\n`);
if (!process.env.BENCH_KEEP) await rm(tmp, { recursive: true, force: true });
process.exitCode = results.some((r) => r.error || r.figures.some((f) => !f.ok)) ? 1 : 0;
