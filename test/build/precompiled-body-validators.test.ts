// The built CLI and the Action check request bodies with ajv's standalone code of the contract's body schemas,
// generated at build time (scripts/build.ts), instead of compiling them on each run. Both must judge every body
// alike: the same error objects (body-check.ts words them, the custom keywords' problems included) and the same
// reported problem, on every body schema of the contract and many broken variants of each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompile, ROOT } from '../../scripts/build.ts';
import * as source from '../../src/contract/body-check.ts';
import { compileBody } from '../../src/contract/body-compile.ts';
import { contractBodies, type BodySchema } from '../../src/contract/index.ts';

interface Bundle {
  bodyProblem: typeof source.bodyProblem;
  withoutNulls: typeof source.withoutNulls;
  compileBody: typeof compileBody;
  contractBodies: typeof contractBodies;
}

const temp = mkdtempSync(join(tmpdir(), 'edgeops-precompiled-bodies-'));
let pre: Bundle;

beforeAll(async () => {
  const outfile = join(temp, 'bodies.mjs');
  await build({
    stdin: {
      contents: [
        "export { bodyProblem, withoutNulls } from './body-check.ts';",
        "export { compileBody } from './body-compile.ts';",
        "export { contractBodies } from './index.ts';",
      ].join('\n'),
      resolveDir: resolve(ROOT, 'src/contract'),
      loader: 'ts',
    },
    bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'warning', plugins: [precompile],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  pre = (await import(pathToFileURL(outfile).href)) as Bundle;
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const STRINGS = [
  '', 'x', '10.0.0.0/8', '10.0.0.1/8', 'a.example.com:443', '1.2.3:443', 'a b', 'x\r\ny', '/path', 'Bad Event', 'é'.repeat(2100),
  'on_http_request:\n  - actions:\n      - type: deny\n',
];
// Infinity: YAML's .inf reaches the manifest side's contract check.
const OTHERS = [12345, -1, 1.5, Infinity, true, null, { a: 1 }];
const LISTS = (item: unknown): unknown[] => [[], [item, item], ['a.example.com:443', 'A.EXAMPLE.com:443'], ['X-A', 'x-a'], ['x', 7]];
const MAPS = [{ 'X-A': '1', 'x-a': '2' }, { '': 'x' }, { 'a b': '1' }, { a: 'x\r\ny' }];

/** A value of `schema`'s shape with every field present: what the variants break one place at a time. */
function sample(schema: BodySchema, depth = 0): unknown {
  const type = Array.isArray(schema.type) ? 'object' : schema.type;
  if (schema.enum) return schema.enum[0];
  if (type === 'integer') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return schema.items ? [sample(schema.items, depth + 1)] : [];
  if (type === 'object') {
    if (!schema.properties) return { 'X-Key': 'v' };
    if (depth > 4) return {};
    return Object.fromEntries(Object.entries(schema.properties).filter(([, s]) => s.refused === undefined).map(([k, s]) => [k, sample(s, depth + 1)]));
  }
  const good: Partial<Record<string, string>> = { cidr: '10.0.0.0/8', hostport: 'a.example.com:443', event_type: 'ip_policy_created.v0', url_path: '/x' };
  return good[schema.rule ?? ''] ?? 'x';
}

/** `body` with the value at `path` replaced (undefined: dropped). */
function withAt(body: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const obj = { ...(body as Record<string, unknown>) };
  const next = withAt(obj[head], rest, value);
  if (next === undefined) delete obj[head];
  else obj[head] = next;
  return obj;
}

/** Every field path of `schema`'s fixed-shape objects, with its schema. */
function fields(schema: BodySchema, path: string[] = []): [string[], BodySchema][] {
  if (path.length > 5 || !schema.properties) return [];
  return Object.entries(schema.properties).flatMap(([k, s]): [string[], BodySchema][] => [[[...path, k], s], ...fields(s, [...path, k])]);
}

function variants(schema: BodySchema): unknown[] {
  const base = sample(schema);
  const out: unknown[] = [base, {}, { ...(base as object), surprise: true }, [], 'x'];
  for (const [path, field] of fields(schema)) {
    const item = field.items ? sample(field.items) : 'x';
    for (const value of [undefined, ...STRINGS, ...OTHERS, ...LISTS(item), ...MAPS, { ...(sample(field) as object), surprise: 1 }]) {
      out.push(withAt(base, path, value));
    }
  }
  return out;
}

/** The verdict and every error object, as JSON (comparing strings keeps thousands of bodies quick). */
function judge(validate: ValidateFunction, body: unknown): string {
  const valid = validate(body);
  return JSON.stringify({ valid, errors: validate.errors ?? null });
}

describe('precompiled contract body validators', () => {
  it('exist for every body schema of the contract, in the same order', () => {
    expect(pre.contractBodies().map(([name]) => name)).toEqual(contractBodies().map(([name]) => name));
    for (const [name, schema] of pre.contractBodies()) expect(() => pre.compileBody(schema), name).not.toThrow();
  });

  it('judge every body and every broken variant exactly as the run-time compiled ones, down to the message', () => {
    const bundled = pre.contractBodies();
    let compared = 0;
    const codes = new Set<string>();
    for (const [i, [name, schema]] of contractBodies().entries()) {
      const preSchema = bundled[i]![1];
      for (const body of variants(schema)) {
        const label = `${name} ${JSON.stringify(body).slice(0, 300)}`;
        const expected = judge(compileBody(schema), source.withoutNulls(body, schema));
        if (judge(pre.compileBody(preSchema), pre.withoutNulls(body, preSchema)) !== expected) {
          expect(judge(pre.compileBody(preSchema), pre.withoutNulls(body, preSchema)), label).toEqual(expected);
        }
        const problem = source.bodyProblem(schema, source.withoutNulls(body, schema), 'base');
        expect(pre.bodyProblem(preSchema, pre.withoutNulls(body, preSchema), 'base'), label).toEqual(problem);
        compared++;
        if (problem) codes.add(problem.code);
      }
    }
    expect(compared).toBeGreaterThan(4000);
    // The custom keywords' problems are among those compared, not only ajv's own.
    for (const code of ['ERR_HOSTPORT_DUPLICATE', 'ERR_HEADER_DUPLICATE', 'ERR_HEADER_NAME_INVALID', 'ERR_CIDR_HOST_BITS_SET', 'ERR_DESCRIPTION_TOO_LONG', 'ERR_MAP_KEY_INVALID']) {
      expect(codes, code).toContain(code);
    }
  });
});
