// The results table for the README: one row per figure, the machine underneath.
import type { Benchmark } from './context.ts';
import { ratioText, type Figure } from './figure.ts';
import type { Machine } from './machine.ts';
import type { SeedSet } from './seed.ts';

export async function renderMarkdown(
  m: Machine,
  results: { bench: Benchmark; figures: Figure[]; error?: string; load?: [number, number] }[],
  seeds: Promise<SeedSet>[],
): Promise<string> {
  const rows = results.flatMap(({ bench, figures, error }) =>
    error
      ? [`| ${bench.id} | ${bench.name} | error: ${error.split('\n')[0]!.replace(/\|/g, '\\|')} | | | |`]
      : figures.map(
          (f) => `| ${bench.id} | ${f.name} | ${f.values.map(([l, v]) => `${l} ${v}`).join(', ')} | **${ratioText(f.ratio)}** | ${f.target} | ${f.ok ? 'met' : 'missed'} |`,
        ),
  );
  const notes = results.flatMap(({ figures }) => figures.filter((f) => f.note).map((f) => `- \`${f.name}\`: ${f.note}`));
  const loads = results
    .filter((r) => r.load)
    .map((r) => `${r.bench.name} ${r.load![0].toFixed(2)}->${r.load![1].toFixed(2)}`)
    .join(', ');
  return Promise.all(seeds.map((s) => s.catch(() => undefined))).then((sets) => {
    const seeded = sets
      .filter((s): s is SeedSet => s !== undefined)
      .map((s) => `- seeded ${s.count} resources through plan + apply (concurrency 16) in ${(s.seedMs / 1000).toFixed(1)} s` +
        (s.residualActions ? `; ${s.residualActions} actions remained afterwards` : '; the next plan had no actions'));
    return [
      '| # | figure | measured (median) | ratio | target | |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Machine: ${m.nproc} CPUs (\`nproc\`), ${m.cpu}, ${m.memory} RAM, Node ${m.node}, ${m.platform}.`,
      `1-minute load average before->after each benchmark: ${loads}.`,
      '',
      ...notes,
      ...seeded,
      '',
    ].join('\n');
  });
}
