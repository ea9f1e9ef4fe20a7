// Random mutations of a valid manifest set: the manifest pipeline never crashes. Every outcome is either a valid
// desired state or a ManifestError whose every issue has a real position (file:line:col) in a file of the set.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestError } from '../../src/errors.ts';
import { readDesiredState } from '../../src/manifest/read-desired.ts';
import { writeTree } from './tree.ts';
import { makeCert } from '../helpers/certs.ts';

const validRoot = join(import.meta.dirname, '../fixtures/manifests/valid');
const seed = Number(process.env.FUZZ_SEED ?? 20261121);
const rounds = Number(process.env.FUZZ_ROUNDS ?? 300);
const leaf = await makeCert();
const env = { FIXTURE_CERT: leaf.certPem, FIXTURE_KEY: leaf.keyPem };

function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** mulberry32: a small seeded PRNG, so a failing seed can be replayed with FUZZ_SEED. */
function prng(s: number): () => number {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const junk = ['', ' ', ':', '- ', '{', '}', '[', ']', '"', "'", '&a', '*a', '!!binary', '~', 'null', '0x1F', '1e999',
  '\t', '#', '---', '...', 'kind: TCPEdge', 'name: Bad_Name', 'backend_id: nope', '{file: /nonexistent}', '{env: NOPE_VAR}',
  'x'.repeat(5000), '\u0000', '\ufeff', '🙂', '<<: *a', '? complex'];

function mutate(text: string, rnd: () => number): string {
  const lines = text.split('\n');
  const pick = (n: number) => Math.floor(rnd() * n);
  const i = pick(lines.length);
  switch (pick(8)) {
    case 0: lines.splice(i, 1); break; // drop a line
    case 1: lines.splice(i, 0, junk[pick(junk.length)]!); break; // insert junk
    case 2: lines[i] = ' '.repeat(pick(6)) + lines[i]!.trimStart(); break; // break indentation
    case 3: { const j = pick(lines.length); [lines[i], lines[j]] = [lines[j]!, lines[i]!]; break; } // swap lines
    case 4: lines[i] = lines[i]!.replace(/: .*/, `: ${junk[pick(junk.length)]}`); break; // replace a value
    case 5: lines.splice(i, 0, lines[i]!); break; // duplicate a line (duplicate keys)
    case 6: return text.slice(0, pick(text.length)); // truncate
    default: { const at = pick(text.length); return text.slice(0, at) + junk[pick(junk.length)] + text.slice(at); }
  }
  return lines.join('\n');
}

describe('manifest fuzz', () => {
  const base = filesOf(validRoot);
  const yamlFiles = Object.keys(base).filter((f) => /\.ya?ml$/.test(f));

  it('the unmutated set is valid (the fuzz starts from a valid point)', async () => {
    const state = await readDesiredState(['.'], { cwd: writeTree(base), env });
    expect(state.resources.length).toBeGreaterThan(5);
  });

  it(`never crashes: ${rounds} mutated sets (seed ${seed}) give a valid state or positioned errors`, async () => {
    const rnd = prng(seed);
    let errors = 0;
    for (let round = 0; round < rounds; round++) {
      const files = { ...base };
      for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) {
        const f = yamlFiles[Math.floor(rnd() * yamlFiles.length)]!;
        files[f] = mutate(files[f]!, rnd);
      }
      const cwd = writeTree(files);
      const outcome = await readDesiredState(['.'], { cwd, env }).then(() => undefined, (e: unknown) => e);
      if (outcome === undefined) continue;
      errors++;
      expect(outcome, `round ${round}: ${String(outcome)}`).toBeInstanceOf(ManifestError);
      for (const issue of (outcome as ManifestError).issues) {
        expect(issue.pos.line, `round ${round}: ${issue.message}`).toBeGreaterThanOrEqual(1);
        expect(issue.pos.col).toBeGreaterThanOrEqual(1);
        expect(Object.keys(files).concat('.')).toContain(issue.pos.file);
      }
    }
    // Most mutations break something; if none did, the mutator is not doing its job.
    expect(errors).toBeGreaterThan(rounds / 4);
  });
});
