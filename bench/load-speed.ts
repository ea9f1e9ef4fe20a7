// Benchmark 11: reading 5,000 manifest documents (100 files) cold, in fresh processes, with positions:
// yaml's document API (how every file was read before) vs the loader's common-subset reader. Paired: the two
// alternate. Target: the loader at least 3x faster.
import { join } from 'node:path';
import { benchScript, spawnTs } from './lib/child.ts';
import type { Benchmark } from './lib/context.ts';
import { ms, spread } from './lib/figure.ts';
import { generateDocs, writeManifests } from './lib/generate.ts';
import { median } from './lib/measure.ts';

const DOCS = 5000;

async function once(mode: 'yaml' | 'common', dir: string): Promise<number> {
  const child = spawnTs(benchScript('load-child.ts'), [mode, dir]);
  const out = await child.next<{ ms: number; docs: number }>(120_000);
  await child.stop();
  if (out.docs !== DOCS) throw new Error(`${mode} read ${out.docs} documents, not ${DOCS}`);
  return out.ms;
}

export const loadSpeed: Benchmark = {
  name: 'load-speed',
  id: 11,
  title: `reading ${DOCS} documents cold with positions: yaml's document API vs the common-subset reader`,
  async run(ctx) {
    const dir = join(ctx.tmp, 'load-speed');
    await writeManifests(dir, generateDocs(DOCS), 100);
    const s = { yaml: [] as number[], common: [] as number[] };
    for (let i = 0; i < (process.env.BENCH_QUICK ? 1 : 7); i++) {
      s.yaml.push(await once('yaml', dir));
      s.common.push(await once('common', dir));
    }
    const y = median(s.yaml);
    const c = median(s.common);
    return [
      {
        name: 'load-speed',
        values: [['yaml documents', ms(y)], ['loader', ms(c)]],
        ratio: y / c,
        target: '>= 3x',
        ok: y / c >= 3,
        note: `${DOCS} documents in 100 files, each run a fresh process; yaml ${spread(s.yaml)}; loader ${spread(s.common)}`,
      },
    ];
  },
};
