// The built CLI validates with ajv's standalone code generated at build time (scripts/build.ts) instead of
// compiling the schemas on each run. Both must judge every document alike, down to each error object, which
// messages.ts words: the manifests of the examples and fixtures, and many broken variants of each.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { build } from 'esbuild';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precomputedSchemaFacts, precompiledValidators, ROOT } from '../../scripts/build.ts';
import { compileSchema } from '../../src/manifest/schema/compile.ts';
import { kindFacts, schemaFacts } from '../../src/manifest/schema/facts.ts';
import { kindSchemas } from '../../src/manifest/schema/kinds.ts';
import { projectSchema } from '../../src/manifest/schema/project.ts';
import { PROJECT_KEY } from '../../src/manifest/schema.ts';
import { filesUnder } from '../helpers/source-files.ts';

type Doc = Record<string, unknown>;

const yamlFiles = (dir: string): string[] => filesUnder(dir, /\.ya?ml$/);

const corpus: Doc[] = [join(ROOT, 'examples'), join(ROOT, 'test/fixtures/manifests')]
  .flatMap(yamlFiles)
  .flatMap((file) => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as unknown))
  .filter((d): d is Doc => typeof d === 'object' && d !== null && !Array.isArray(d));

/** Each field of `doc`, one at a time, replaced by values of every JSON type, dropped, and joined by an unknown field. */
function variants(doc: Doc): Doc[] {
  const out: Doc[] = [doc, { ...doc, surprise: true }];
  for (const key of Object.keys(doc)) {
    const { [key]: _dropped, ...rest } = doc;
    out.push(rest);
    for (const value of [12345, -1, 'x', '', null, true, [], ['x', 7], {}, { a: 1 }]) out.push({ ...doc, [key]: value });
  }
  return out;
}

const temp = mkdtempSync(join(tmpdir(), 'edgeops-precompiled-'));
let precompiled: (key: string) => ValidateFunction;

beforeAll(async () => {
  const outfile = join(temp, 'validators.mjs');
  await build({
    stdin: { contents: precompiledValidators(), resolveDir: resolve(ROOT, 'src/manifest/schema'), loader: 'js' },
    bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'warning',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  precompiled = ((await import(pathToFileURL(outfile).href)) as { compileSchema: typeof precompiled }).compileSchema;
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function judge(validate: ValidateFunction, doc: Doc): unknown {
  const valid = validate(doc);
  return { valid, errors: structuredClone(validate.errors ?? null) };
}

describe('precompiled validators', () => {
  it('find a corpus of every kind', () => {
    const kinds = new Set(corpus.map((d) => d.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(10);
  });

  it('judge every document and every broken variant exactly as the compiled ones', () => {
    const schemas = kindSchemas();
    let compared = 0;
    let invalid = 0;
    for (const [kind, schema] of schemas) {
      const compiled = compileSchema(kind, () => schema);
      const pre = precompiled(kind);
      for (const doc of corpus.filter((d) => d.kind === kind).flatMap(variants)) {
        const expected = judge(compiled, doc);
        expect(judge(pre, doc), `${kind} ${JSON.stringify(doc)}`).toEqual(expected);
        compared++;
        if (!(expected as { valid: boolean }).valid) invalid++;
      }
    }
    expect(compared).toBeGreaterThan(500);
    expect(invalid).toBeGreaterThan(400);
  });

  it("write out every kind's schema facts as the sources read them, and none for a kind that is not one", async () => {
    const outfile = join(temp, 'facts.mjs');
    await build({ stdin: { contents: precomputedSchemaFacts(), loader: 'js' }, format: 'esm', outfile, logLevel: 'warning' });
    const built = ((await import(pathToFileURL(outfile).href)) as { kindFacts: typeof kindFacts }).kindFacts;
    const schemas = kindSchemas();
    expect(schemas.size).toBeGreaterThanOrEqual(10);
    for (const [kind, schema] of schemas) {
      expect(built(kind), kind).toEqual(schemaFacts(schema));
      expect(kindFacts(kind), kind).toEqual(schemaFacts(schema));
    }
    // Some kind has each fact, so the comparison above compares something.
    const all = [...schemas.keys()].map((kind) => built(kind)!);
    for (const fact of ['secretPointers', 'unsetPointers', 'headerPointers', 'policyPhases'] as const) expect(all.some((f) => f[fact].length > 0), fact).toBe(true);
    for (const missing of ['NoSuchKind', 'toString', '__proto__']) expect(built(missing)).toBeUndefined();
  });

  it("judge edgeops.yaml's settings alike too", () => {
    const compiled = compileSchema(PROJECT_KEY, projectSchema);
    const base: Doc = { stack: 'prod', max_deletes: 3, concurrency: 4 };
    for (const doc of variants(base)) expect(judge(precompiled(PROJECT_KEY), doc)).toEqual(judge(compiled, doc));
  });
});
