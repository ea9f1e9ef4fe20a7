// Benchmark 9: start-up as a user feels it: `edgeops --version` and `edgeops validate examples/full` against
// `node -e 0` (the least a Node program costs), paired: medians of whole-process times, and each ratio the
// median of the rounds' own ratios. A command's first run (no compiled code kept yet: after an install or an
// upgrade, or in a fresh container) is reported beside: validate with an empty compile cache every time.
import { cp, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { cliEntry, expectExit, repoRoot, timeEdgeops, timeProcess } from './lib/cli.ts';
import type { Benchmark } from './lib/context.ts';
import { ms, spread, type Figure } from './lib/figure.ts';
import { median, pairedRatio } from './lib/measure.ts';

export const startup: Benchmark = {
  name: 'startup',
  id: 9,
  title: 'edgeops --version and validate examples/full vs node -e 0',
  async run(ctx) {
    const reps = process.env.BENCH_QUICK ? 1 : 9; // at least 5 alternated rounds
    const node = () => timeProcess(process.execPath, ['-e', '0']);
    const version = () => timeEdgeops(['--version']);
    // A copy of examples/full with its certificates made (they are never committed), so validate reads them.
    const full = join(ctx.tmp, 'examples-full');
    await cp(join(repoRoot, 'examples', 'full'), full, { recursive: true });
    expectExit(await timeProcess(process.execPath, [join(repoRoot, 'examples', 'make-certs.mjs'), full]), [0], 'make-certs');
    const validate = () => timeEdgeops(['validate', full]);
    const firstRun = async () => timeEdgeops(['validate', full], { env: { NODE_COMPILE_CACHE: await mkdtemp(join(ctx.tmp, 'first-run-')) } });
    const s: Record<'node' | 'version' | 'validate' | 'first', number[]> = { node: [], version: [], validate: [], first: [] };
    await node();
    expectExit(await version(), [0], 'edgeops --version');
    expectExit(await validate(), [0], 'edgeops validate');
    for (let i = 0; i < reps; i++) {
      s.node.push((await node()).ms);
      s.version.push(expectExit(await version(), [0], 'edgeops --version').ms);
      s.validate.push(expectExit(await validate(), [0], 'edgeops validate').ms);
      s.first.push(expectExit(await firstRun(), [0], 'edgeops validate, first run').ms);
    }
    const n = median(s.node);
    const v = median(s.version);
    const val = median(s.validate);
    const note = `node -e 0 ${spread(s.node)}; ratios = medians of the per-round ratios; entry ${cliEntry()}`;
    const versionRatio = pairedRatio(s.version, s.node);
    const validateRatio = pairedRatio(s.validate, s.node);
    const figures: Figure[] = [
      { name: 'startup/version', values: [['node -e 0', ms(n)], ['edgeops --version', ms(v)]], ratio: versionRatio, target: '<= 2.5x', ok: versionRatio <= 2.5, note: `${note}; --version ${spread(s.version)}` },
      {
        name: 'startup/validate-full',
        values: [['node -e 0', ms(n)], ['edgeops validate examples/full', ms(val)]],
        ratio: validateRatio,
        target: '<= 2.5x',
        ok: validateRatio <= 2.5,
        note: `validate ${spread(s.validate)}`,
      },
      {
        name: 'startup/validate-full-first-run',
        values: [['node -e 0', ms(n)], ['edgeops validate examples/full, no compiled code kept', ms(median(s.first))]],
        ratio: pairedRatio(s.first, s.node),
        target: 'reported',
        ok: true,
        note: `first run ${spread(s.first)}; it writes the cache the next run reads`,
      },
    ];
    return figures;
  },
};
