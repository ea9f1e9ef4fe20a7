// fmt's layout, file by file: the corpus (comments, anchors, aliases, merge keys) comes out exactly as written by
// hand, fmt twice is fmt once, every example keeps its data, and what cannot be laid out safely is refused or kept.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/errors.ts';
import { formatText } from '../../src/format/format-text.ts';
import { parseText } from '../../src/manifest/parse.ts';
import { kindSchemas } from '../../src/manifest/schema/kinds.ts';
import { run as runFmt } from '../../src/operations/fmt.ts';
import { fileTempDir } from '../helpers/temp-dirs.ts';
import { CORPUS, FORMATTED } from './corpus.ts';

const ROOT = join(import.meta.dirname, '../..');
const schemas = kindSchemas();
const schemaOf = (kind: string | undefined) => (kind === undefined ? undefined : schemas.get(kind));
const fmt = (text: string, file = 'm.yaml') => {
  const result = formatText(text, file, schemaOf);
  expect(result.issues.map(formatIssue)).toEqual([]);
  return result.text;
};
/** What the loader reads from a text: each document's data. */
const data = (text: string) => {
  const parsed = parseText(text, 'm.yaml');
  expect(parsed.issues).toEqual([]);
  return parsed.docs.map((d) => d.value);
};
const commentLines = (text: string) => text.split('\n').map((l) => /(?:^|\s)(#.*)$/.exec(l)?.[1]).filter((c): c is string => c !== undefined);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === '.edgeops' || name === 'certs' ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

describe('the corpus', () => {
  for (const file of Object.keys(CORPUS)) {
    it(`${file}: the canonical layout, exactly`, () => {
      expect(fmt(CORPUS[file]!, file)).toBe(FORMATTED[file]);
    });

    it(`${file}: fmt twice is fmt once`, () => {
      const once = fmt(CORPUS[file]!, file);
      expect(fmt(once, file)).toBe(once);
    });

    it(`${file}: the same data, every comment, anchor and alias kept`, () => {
      const out = fmt(CORPUS[file]!, file);
      expect(data(out)).toEqual(data(CORPUS[file]!));
      const modeline = commentLines(CORPUS[file]!).filter((c) => c.includes('yaml-language-server'));
      expect(commentLines(out).filter((c) => !modeline.includes(c))).toEqual(commentLines(CORPUS[file]!).filter((c) => !modeline.includes(c)));
      const marks = (t: string) => [...t.matchAll(/[&*][a-z]+/g)].map((m) => m[0]).sort();
      expect(marks(out)).toEqual(marks(CORPUS[file]!));
      expect(out.match(/<</g)?.length).toBe(CORPUS[file]!.match(/<</g)?.length);
    });
  }
});

describe('the examples', () => {
  const files = yamlFiles(join(ROOT, 'examples'));

  it('finds them', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  for (const path of files) {
    const file = relative(ROOT, path);
    it(`${file}: the same data after fmt, and fmt twice is fmt once`, () => {
      const text = readFileSync(path, 'utf8');
      const out = fmt(text, file);
      expect(fmt(out, file)).toBe(out);
      if (file.includes('workflows')) expect(out).toBe(text); // no manifest: left alone
      else expect(data(out)).toEqual(data(text));
    });
  }
});

describe('the layout', () => {
  it('orders keys by the schema at every depth; unknown keys follow, as written; free-form mappings keep their order', () => {
    const text = 'zeta: 1\nname: e\nalpha: 2\nkind: TLSEdge\ntls_termination: {min_version: "1.3", terminate_at: edge}\nmetadata: {z: 1, a: 2}\n';
    expect(fmt(text)).toBe('kind: TLSEdge\nname: e\nmetadata: {z: 1, a: 2}\ntls_termination: {terminate_at: edge, min_version: "1.3"}\nzeta: 1\nalpha: 2\n');
  });

  it('keeps a flow collection within 80 columns on its line, and writes a longer one as a block', () => {
    const short = `kind: TCPEdge\nname: e\nhostports: [${'"a.example.com:1", '.repeat(2)}"b.example.com:1"]\n`;
    expect(fmt(short)).toBe(short);
    const long = `kind: TCPEdge\nname: e\nhostports: [${'"a.example.com:1", '.repeat(4)}"b.example.com:1"]\n`;
    expect(fmt(long)).toBe(`kind: TCPEdge\nname: e\nhostports:\n${'  - "a.example.com:1"\n'.repeat(4)}  - "b.example.com:1"\n`);
    // The line's length decides: 80 characters keep the flow collection, 81 do not.
    const hostports = (width: number): string => `hostports: ["${'a'.repeat(width - 17)}:1"]`;
    expect(hostports(80)).toHaveLength(80);
    expect(fmt(`kind: TCPEdge\nname: e\n${hostports(80)}\n`)).toBe(`kind: TCPEdge\nname: e\n${hostports(80)}\n`);
    expect(fmt(`kind: TCPEdge\nname: e\n${hostports(81)}\n`)).toBe(`kind: TCPEdge\nname: e\nhostports:\n  - "${'a'.repeat(64)}:1"\n`);
    // A short flow collection written over several lines comes back on one.
    expect(fmt('kind: TCPEdge\nname: e\nhostports: [\n  "a.example.com:1"]\n')).toBe('kind: TCPEdge\nname: e\nhostports: ["a.example.com:1"]\n');
  });

  it('repeats the first document\'s modeline at the head of every document that has none', () => {
    const modeline = '# yaml-language-server: $schema=../schemas/manifest.schema.json';
    const other = '# yaml-language-server: $schema=./IPPolicy.schema.json';
    const text = `${modeline}\nkind: IPPolicy\nname: a\n---\nkind: IPPolicy\nname: b\n---\n${other}\nkind: IPPolicy\nname: c\n---\n# c\nkind: IPPolicy\nname: d\n`;
    expect(fmt(text)).toBe(`${modeline}\nkind: IPPolicy\nname: a\n---\n${modeline}\nkind: IPPolicy\nname: b\n---\n${other}\nkind: IPPolicy\nname: c\n---\n${modeline}\n# c\nkind: IPPolicy\nname: d\n`);
    // No modeline in the first document: none is added.
    expect(fmt('kind: IPPolicy\nname: a\n---\nkind: IPPolicy\nname: b\n')).toBe('kind: IPPolicy\nname: a\n---\nkind: IPPolicy\nname: b\n');
  });

  it('keeps the comment heading a document on top when its first key moves', () => {
    expect(fmt('# heading\nname: a # the name\n# the kind\nkind: IPPolicy\n')).toBe('# heading\n# the kind\nkind: IPPolicy\nname: a # the name\n');
  });

  it('keeps an alias after its anchor, whatever the schema\'s order', () => {
    const text = 'kind: TunnelGroupBackend\nname: a\nlabels: &l {x: "1"}\nmetadata: *l\ndescription: d\n';
    expect(fmt(text)).toBe('kind: TunnelGroupBackend\nname: a\ndescription: d\nlabels: &l {x: "1"}\nmetadata: *l\n');
  });

  it('keeps the order of a document that names two anchors alike (an alias names the nearest one before it)', () => {
    const text = 'name: a\nkind: TunnelGroupBackend\nlabels: &l {x: "1"}\nmetadata: &l {y: 2}\ndescription: *l\n';
    expect(fmt(text)).toBe(text);
  });

  it('leaves YAML that holds no manifest alone', () => {
    const workflow = 'on:\n  workflow_dispatch:   # by hand\njobs: {plan: {runs-on: ubuntu-latest}}\n';
    expect(fmt(workflow)).toBe(workflow);
  });
});

describe('refusals', () => {
  it('invalid YAML: file:line:col, and the text is left as it is', () => {
    const text = 'kind: IPPolicy\nname: a\n---\nkind: IPPolicy\nname: "b\n';
    const result = formatText(text, 'bad.yaml', schemaOf);
    expect(result.text).toBe(text);
    expect(result.issues.map(formatIssue)).toEqual(['bad.yaml:5:7: invalid YAML: the double-quoted value starting here is never closed']);
  });

  it('an alias with no anchor before it, at the alias', () => {
    const result = formatText('kind: IPPolicy\nname: a\nmetadata: *nope\n', 'a.yaml', schemaOf);
    expect(result.issues.map(formatIssue)).toEqual(['a.yaml:3:11: alias *nope has no anchor before it']);
  });
});

describe('Patch documents', () => {
  it('kind, target, set in the order of the target kind\'s fields, remove; {var} and {template} values stay as written', () => {
    const text = 'set:\n    tls_termination: {min_version: "1.3"}\n    description: {template: "x ${domain}"}\n    hostports: {var: ports}\ntarget: HTTPSEdge/api\nkind: Patch\n---\nremove: true\nkind: Patch\ntarget: TCPEdge/ssh\n';
    const dir = fileTempDir('edgeops-fmt-patch-');
    writeFileSync(join(dir, 'p.yaml'), text);
    expect(runFmt({ paths: ['.'], cwd: dir, check: false }).changed).toEqual(['p.yaml']);
    expect(readFileSync(join(dir, 'p.yaml'), 'utf8')).toBe('kind: Patch\ntarget: HTTPSEdge/api\nset:\n  description: {template: "x ${domain}"}\n  hostports: {var: ports}\n  tls_termination: {min_version: "1.3"}\n---\nkind: Patch\ntarget: TCPEdge/ssh\nremove: true\n');
  });
});
