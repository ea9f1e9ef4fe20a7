// Loading equivalence: the corpus of valid and invalid manifests loads to exactly what the loader gave before
// it learned to read the common subset of YAML directly (test/fixtures/loading/golden.json was written by that
// loader; regenerate with UPDATE_GOLDEN=1 only for an intended change of messages). Documents with their
// positions and key positions, messages with file:line:col, and the resolved desired state are compared as text.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue, ManifestError } from '../../src/errors.ts';
import { loadManifests, readDesiredState } from '../../src/manifest/read-desired.ts';
import { keyPos } from '../../src/manifest/pointer.ts';

const root = join(import.meta.dirname, '..', '..');
const corpus = join('test', 'fixtures', 'loading');
const goldenFile = join(root, corpus, 'golden.json');

/** Each case: the paths of one run, relative to the repository root. */
const CASES: string[][] = [
  ...readdirSync(join(root, corpus)).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => [join(corpus, f)]),
  [corpus],
  ['test/fixtures/manifests/valid'],
  ['test/fixtures/manifests/broken'],
  ['examples/basic'],
  ['examples/tls'],
  ['examples/full'],
];
/** Cases whose documents read secret files that only exist after examples/make-certs.mjs: loaded, not resolved. */
const UNRESOLVED = new Set(['examples/tls', 'examples/full']);

async function outcome(paths: string[]): Promise<string> {
  const loaded = loadManifests(paths, { cwd: root });
  const docs = loaded.docs.map((d) => ({
    kind: d.kind,
    name: d.name,
    fields: d.fields,
    pos: d.pos,
    dir: d.dir.slice(root.length),
    positions: [...d.positions],
    keys: [...d.positions.keys()].map((p) => [p, keyPos(d, p)]),
  }));
  const lines = [JSON.stringify({ docs, config: loaded.config, issues: loaded.issues.map(formatIssue) })];
  if (!UNRESOLVED.has(paths[0]!)) {
    try {
      const desired = await readDesiredState(paths, { cwd: root, env: { EDGEOPS_TEST_SECRET: 'x' } });
      lines.push(JSON.stringify(desired));
    } catch (err) {
      if (!(err instanceof ManifestError)) throw err;
      lines.push(JSON.stringify(err.issues.map(formatIssue)));
    }
  }
  return lines.join('\n');
}

describe('loading equivalence with the loader before the common-subset reader', () => {
  it('gives byte-identical documents, positions, messages and desired state for every case of the corpus', async () => {
    const now: Record<string, string> = {};
    for (const paths of CASES) now[paths.join(' ')] = await outcome(paths);
    if (process.env.UPDATE_GOLDEN) writeFileSync(goldenFile, `${JSON.stringify(now, null, 1)}\n`);
    expect(existsSync(goldenFile)).toBe(true);
    const golden = JSON.parse(readFileSync(goldenFile, 'utf8')) as Record<string, string>;
    expect(Object.keys(now)).toEqual(Object.keys(golden));
    for (const key of Object.keys(golden)) expect(now[key], key).toBe(golden[key]);
  });
});
