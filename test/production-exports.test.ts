// Production code exports what the program uses: every value a module under src/ exports is named by another
// module of the program (src/, bin/, scripts/, bench/), so tests reach it the way the program does. A type or
// interface may be named by tests alone: it is the shape of something the program passes around, and tests
// write values of it. An export nothing outside its own file names is a local.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from './helpers/source-files.ts';

const root = resolve(import.meta.dirname, '..');

interface SourceFile {
  file: string;
  /** The text without comments, so a name a comment mentions counts as no use. */
  code: string;
}

interface Exported {
  file: string;
  name: string;
  typeOnly: boolean;
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

function read(dirs: string[]): SourceFile[] {
  return dirs.flatMap((dir) => filesUnder(join(root, dir), /\.(ts|mts|mjs|js)$/)).map((path) => ({ file: relative(root, path), code: withoutComments(readFileSync(path, 'utf8')) }));
}

/** The names a module exports: declarations, `export { a, type B }` lists, and re-exports. */
function exportsOf(source: SourceFile): Exported[] {
  const found: Exported[] = [];
  for (const m of source.code.matchAll(/^export (?:declare )?(?:async )?(function\*?|const|let|class|type|interface|enum|abstract class) (\w+)/gm)) {
    found.push({ file: source.file, name: m[2]!, typeOnly: m[1] === 'type' || m[1] === 'interface' });
  }
  for (const m of source.code.matchAll(/^export (type )?\{([^}]*)\}/gm)) {
    for (const part of m[2]!.split(',').map((p) => p.trim()).filter(Boolean)) {
      const typeOnly = Boolean(m[1]) || part.startsWith('type ');
      const name = part.replace(/^type /, '').split(/\s+as\s+/).pop()!.trim();
      found.push({ file: source.file, name, typeOnly });
    }
  }
  return found;
}

/** Exports of `program`'s src/ modules that break the rule, as `file: name (why)`. */
function misplacedExports(program: SourceFile[], tests: SourceFile[]): string[] {
  const named = (files: SourceFile[], e: Exported): boolean => {
    const pattern = new RegExp(`\\b${e.name}\\b`);
    return files.some((f) => f.file !== e.file && pattern.test(f.code));
  };
  return program
    .filter((f) => f.file.startsWith('src/'))
    .flatMap(exportsOf)
    .flatMap((e) => {
      if (named(program, e)) return [];
      if (named(tests, e)) return e.typeOnly ? [] : [`${e.file}: ${e.name} (only tests use it)`];
      return [`${e.file}: ${e.name} (nothing outside its file uses it)`];
    });
}

describe('what production modules export', () => {
  it('finds the exports that break the rule, and only those', () => {
    const program: SourceFile[] = [
      { file: 'src/a.ts', code: 'export function used() {}\nexport const testOnly = 1;\nexport interface Shape { x: number }\nexport function unused() {}\nconst local = 2;\nexport { local };' },
      { file: 'src/b.ts', code: "import { used } from './a.ts';\nused();" },
    ];
    const tests: SourceFile[] = [{ file: 'test/a.test.ts', code: "import { testOnly, type Shape } from '../src/a.ts';" }];
    expect(misplacedExports(program, tests)).toEqual([
      'src/a.ts: testOnly (only tests use it)',
      'src/a.ts: unused (nothing outside its file uses it)',
      'src/a.ts: local (nothing outside its file uses it)',
    ]);
  });

  it('every value a src/ module exports is used by the program, every type by some other file', () => {
    const program = read(['src', 'bin', 'scripts', 'bench']);
    expect(program.filter((f) => f.file.startsWith('src/')).length).toBeGreaterThan(200);
    expect(misplacedExports(program, read(['test']))).toEqual([]);
  });
});
