// The README is a manual: a contents list at its top links every `##` section, in order; its Performance section
// is a table of current figures, each with the command that measures it, and stays short (the log of every run
// is bench/RESULTS.md); and every repository path the README and docs/ name exists, so neither sends a reader
// to a file that has moved or gone.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from './helpers/source-files.ts';

const root = resolve(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
}

/** The text of the `##` section titled `title`, up to the next `##`. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no section ${title}`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start + 1, end < 0 ? undefined : end + 1);
}

describe('the README\'s contents list', () => {
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
  const contents = /^Contents:\n\n((?:- \[.*\]\(#.*\)\n)+)/m.exec(readme.slice(0, readme.indexOf('\n## ')));

  it('makes anchors as GitHub does', () => {
    expect(anchorOf('Saved plans and checksums')).toBe('saved-plans-and-checksums');
    expect(anchorOf('Formatting (`edgeops fmt`)')).toBe('formatting-edgeops-fmt');
    expect(anchorOf('Value rules: the same check on both sides')).toBe('value-rules-the-same-check-on-both-sides');
  });

  it('comes before the first section and links every `##` section, in order, by its anchor', () => {
    expect(contents, 'a "Contents:" list before the first ## heading').not.toBeNull();
    const entries = [...contents![1]!.matchAll(/^- \[(.*)\]\(#(.*)\)$/gm)].map((m) => ({ text: m[1]!, anchor: m[2]! }));
    expect(headings.length).toBeGreaterThan(10);
    expect(entries.map((e) => e.text)).toEqual(headings);
    expect(entries.map((e) => e.anchor)).toEqual(headings.map(anchorOf));
  });
});

describe('the README\'s size', () => {
  it('is a manual of about 1,500 lines at most', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(1_550);
  });

  it('has a Performance section of 60 lines at most: a table whose every figure names its command, and the log\'s link', () => {
    const performance = section(readme, 'Performance');
    expect(performance.trimEnd().split('\n').length).toBeLessThanOrEqual(60);
    const rows = performance.split('\n').filter((line) => /^\| \d+ \|/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(13);
    for (const row of rows) expect(row, row).toMatch(/\| `npm run bench -- [^`]+` \|$/);
    expect(performance).toContain('(bench/RESULTS.md)');
    expect(existsSync(join(root, 'bench', 'RESULTS.md'))).toBe(true);
  });
});

// A repository path as the README and docs/ write one: under a top-level directory of the repository, or one of
// its top-level files. A template names a family of files (`src/kinds/<kind>.ts`, `src/cli/commands/*.ts`,
// `src/operations/{plan,apply}.ts`, a KIND in capitals): its directory must exist.
const TOP = ['src', 'test', 'docs', 'bench', 'scripts', 'examples', 'schemas', 'action', 'bin', 'dist'];
const PATH = new RegExp(`(?<![\\w./~-])((?:${TOP.join('|')})/(?:[\\w.-]|/|<[^>\\s]*>|\\{[^}\\s]*\\}|\\*)*)`, 'g');
const TEMPLATE = /[<{*]|\bKIND\b/;
// Files that commands write, never committed: the certificates examples/make-certs.mjs makes, the SQLite file
// --local keeps beside a stack, the CLI `npm run build` writes.
const GENERATED = [/^examples\/[^/]+\/certs\//, /^examples\/[^/]+\/\.edgeops\//, /^dist\/./];

/** The repository paths a Markdown text names, with a dot or a slash at the end of a sentence dropped. */
export function namedPaths(text: string): string[] {
  return [...new Set([...text.matchAll(PATH)].map((m) => m[1]!.replace(/[.]+$/, '')))];
}

/** Whether a named path is there: the file or directory, a template's directory, a generated file's maker. */
function present(path: string): boolean {
  if (GENERATED.some((re) => re.test(path))) return true;
  if (TEMPLATE.test(path)) return existsSync(join(root, dirname(path.slice(0, path.search(TEMPLATE)) + 'x')));
  return existsSync(join(root, path));
}

describe('the repository paths the README and docs/ name', () => {
  const documents = ['README.md', ...filesUnder(join(root, 'docs'), /\.md$/).map((f) => f.slice(root.length + 1))];

  it('are read from every document, templates and all', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/design.md', 'docs/architecture.md']));
    expect(namedPaths('see `src/manifest/pace.ts`, and dist/main.js.')).toEqual(['src/manifest/pace.ts', 'dist/main.js']);
    expect(namedPaths('`src/operations/{plan,apply}.ts` and `src/kinds/<kind>.ts`')).toEqual(['src/operations/{plan,apply}.ts', 'src/kinds/<kind>.ts']);
    expect(present('src/manifest/pace.ts')).toBe(false);
    expect(present('dist/main.js')).toBe(true);
    expect(present('src/kinds/<kind>.ts')).toBe(true);
    expect(present('src/nothing/<kind>.ts')).toBe(false);
  });

  it('all exist', () => {
    const missing = documents.flatMap((doc) => namedPaths(readFileSync(join(root, doc), 'utf8')).filter((p) => !present(p)).map((p) => `${doc}: ${p}`));
    expect(missing).toEqual([]);
  });
});

// A link to a section, in the same document (`#anchor`) or another (`docs/service.md#anchor`), names a heading
// or an `<a id>` that is there: sections move between the README and docs/, and a link left behind would lead
// to the top of a page instead of the text it promised.
const FENCE = /^(`{3,}|~{3,})/;

/** The anchors of a Markdown text: each heading's outside code blocks (a repeated one numbered, as GitHub does) and each `<a id>`. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const mark = FENCE.exec(line)?.[1];
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark) fence = undefined;
      continue;
    }
    if (mark) {
      fence = mark;
      continue;
    }
    const heading = /^#{1,6} (.+?)\s*$/.exec(line)?.[1];
    if (heading) {
      const anchor = anchorOf(heading);
      const n = seen.get(anchor) ?? 0;
      seen.set(anchor, n + 1);
      anchors.add(n ? `${anchor}-${n}` : anchor);
    }
    for (const m of line.matchAll(/<a id="([^"]+)">/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** The links to a section a Markdown text makes: the document linked (itself for `#anchor`) and the anchor. */
export function sectionLinks(text: string): { target: string; anchor: string }[] {
  return [...text.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)]
    .map((m) => ({ target: m[1]!, anchor: m[2]! }))
    .filter((link) => link.target === '' || link.target.endsWith('.md'));
}

describe('the links to a section of the README or docs/', () => {
  const documents = ['README.md', ...['docs', 'bench', 'examples'].flatMap((dir) => filesUnder(join(root, dir), /\.md$/).map((f) => f.slice(root.length + 1)))];

  it('finds anchors as GitHub makes them, code blocks aside', () => {
    const text = '# A\n\n```md\n## Not a heading\n```\n\n## Saved plans\n\n## Saved plans\n\n<a id="hostport-availability"></a>x\n';
    expect([...anchorsOf(text)]).toEqual(['a', 'saved-plans', 'saved-plans-1', 'hostport-availability']);
    expect(sectionLinks('[a](#x), [b](docs/service.md#y), [c](https://example.com/#z), [d](docs/service.md)')).toEqual([
      { target: '', anchor: 'x' }, { target: 'docs/service.md', anchor: 'y' },
    ]);
  });

  it('all lead to a heading that is there', () => {
    const broken = documents.flatMap((doc) => sectionLinks(readFileSync(join(root, doc), 'utf8')).flatMap(({ target, anchor }) => {
      const file = target === '' ? join(root, doc) : resolve(root, dirname(doc), target);
      if (!existsSync(file)) return [`${doc}: ${target}#${anchor} (no such file)`];
      return anchorsOf(readFileSync(file, 'utf8')).has(anchor) ? [] : [`${doc}: ${target}#${anchor}`];
    }));
    expect(documents).toEqual(expect.arrayContaining(['docs/service.md', 'docs/reliability.md', 'bench/RESULTS.md']));
    expect(broken).toEqual([]);
  });
});
