// The wall between reconciler and service (docs/design.md, "The import wall"): src/service never imports the reconciler, and the
// reconciler reaches the service only through a lazy import() in src/cli. Both may import src/contract, where
// they meet; src/contract imports neither. Inside the reconciler the layers only look down: cli and the
// Action -> operations -> (engine, lock, client, render); nothing below an operation imports one, or the cli.
import { readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../src/kinds/index.ts';
import { filesUnder } from './helpers/source-files.ts';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

const walk = (dir: string): string[] => filesUnder(dir, /\.ts$/);

/** Static imports (`import ... from 'x'`, `export ... from 'x'`) and dynamic `import('x')` of one file. */
function importsOf(file: string): { target: string; dynamic: boolean }[] {
  const text = readFileSync(file, 'utf8');
  const found: { target: string; dynamic: boolean }[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) found.push({ target: m[1]!, dynamic: false });
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push({ target: m[1]!, dynamic: false });
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ target: m[1]!, dynamic: true });
  return found
    .filter((i) => i.target.startsWith('.'))
    .map((i) => ({ ...i, target: relative(src, resolve(dirname(file), i.target)) }));
}

const files = walk(src).map((f) => ({ file: relative(src, f), imports: importsOf(f) }));

describe('import walls', () => {
  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('the service never imports the reconciler (src/contract is where they meet)', () => {
    const bad = files
      .filter((f) => f.file.startsWith('service/'))
      .flatMap((f) => f.imports.filter((i) => !i.target.startsWith('service/') && !i.target.startsWith('contract/')).map((i) => `${f.file} -> ${i.target}`));
    expect(bad).toEqual([]);
  });

  it('src/contract imports neither the service nor the reconciler', () => {
    const contract = files.filter((f) => f.file.startsWith('contract/'));
    expect(contract.length).toBeGreaterThan(0);
    const bad = contract.flatMap((f) => f.imports.filter((i) => !i.target.startsWith('contract/')).map((i) => `${f.file} -> ${i.target}`));
    expect(bad).toEqual([]);
  });

  it('both sides use src/contract', () => {
    const users = (side: (file: string) => boolean): string[] =>
      files.filter((f) => side(f.file) && f.imports.some((i) => i.target.startsWith('contract/'))).map((f) => f.file);
    expect(users((f) => f.startsWith('service/'))).not.toEqual([]);
    expect(users((f) => !f.startsWith('service/') && !f.startsWith('contract/'))).not.toEqual([]);
  });

  it('the reconciler reaches the service only by a lazy import() from src/cli', () => {
    const bad = files
      .filter((f) => !f.file.startsWith('service/'))
      .flatMap((f) =>
        f.imports
          .filter((i) => i.target.startsWith('service/'))
          .filter((i) => !(i.dynamic && f.file.startsWith('cli/')))
          .map((i) => `${f.file} -> ${i.target}${i.dynamic ? ' (dynamic)' : ''}`),
      );
    expect(bad).toEqual([]);
  });

  it('the engine and the stack lock import neither each other (who fetches live state says what to hide)', () => {
    const bad = files
      .filter((f) => f.file.startsWith('lock/') || f.file.startsWith('engine/'))
      .flatMap((f) => f.imports
        .filter((i) => i.target.startsWith(f.file.startsWith('lock/') ? 'engine/' : 'lock/'))
        .map((i) => `${f.file} -> ${i.target}`));
    expect(bad).toEqual([]);
  });

  it('the manifests never import the engine: what both need of a body (kinds/sent-body.ts) lives below both', () => {
    const manifest = files.filter((f) => f.file.startsWith('manifest/'));
    expect(manifest.length).toBeGreaterThan(0);
    const bad = manifest.flatMap((f) => f.imports.filter((i) => i.target.startsWith('engine/')).map((i) => `${f.file} -> ${i.target}`));
    expect(bad).toEqual([]);
  });

  it('the engine never names a kind', () => {
    const kindNames = KINDS.map((k) => k.kind);
    expect(kindNames).toContain('TCPEdge');
    const bad = walk(join(src, 'engine')).flatMap((f) => {
      const text = readFileSync(f, 'utf8').replace(/\/\/.*$/gm, '');
      return kindNames.filter((k) => new RegExp(`['"\`]${k}['"\`/]`).test(text)).map((k) => `${relative(src, f)} names ${k}`);
    });
    expect(bad).toEqual([]);
  });
});

describe('layers: commands wire operations to views', () => {
  const layer = (prefix: string) => files.filter((f) => f.file.startsWith(prefix));
  const crossings = (from: (file: string) => boolean, to: (target: string) => boolean): string[] =>
    files.filter((f) => from(f.file)).flatMap((f) => f.imports.filter((i) => to(i.target)).map((i) => `${f.file} -> ${i.target}`));
  const upper = ['cli/', 'action/', 'operations/', 'main.ts', 'launch/launcher.ts'];
  const below = (file: string): boolean => !upper.some((u) => file.startsWith(u)) && !file.startsWith('service/');

  it('there is one operation per command that plans', () => {
    expect(layer('operations/').map((f) => f.file)).toEqual(expect.arrayContaining(
      ['operations/plan.ts', 'operations/apply.ts', 'operations/drift.ts', 'operations/export.ts']));
  });

  it('the cli reaches the engine only through operations', () => {
    expect(crossings((f) => f.startsWith('cli/'), (t) => t.startsWith('engine/'))).toEqual([]);
    for (const command of ['plan', 'apply', 'drift', 'export']) {
      const file = files.find((f) => f.file === `cli/commands/${command}.ts`)!;
      expect(file.imports.map((i) => i.target)).toContain(`operations/${command}.ts`);
    }
  });

  it('commands and the Action hold no orchestration: planning, executing and locking happen in operations', () => {
    const bad = [...layer('cli/'), ...layer('action/')].flatMap((f) => {
      const text = readFileSync(join(src, f.file), 'utf8');
      return ['computePlan', 'executeAndCheck', 'startFetch', 'withStackLock', 'acquireStackLock', 'assertDeletesAllowed', 'checkSavedPlan']
        .filter((name) => new RegExp(`\\b${name}\\b`).test(text)).map((name) => `${f.file} uses ${name}`);
    });
    expect(bad).toEqual([]);
  });

  it('the Action calls the operations, never the cli, and plans or applies nothing itself', () => {
    expect(crossings((f) => f.startsWith('action/'), (t) => t.startsWith('cli/') || t === 'main.ts')).toEqual([]);
    expect(crossings((f) => f.startsWith('action/'), (t) => t.startsWith('engine/') || t.startsWith('lock/'))).toEqual([]);
    const used = new Set(layer('action/').flatMap((f) => f.imports.map((i) => i.target)));
    for (const command of ['plan', 'apply', 'drift']) expect([...used]).toContain(`operations/${command}.ts`);
    // No child process either: the Action runs edgeops in its own process, not by spawning the CLI.
    const spawning = layer('action/').filter((f) => /from ['"]node:child_process['"]/.test(readFileSync(join(src, f.file), 'utf8'))).map((f) => f.file);
    expect(spawning).toEqual([]);
  });

  it('operations never import the cli or the Action', () => {
    expect(crossings((f) => f.startsWith('operations/'), (t) => t.startsWith('cli/') || t.startsWith('action/'))).toEqual([]);
  });

  it('nothing below the operations climbs back up (render, engine, lock, client, kinds, manifest, export, pipeline)', () => {
    expect(layer('render/').length).toBeGreaterThan(0);
    expect(crossings(below, (t) => upper.some((u) => t.startsWith(u)))).toEqual([]);
  });

  it('operations are free of process globals and commander: whatever they need comes in their deps', () => {
    const bad = layer('operations/').flatMap((f) => {
      const text = readFileSync(join(src, f.file), 'utf8').replace(/\/\/.*$/gm, '');
      return [/\bprocess\./, /from ['"]commander['"]/, /\bconsole\./].filter((re) => re.test(text)).map((re) => `${f.file}: ${re.source}`);
    });
    expect(bad).toEqual([]);
  });

  it('a format is one View in one file, listed once in VIEWS', () => {
    const views = readFileSync(join(src, 'render/views.ts'), 'utf8');
    const entries = [...views.matchAll(/^\s+(\w+): (\w+View),$/gm)].map((m) => m[1]);
    expect(entries).toEqual(['text', 'json', 'markdown']);
    // The Markdown escaper is defined once (render/markdown.ts); nobody else escapes Markdown by hand.
    const escapers = walk(src).filter((f) => /replace\(\/\(\[\\\\`\*_/.test(readFileSync(f, 'utf8'))).map((f) => relative(src, f));
    expect(escapers).toEqual(['render/markdown.ts']);
  });
});


describe('the import graph', () => {
  const sourceEdges = new Map(files.map((f) => [f.file, [...new Set(f.imports.map((i) => i.target))].filter((t) => t !== f.file)]));

  /** The strongly connected groups of files (Tarjan): each of more than one file is a cycle. */
  function cycles(edges: Map<string, string[]>): string[][] {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const found: string[][] = [];
    const visit = (file: string): void => {
      index.set(file, index.size);
      low.set(file, index.get(file)!);
      stack.push(file);
      onStack.add(file);
      for (const next of edges.get(file) ?? []) {
        if (!edges.has(next)) continue;
        if (!index.has(next)) {
          visit(next);
          low.set(file, Math.min(low.get(file)!, low.get(next)!));
        } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
      if (low.get(file) !== index.get(file)) return;
      const group: string[] = [];
      for (let at = stack.pop()!; ; at = stack.pop()!) {
        onStack.delete(at);
        group.push(at);
        if (at === file) break;
      }
      if (group.length > 1) found.push(group.sort());
    };
    for (const file of edges.keys()) if (!index.has(file)) visit(file);
    return found;
  }

  it('finds a cycle of any length, and none in a chain', () => {
    const graph = (pairs: string): Map<string, string[]> => {
      const edges = new Map<string, string[]>();
      for (const [from, to] of pairs.split(' ').map((p) => p.split('>') as [string, string])) {
        edges.set(from, [...(edges.get(from) ?? []), to]);
        if (!edges.has(to)) edges.set(to, []);
      }
      return edges;
    };
    expect(cycles(graph('a>b b>a'))).toEqual([['a', 'b']]);
    expect(cycles(graph('x>a a>b b>c c>a c>d'))).toEqual([['a', 'b', 'c']]);
    expect(cycles(graph('a>b b>c a>c'))).toEqual([]);
  });

  it('has no cycle between files, counting type-only and lazy imports', () => {
    expect(sourceEdges.get('cli/program.ts')?.length).toBeGreaterThan(0);
    expect(cycles(sourceEdges)).toEqual([]);
  });

  it('imports no dependency\'s private files: a package by its name, or by a path its package.json exports', () => {
    expect(publicSpecifier('undici')).toBe(true);
    expect(publicSpecifier('vitest/node')).toBe(true);
    expect(publicSpecifier('undici/lib/dispatcher/pool.js')).toBe(false);
    expect(publicSpecifier('vitest/dist/index.js')).toBe(false);
    const shipped = [...walk(src), ...filesUnder(join(root, 'scripts'), /\.ts$/)];
    const bad = shipped.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const specifiers = [...text.matchAll(/(?:^\s*(?:import|export)\s[^'"]*?from\s+|^\s*import\s+|import\(\s*|require\(\s*)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
      return specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !publicSpecifier(s)).map((s) => `${relative(root, file)} -> ${s}`);
    });
    expect(bad).toEqual([]);
  });
});

/** Whether `specifier` names a package, or a subpath its package.json lists in `exports` (or a documented entry). */
function publicSpecifier(specifier: string): boolean {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  const subpath = specifier.slice(name.length);
  if (subpath === '') return true;
  const manifest = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { exports?: unknown };
  if (manifest.exports && typeof manifest.exports === 'object') {
    const keys = Object.keys(manifest.exports);
    return keys.some((key) => key === `.${subpath}` || (key.endsWith('*') && `.${subpath}`.startsWith(key.slice(0, -1))));
  }
  // A package without an exports map: what its documentation names as an entry (ajv's standalone code).
  return DOCUMENTED_ENTRIES.has(specifier);
}

/** Entries that packages without an exports map document as theirs to import. */
const DOCUMENTED_ENTRIES = new Set(['ajv/dist/standalone/index.js']);
