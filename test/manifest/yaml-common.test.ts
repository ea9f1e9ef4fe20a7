// The common-subset reader against yaml's document API, on generated documents: whenever the fast reader
// accepts a text, it must give exactly what yaml gives (values, value positions, key positions, in order); what
// it does not accept is left to yaml. Styles, indentation, comments and scalar spellings are drawn at random.
import { describe, expect, it } from 'vitest';
import { parseYamlText } from '../../src/manifest/parse.ts';
import { parseCommonYaml } from '../../src/manifest/parse/yaml-common.ts';
import { seededRandom } from '../../src/service/seeded-random.ts';

// Scalar spellings near every edge of the subset: numbers in every base, the core schema's null and bool words,
// YAML 1.1 words that are strings in 1.2, indicators, colons and hashes inside values, quotes and escapes.
const SCALARS = [
  'web', 'a b c', '0', '-1', '+2', '007', '1_000', '0x1F', '0o17', '0b1', '1.5', '.5', '1.', '1e3', '-1.5e-3', '1.0',
  '.inf', '-.Inf', '.nan', '1e400', 'null', 'Null', 'NULL', '~', 'true', 'True', 'TRUE', 'false', 'yes', 'no', 'on',
  'tRue', 'a:b', 'a: b', 'a #b', 'a#b', '2001:db8::/48', 'x:', '-a', '- a', '-', '?a', ':a', '@a', '`a', '%a', '!a',
  '&a', '*a', '|', '>', 'a,b', 'a]', '[a', '{a', 'a}', '"q"', "'q'", '"a\\"b"', '"\\u00e9\\n"', '"\\x41"', "'it''s'",
  "'a", '"a', 'héllo ✓', 'http://x.example.com/a?b=c', 'a  ', '__proto__', '2026-11-24', '12:30', '=a', '$a', '(a)',
];
const KEYS = ['kind', 'name', 'a', 'b_c', 'x-y', 'a.b', 'a/b', 'a~b', '"q k"', "'s k'", 'true', 'null', '1', 'on', '__proto__', 'k:'];

type Node = { t: 'scalar'; v: string } | { t: 'map'; e: [string, Node][] } | { t: 'seq'; e: Node[] };

function genNode(r: () => number, depth: number): Node {
  const x = r();
  if (depth > 3 || x < 0.55) return { t: 'scalar', v: SCALARS[Math.floor(r() * SCALARS.length)]! };
  const n = Math.floor(r() * 4);
  if (x < 0.8) return { t: 'map', e: Array.from({ length: n }, () => [KEYS[Math.floor(r() * KEYS.length)]!, genNode(r, depth + 1)]) };
  return { t: 'seq', e: Array.from({ length: n }, () => genNode(r, depth + 1)) };
}

function flow(node: Node): string {
  if (node.t === 'scalar') return node.v;
  if (node.t === 'seq') return `[${node.e.map(flow).join(', ')}]`;
  return `{${node.e.map(([k, v]) => `${k}: ${flow(v)}`).join(', ')}}`;
}

function comment(r: () => number): string {
  return r() < 0.15 ? '  # note: x' : r() < 0.05 ? ' ' : '';
}

/** Block style with random indentation steps, same-indent sequences, compact mappings and flow parts. */
function block(node: Node, indent: number, r: () => number, out: string[]): void {
  const pad = ' '.repeat(indent);
  const step = r() < 0.7 ? 2 : 4;
  if (node.t === 'map') {
    for (const [k, v] of node.e) {
      if (v.t === 'scalar' || r() < 0.2 || v.e.length === 0) out.push(`${pad}${k}: ${flow(v)}${comment(r)}`);
      else {
        out.push(`${pad}${k}:${comment(r)}`);
        if (r() < 0.1) out.push(`${' '.repeat(Math.floor(r() * 6))}# between`);
        block(v, v.t === 'seq' && r() < 0.4 ? indent : indent + step, r, out);
      }
    }
  } else if (node.t === 'seq') {
    for (const v of node.e) {
      if (v.t === 'map' && v.e.length > 0 && r() < 0.7) {
        const lines: string[] = [];
        block(v, indent + 2, r, lines);
        lines[0] = `${pad}- ${lines[0]!.slice(indent + 2)}`;
        out.push(...lines);
      } else if (v.t !== 'scalar' && v.e.length > 0 && r() < 0.3) {
        out.push(`${pad}-`);
        block(v, indent + step, r, out);
      } else out.push(`${pad}- ${flow(v)}${comment(r)}`);
    }
  } else out.push(`${pad}${node.v}`);
}

function genText(r: () => number): string {
  const docs: string[] = [];
  for (let d = 0, n = 1 + Math.floor(r() * 3); d < n; d++) {
    const root = genNode(r, 0);
    const top: Node = root.t === 'map' && r() < 0.9 ? root : { t: 'map', e: [['kind', { t: 'scalar', v: 'TCPEdge' }], ['x', root]] };
    const lines: string[] = [];
    if (r() < 0.2) lines.push('# leading comment');
    block(top, r() < 0.05 ? 2 : 0, r, lines);
    if (r() < 0.05) lines.push('');
    docs.push(lines.join('\n'));
  }
  return docs.join(r() < 0.5 ? '\n---\n' : '\n---   \n') + (r() < 0.8 ? '\n' : '');
}

const snapshot = (docs: NonNullable<ReturnType<typeof parseCommonYaml>>) =>
  JSON.stringify(docs.map((d) => ({ value: d.value, pos: d.pos, positions: [...d.positions], keys: [...d.keys] })));

describe('the common-subset reader', () => {
  it('gives what yaml gives for every generated text it accepts, and accepts a good share of them', () => {
    let accepted = 0;
    const runs = Number(process.env.FUZZ_RUNS ?? 3000);
    for (let seed = 1; seed <= runs; seed++) {
      const text = genText(seededRandom(seed));
      const common = parseCommonYaml(text, 'f.yaml');
      if (!common) continue;
      accepted++;
      const yaml = parseYamlText(text, 'f.yaml');
      expect(yaml.issues, `seed ${seed}:\n${text}`).toEqual([]);
      expect(snapshot(common), `seed ${seed}:\n${text}`).toBe(snapshot(yaml.docs));
    }
    expect(accepted).toBeGreaterThan(runs / 5);
    if (process.env.FUZZ_RUNS) console.log(`accepted ${accepted} of ${runs}`);
  });

  it.each([
    ['a block scalar', 'kind: A\nbody: |\n  text\n'],
    ['an anchor and alias', 'kind: A\na: &x 1\nb: *x\n'],
    ['a tag', 'kind: A\na: !!str 1\n'],
    ['a multi-line plain scalar', 'kind: A\na: one\n  two\n'],
    ['a duplicate key', 'kind: A\nkind: B\n'],
    ['a tab', 'kind: A\na:\n\tb: 1\n'],
    ['CRLF line ends', 'kind: A\r\nname: b\r\n'],
    ['a directive', '%YAML 1.2\n---\nkind: A\n'],
    ['a top-level sequence', '- a\n'],
    ['a non-finite number', 'kind: A\na: .inf\n'],
    ['a multi-line flow collection', 'kind: A\na: [1,\n  2]\n'],
  ])('leaves %s to yaml', (_what, text) => {
    expect(parseCommonYaml(text, 'f.yaml')).toBeUndefined();
  });
});
