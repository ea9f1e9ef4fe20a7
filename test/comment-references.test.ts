// What the comments cite is in the repository: a design decision by its section of docs/design.md
// ("design: Ownership"), a file by a path that exists. No comment cites a document the repository does not hold.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from './helpers/source-files.ts';

const root = resolve(import.meta.dirname, '..');

const walk = (dir: string): string[] => filesUnder(dir, /\.(ts|mjs)$/);

/** The comment text of a source file: `//` lines and block comments. */
function comments(text: string): string {
  const blocks = [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
  const lines = [...text.matchAll(/(?:^|\s)\/\/(.*)$/gm)].map((m) => m[1]!);
  return [...blocks, ...lines].join('\n');
}

const sources = ['src', 'test', 'bench', 'scripts'].flatMap((dir) => walk(join(root, dir))).map((file) => ({
  file: relative(root, file),
  comments: comments(readFileSync(file, 'utf8')),
}));
const sections = [...readFileSync(join(root, 'docs/design.md'), 'utf8').matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());

describe('what comments cite', () => {
  it('reads the sources and the design', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sections).toContain('Ownership');
  });

  it('never a numbered DESIGN section, which the repository does not hold', () => {
    const bad = sources.filter((s) => /\bDESIGN\s+(?:section\s+)?\d/.test(s.comments)).map((s) => s.file);
    expect(bad).toEqual([]);
  });

  it('a design decision by a section of docs/design.md', () => {
    const bad = sources.flatMap((s) =>
      [...s.comments.matchAll(/\bdesign: ([A-Z][A-Za-z ]+?)(?=[:),.]|$)/gm)]
        .map((m) => m[1]!.trim())
        .filter((section) => !sections.includes(section))
        .map((section) => `${s.file}: "${section}"`));
    expect(bad).toEqual([]);
  });

  it('files by paths that exist in the repository, never outside it', () => {
    const bad = sources.flatMap((s) => {
      const outside = [...s.comments.matchAll(/(?:^|[\s(`'"])(\.\.\/[\w./-]+)/gm)]
        .map((m) => m[1]!)
        .filter((p) => !existsSync(resolve(root, s.file, '..', p)))
        .map((p) => `${s.file}: ${p}`);
      const named = [...s.comments.matchAll(/(?:^|[\s(`'"])((?:src|test|docs|bench|scripts|examples|schemas|action|bin|research)\/[\w./-]*\w\.(?:ts|md|mjs|js|json|ya?ml))\b/gm)]
        .map((m) => m[1]!)
        .filter((p) => !existsSync(join(root, p)))
        .map((p) => `${s.file}: ${p}`);
      return [...outside, ...named];
    });
    expect(bad).toEqual([]);
  });
});
