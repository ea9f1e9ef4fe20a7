// Benchmark 4: loading, schema-checking and resolving 10,000 documents in 200 files, against reading and
// parsing the same files with `yaml` alone. Target: <= 2x.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { loadDesired } from '../src/pipeline.ts';
import { STACK } from './lib/seed.ts';
import type { Benchmark } from './lib/context.ts';
import { ms, spread } from './lib/figure.ts';
import { generateDocs, writeManifests } from './lib/generate.ts';
import { interleaved, median, reps } from './lib/measure.ts';

const DOCS = 10_000;
const FILES = 200;

/** The baseline: every file read and parsed to plain data by `yaml`, nothing else. */
async function yamlOnly(dir: string): Promise<number> {
  let docs = 0;
  for (const name of (await readdir(dir)).sort()) {
    const text = await readFile(join(dir, name), 'utf8');
    for (const doc of parseAllDocuments(text)) {
      if (doc.toJS() !== null) docs++;
    }
  }
  return docs;
}

/** A lower floor, for the notes: `yaml`'s document trees only, not even converted to plain data. */
async function yamlTreesOnly(dir: string): Promise<void> {
  for (const name of (await readdir(dir)).sort()) parseAllDocuments(await readFile(join(dir, name), 'utf8'));
}

export const validateScale: Benchmark = {
  name: 'validate-scale',
  id: 4,
  title: `load + schema-check + resolve ${DOCS} documents in ${FILES} files vs yaml parse`,
  async run(ctx) {
    const dir = join(ctx.tmp, 'validate-manifests');
    await writeManifests(dir, generateDocs(DOCS), FILES);
    const parsed = await yamlOnly(dir);
    const loaded = (await loadDesired([dir], undefined, { stack: STACK })).resources.length;
    if (parsed !== DOCS || loaded !== DOCS) throw new Error(`expected ${DOCS} documents, yaml saw ${parsed}, edgeops ${loaded}`);
    const s = await interleaved(
      { yaml: () => yamlOnly(dir), trees: () => yamlTreesOnly(dir), edgeops: () => loadDesired([dir], undefined, { stack: STACK }) },
      reps(2, 9),
    );
    const y = median(s.yaml);
    const e = median(s.edgeops);
    const ratio = e / y;
    return [
      {
        name: 'validate-scale',
        values: [['yaml', ms(y)], ['validate', ms(e)]],
        ratio,
        target: '<= 2x',
        ok: ratio <= 2,
        note:
          `${DOCS} documents in ${FILES} files; yaml = readFile + parseAllDocuments + toJS, ${spread(s.yaml)}; ` +
          `validate = loadDesired (load with positions, ajv, rules, resolve), ${spread(s.edgeops)}; ` +
          `yaml trees without toJS take ${median(s.trees).toFixed(1)} ms (validate ${(e / median(s.trees)).toFixed(2)}x that)`,
      },
    ];
  },
};
