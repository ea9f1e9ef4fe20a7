// The validators are generated without ajv's verbose mode; withContext finds what verbose mode would have put in
// each error (the schema node whose keyword failed, the value the error is about) once validation has failed.
// Both ways must give the same: every kind's document schema and every contract body, each with many broken
// variants, validated by ajv with verbose mode on and off.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { newContractAjv } from '../../src/contract/body-compile.ts';
import { withContext } from '../../src/contract/error-context.ts';
import { contractBodies } from '../../src/contract/index.ts';
import { newAjv } from '../../src/manifest/schema/compile.ts';
import { kindSchemas } from '../../src/manifest/schema/kinds.ts';
import { projectSchema } from '../../src/manifest/schema/project.ts';
import { filesUnder } from '../helpers/source-files.ts';

type Doc = Record<string, unknown>;
const ROOT = join(import.meta.dirname, '../..');

const corpus: Doc[] = [join(ROOT, 'examples'), join(ROOT, 'test/fixtures/manifests')]
  .flatMap((dir) => filesUnder(dir, /\.ya?ml$/))
  .flatMap((file) => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as unknown))
  .filter((d): d is Doc => typeof d === 'object' && d !== null && !Array.isArray(d));

const WRONG = [12345, -1, 'x', '', 'Bad Name!', null, true, [], ['x', 7], {}, { a: 1 }, { 'Bad Key': 'v', ok: { file: 3 } }];

/** `doc`, and each of its fields (and each field's own fields) replaced by wrong values, dropped, or joined by an unknown one. */
function variants(doc: Doc): Doc[] {
  const out: Doc[] = [doc, { ...doc, surprise: true }];
  for (const key of Object.keys(doc)) {
    const { [key]: _dropped, ...rest } = doc;
    out.push(rest);
    for (const value of WRONG) out.push({ ...doc, [key]: value });
    const inner = doc[key];
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
      for (const sub of Object.keys(inner)) for (const value of WRONG) out.push({ ...doc, [key]: { ...inner, [sub]: value } });
    }
  }
  return out;
}

/** The errors of `value` by both validators: verbose mode's own, and withContext's of the plain one. */
function both(verbose: ValidateFunction, plain: ValidateFunction, schema: object, value: unknown): [ErrorObject[], ErrorObject[]] {
  expect(verbose(value)).toBe(plain(value));
  const strip = ({ schema: _schema, ...e }: ErrorObject): ErrorObject => e as ErrorObject;
  return [(verbose.errors ?? []).map(strip), withContext(plain.errors ?? [], schema, value)];
}

describe('errors without verbose mode, with their context found afterwards', () => {
  it('are those of verbose mode for every kind document and broken variant, and for edgeops.yaml', () => {
    const verboseAjv = newAjv({ verbose: true });
    const plainAjv = newAjv();
    let errors = 0;
    for (const [kind, schema] of [...kindSchemas(), ['project', projectSchema()] as const]) {
      const verbose = verboseAjv.compile(schema);
      const plain = plainAjv.compile(schema);
      const docs = kind === 'project' ? variants({ stack: 'prod', max_deletes: 3, concurrency: 4, max_deletes_per_kind: { TCPEdge: 1 } }) : corpus.filter((d) => d.kind === kind).flatMap(variants);
      for (const doc of docs) {
        const [expected, found] = both(verbose, plain, schema, doc);
        expect(found, `${kind} ${JSON.stringify(doc)}`).toEqual(expected);
        // The very nodes of the schema, as verbose mode gives them, not copies.
        found.forEach((e, i) => expect(e.parentSchema).toBe(expected[i]!.parentSchema));
        errors += found.length;
      }
    }
    expect(errors).toBeGreaterThan(2000);
  });

  it('are those of verbose mode for every contract body and broken variants of it', () => {
    const verboseAjv = newContractAjv({ verbose: true });
    const plainAjv = newContractAjv();
    let errors = 0;
    for (const [name, schema] of contractBodies()) {
      const verbose = verboseAjv.compile(schema);
      const plain = plainAjv.compile(schema);
      const fields = Object.keys(schema.properties ?? {});
      const base: Doc = Object.fromEntries(fields.map((f) => [f, 'x']));
      for (const body of [{}, ...variants(base), ...fields.map((f) => ({ [f]: { deeper: [1, { x: null }] } }))]) {
        const [expected, found] = both(verbose, plain, schema, body);
        expect(found, `${name} ${JSON.stringify(body)}`).toEqual(expected);
        errors += found.length;
      }
    }
    expect(errors).toBeGreaterThan(2000);
  });
});
