// The built CLI runs its CommonJS chunks with the code V8 compiled for the same command in an earlier run
// (src/launch/code-cache.ts): chunks load once and require each other, a run without usable cached code writes
// it at its end, a later run reads it and writes nothing, a damaged cache is replaced, and a cache directory
// others could write is never read or written. Then the real CLI: a command's second run has its cache.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cacheRoot, CodeCache, commandCacheDir } from '../../src/launch/code-cache.ts';
import { cleanEnv, edgeops, ROOT } from '../cli/run.ts';
import { fileTempDir } from '../helpers/temp-dirs.ts';

const run = promisify(execFile);

/** A CLI of two chunks: main.cjs requires chunks/a.cjs (also from a function, later) and a built-in module. */
function chunks(): string {
  const dir = fileTempDir('edgeops-code-cache-');
  mkdirSync(join(dir, 'chunks'));
  writeFileSync(join(dir, 'chunks', 'a.cjs'), 'globalThis.__edgeopsLoads = (globalThis.__edgeopsLoads ?? 0) + 1;\nexports.twice = (x) => x * 2;\n');
  writeFileSync(
    join(dir, 'main.cjs'),
    [
      'const { twice } = require("./chunks/a.cjs");',
      'const { basename } = require("node:path");',
      'exports.main = () => `${basename(__filename)} ${twice(21)} ${require("./chunks/a.cjs").twice(2)}`;',
    ].join('\n'),
  );
  return dir;
}

const cacheFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);
const mtimes = (dir: string): number[] => cacheFiles(dir).map((f) => statSync(join(dir, f)).mtimeMs);

describe('the compiled-code cache', () => {
  it('runs chunks once each, writes their code after a run without it, and a later run reads it and writes nothing', () => {
    const cli = chunks();
    const root = fileTempDir('edgeops-code-cache-root-');
    const dir = join(root, 'build-1', 'plan');
    const g = globalThis as { __edgeopsLoads?: number };
    g.__edgeopsLoads = 0;

    const first = new CodeCache(dir, root);
    expect((first.require(join(cli, 'main.cjs')) as { main(): string }).main()).toBe('main.cjs 42 4');
    expect(g.__edgeopsLoads).toBe(1);
    expect(cacheFiles(dir)).toEqual([]);
    first.save();
    expect(cacheFiles(dir)).toEqual(['a.cjs.v8cache', 'main.cjs.v8cache']);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const written = mtimes(dir);
    utimesSync(join(dir, 'main.cjs.v8cache'), new Date(1000), new Date(1000));

    const second = new CodeCache(dir, root);
    expect((second.require(join(cli, 'main.cjs')) as { main(): string }).main()).toBe('main.cjs 42 4');
    second.save();
    expect(statSync(join(dir, 'main.cjs.v8cache')).mtimeMs, 'code V8 took is not written again').toBe(1000);
    expect(mtimes(dir)[0]).toBe(written[0]);
  });

  it('replaces a cache V8 refuses, and runs the chunk all the same', () => {
    const cli = chunks();
    const root = fileTempDir('edgeops-code-cache-root-');
    const dir = join(root, 'build-1', 'validate');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'main.cjs.v8cache'), 'not code V8 made');

    const cache = new CodeCache(dir, root);
    expect((cache.require(join(cli, 'main.cjs')) as { main(): string }).main()).toBe('main.cjs 42 4');
    cache.save();
    expect(readFileSync(join(dir, 'main.cjs.v8cache'), 'utf8')).not.toBe('not code V8 made');
    expect(cacheFiles(dir)).toEqual(['a.cjs.v8cache', 'main.cjs.v8cache']);
  });

  it('neither reads nor writes under a directory others may write', () => {
    const cli = chunks();
    const root = fileTempDir('edgeops-code-cache-root-');
    chmodSync(root, 0o777);
    const dir = join(root, 'build-1', 'plan');
    mkdirSync(dir, { recursive: true });
    chmodSync(root, 0o777);
    writeFileSync(join(dir, 'main.cjs.v8cache'), 'planted');

    const cache = new CodeCache(dir, root);
    expect((cache.require(join(cli, 'main.cjs')) as { main(): string }).main()).toBe('main.cjs 42 4');
    cache.save();
    expect(cacheFiles(dir)).toEqual(['main.cjs.v8cache']);
    expect(readFileSync(join(dir, 'main.cjs.v8cache'), 'utf8')).toBe('planted');
  });

  it('removes other builds unused for a week when it writes, and keeps the rest', () => {
    const cli = chunks();
    const root = fileTempDir('edgeops-code-cache-root-');
    for (const build of ['old-build', 'recent-build']) mkdirSync(join(root, build, 'plan'), { recursive: true });
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(join(root, 'old-build'), eightDaysAgo, eightDaysAgo);

    const cache = new CodeCache(join(root, 'this-build', 'plan'), root);
    cache.require(join(cli, 'main.cjs'));
    cache.save();
    expect(readdirSync(root).sort()).toEqual(['recent-build', 'this-build']);
  });

  it.runIf(existsSync('/proc/self'))('runs without a cache, and at once, where no directory can be made (a TMPDIR inside /proc)', async () => {
    // In a child first, with a time limit: a loop making the directory would hang this process for good.
    const dir = fileTempDir('edgeops-code-cache-docs-');
    writeFileSync(join(dir, 'a.yaml'), 'kind: IPPolicy\nname: office\ndescription: office\n');
    const env = cleanEnv({ TMPDIR: '/proc/edgeops-no-such-dir', NODE_COMPILE_CACHE: undefined });
    const { stdout } = await run(process.execPath, [join(ROOT, 'bin/edgeops.js'), 'validate', dir], { cwd: dir, env, timeout: 30_000 });
    expect(stdout).toContain('1 resource valid');
    const root = '/proc/edgeops-no-such-dir/cache';
    const cache = new CodeCache(join(root, 'build-1', 'plan'), root);
    expect((cache.require(join(chunks(), 'main.cjs')) as { main(): string }).main()).toBe('main.cjs 42 4');
    cache.save();
  });

  it('keeps apart builds, installs of one build, Node versions and commands', () => {
    const dirs = [
      commandCacheDir('/c', 'build-1', '/usr/lib/node_modules/edgeops/dist/cli', 'plan'),
      commandCacheDir('/c', 'build-2', '/usr/lib/node_modules/edgeops/dist/cli', 'plan'),
      commandCacheDir('/c', 'build-1', '/home/me/app/node_modules/edgeops/dist/cli', 'plan'),
      commandCacheDir('/c', 'build-1', '/usr/lib/node_modules/edgeops/dist/cli', 'validate'),
    ];
    expect(new Set(dirs).size).toBe(4);
    expect(dirs[0]).toContain(`-${process.version}-${process.arch}/plan`);
    expect(commandCacheDir('/c', 'b', '/d', 'plan')).toBe(commandCacheDir('/c', 'b', '/d', 'plan'));
    for (const other of [undefined, '../etc', 'A'.repeat(40), 'plan/../x']) expect(commandCacheDir('/c', 'b', '/d', other)).toMatch(/\/-$/);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE, inside NODE_COMPILE_CACHE when set, and per user otherwise', () => {
    expect(cacheRoot({ NODE_DISABLE_COMPILE_CACHE: '1' })).toBeUndefined();
    expect(cacheRoot({ NODE_COMPILE_CACHE: '/var/cache/node' })).toBe('/var/cache/node/edgeops');
    expect(cacheRoot({}, 1234)).toMatch(/edgeops-compile-cache-1234$/);
    const cli = chunks();
    const cache = new CodeCache(undefined);
    expect((cache.require(join(cli, 'main.cjs')) as { main(): string }).main()).toBe('main.cjs 42 4');
    cache.save();
  });

  it('keeps each command of the built CLI its own cache, written by a run that did its work: the second run writes none', async () => {
    const root = fileTempDir('edgeops-code-cache-cli-');
    const dir = fileTempDir('edgeops-code-cache-docs-');
    writeFileSync(join(dir, 'a.yaml'), 'kind: IPPolicy\nname: office\ndescription: office\n');
    const env = { NODE_COMPILE_CACHE: root };
    const validate = () => edgeops(['validate', dir], { cwd: dir, env });

    // A run that fails (here on a document of no kind) compiled little of its command: it keeps nothing.
    writeFileSync(join(dir, 'bad.yaml'), 'kind: NoSuchKind\nname: x\n');
    expect((await validate()).code).toBe(1);
    expect(readdirSync(root, { recursive: true }).filter((f) => String(f).endsWith('.v8cache'))).toEqual([]);
    rmSync(join(dir, 'bad.yaml'));

    expect((await validate()).stdout).toContain('1 resource valid');
    const [build] = readdirSync(join(root, 'edgeops'));
    expect(build).toMatch(new RegExp(`^[0-9a-f]{16}-[0-9a-f]{8}-${process.version}-${process.arch}$`));
    const cached = join(root, 'edgeops', build!, 'validate');
    expect(cacheFiles(cached).filter((f) => /^main-[A-Z0-9]+\.cjs\.v8cache$/.test(f))).toHaveLength(1);
    expect(cacheFiles(cached).length).toBeGreaterThan(5);
    const written = mtimes(cached);

    expect((await validate()).stdout).toContain('1 resource valid');
    expect(mtimes(cached)).toEqual(written);

    expect((await edgeops(['--version'], { env })).code).toBe(0);
    expect(readdirSync(join(root, 'edgeops', build!)).sort()).toEqual(['-', 'validate']);

    const off = fileTempDir('edgeops-code-cache-off-');
    expect((await edgeops(['validate', dir], { cwd: dir, env: { NODE_COMPILE_CACHE: off, NODE_DISABLE_COMPILE_CACHE: '1' } })).code).toBe(0);
    expect(readdirSync(off)).toEqual([]);
  });
});
