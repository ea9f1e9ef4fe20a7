// The built CLI's code as V8 compiled it in an earlier run of the same command. The CLI is CommonJS chunks
// (dist/cli/, written by scripts/build.ts); they are compiled here with vm.Script, handed the code V8 cached from
// them, and run. V8 compiles most functions lazily, at their first call, and Node's own compile cache keeps only
// what was compiled with the module, so every run compiled again the functions it called: on Node 20, which has
// no compile cache at all, the whole CLI. A cache made at the end of a run (createCachedData) holds every function
// the run compiled: the next run of that command starts with them compiled.
// One cache per command: a plan compiles other functions than a validate, and each run's cache is its own
// command's. The cache is written once, by a run that found none (or one V8 refused: another Node, other flags)
// and did its work (launcher.ts: a run that failed early, on a usage error, compiled little of it),
// atomically (another process may read it meanwhile), and only into a directory of the user's own that no one
// else can write: V8 trusts cached code as it trusts the source.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import vm from 'node:vm';

interface Loaded {
  exports: unknown;
}

/** Unused cache directories of other builds are removed after this long. */
const STALE_MS = 7 * 24 * 3600 * 1000;

/**
 * The directory above every build's cache, or undefined when the cache is off (NODE_DISABLE_COMPILE_CACHE, Node's
 * own switch). CodeCache reads and writes under it only while it is a directory only its owner can write.
 */
export function cacheRoot(env: NodeJS.ProcessEnv, uid = process.getuid?.()): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  // NODE_COMPILE_CACHE names the directory Node keeps compiled code in; ours goes beside Node's, inside it.
  return env.NODE_COMPILE_CACHE ? resolve(env.NODE_COMPILE_CACHE, 'edgeops') : join(tmpdir(), `edgeops-compile-cache-${uid ?? 'user'}`);
}

/** FNV-1a of `text`, as 8 hex digits: a short name for a path, with no module loaded for it. */
function pathTag(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/**
 * The cache directory of `command` for the build `buildId` whose chunks are under `cliDir`, by Node version: V8
 * refuses another version's code anyway. Where the chunks are is part of it: Node 20's V8 names the file the
 * cached code was made from in stack traces, so two installs of one version keep apart.
 */
export function commandCacheDir(root: string, buildId: string, cliDir: string, command: string | undefined): string {
  // A command's own cache; anything else a run may name (a typo, --help) shares one.
  const key = command !== undefined && /^[a-z][a-z_-]{0,31}$/.test(command) ? command : '-';
  return join(root, `${buildId}-${pathTag(cliDir)}-${process.version}-${process.arch}`, key);
}

/**
 * Makes `dir` and the directories missing above it (mode 0700), one at a time. Not mkdirSync's `recursive`:
 * under a directory that refuses new entries with ENOENT (a TMPDIR inside /proc) it retries forever.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const at of missing) {
    try {
      mkdirSync(at, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** Makes `dir` (mode 0700) if missing; true when it is a real directory, ours, that no one else may write. */
function privateDir(dir: string, uid = process.getuid?.()): boolean {
  try {
    makeDirs(dir);
    const stat = lstatSync(dir);
    return stat.isDirectory() && (uid === undefined || stat.uid === uid) && (process.platform === 'win32' || (stat.mode & 0o022) === 0);
  } catch {
    return false;
  }
}

export class CodeCache {
  private readonly loaded = new Map<string, Loaded>();
  /** Scripts compiled without usable cached code: their code is written when the run ends. */
  private readonly uncached: { file: string; script: vm.Script }[] = [];
  private trusted: boolean | undefined;

  /**
   * `dir`: this build's and command's cache directory (undefined: compile as Node would, keep nothing);
   * `root`, the directory above every build's, must be private for anything to be read or written.
   */
  constructor(private readonly dir: string | undefined, private readonly root = dir) {}

  /** Runs the CommonJS file `file` (once; later calls return its exports) with cached code when there is some. */
  require(file: string): unknown {
    const known = this.loaded.get(file);
    if (known) return known.exports;
    const source = readFileSync(file, 'utf8');
    const cachedData = this.readCache(file);
    const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
    if (this.dir && (!cachedData || script.cachedDataRejected)) this.uncached.push({ file, script });
    const module: Loaded = { exports: {} };
    this.loaded.set(file, module);
    const nodeRequire = createRequire(file);
    // Another chunk of the CLI is loaded here too; a package (pg) or a built-in module the way Node loads it.
    const requireFrom = (specifier: string): unknown => (specifier.startsWith('.') ? this.require(resolve(dirname(file), specifier)) : nodeRequire(specifier));
    const run = script.runInThisContext() as (exports: unknown, require: unknown, module: Loaded, filename: string, dirname: string) => void;
    run.call(module.exports, module.exports, Object.assign(requireFrom, { resolve: nodeRequire.resolve, cache: nodeRequire.cache }), module, file, dirname(file));
    return module.exports;
  }

  /** Writes the code of every file this run compiled without a cache. Never fails the run. */
  save(): void {
    if (this.uncached.length === 0 || !this.usable()) return;
    try {
      makeDirs(this.dir!);
      for (const { file, script } of this.uncached) {
        const target = this.cacheFile(file);
        const partial = `${target}.${process.pid}`;
        writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        renameSync(partial, target);
      }
      this.removeStale();
    } catch {
      // A full disk or a directory removed meanwhile: the next run compiles as this one did.
    }
  }

  /** Whether there is a cache directory, under a private root (checked once a run). */
  private usable(): boolean {
    this.trusted ??= this.dir !== undefined && this.root !== undefined && privateDir(this.root);
    return this.trusted;
  }

  private cacheFile(file: string): string {
    return join(this.dir!, `${basename(file)}.v8cache`);
  }

  private readCache(file: string): Buffer | undefined {
    if (!this.usable()) return undefined;
    try {
      return readFileSync(this.cacheFile(file));
    } catch {
      return undefined;
    }
  }

  /** Removes other builds' directories (an upgrade, a rebuilt checkout) that no run has written to for a week. */
  private removeStale(): void {
    const build = dirname(this.dir!);
    for (const entry of readdirSync(this.root!)) {
      const path = join(this.root!, entry);
      if (path === build) continue;
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat && Date.now() - stat.mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    }
  }
}
