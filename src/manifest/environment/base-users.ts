// A base is not a stack: a command that plans from one (plan, apply, drift, list) refuses it before any request,
// naming the stacks that use it, found by their `base:` entries anywhere in the repository.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { BaseNotStackError } from '../../errors.ts';
import { nearestProjectFiles } from '../discover.ts';
import { parseFile } from '../parse.ts';
import { PROJECT_FILE_NAMES } from '../schema/project.ts';

const SKIPPED = new Set(['node_modules', '.edgeops', '.git']);
const ONE_PATH = new Set(['list', 'graph', 'render']);

/** The directory holding .git above `dir`, or undefined. */
function repositoryRoot(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** The settings of one edgeops.yaml as data, or undefined when it does not read. */
function settingsOf(file: string): Record<string, unknown> | undefined {
  const doc = parseFile({ abs: file, rel: file }).docs[0];
  return doc?.value;
}

/** Every edgeops.yaml below `dir` (dot-directories and node_modules skipped). */
function projectFilesBelow(dir: string, out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of entries) {
    if (SKIPPED.has(name) || name.startsWith('.')) continue;
    const abs = join(dir, name);
    if (PROJECT_FILE_NAMES.includes(name.toLowerCase())) out.push(abs);
    else if (statSync(abs, { throwIfNoEntry: false })?.isDirectory()) projectFilesBelow(abs, out);
  }
  return out;
}

/**
 * The stack roots that list `baseDir` under `base:`, searched from the repository root (or, outside a
 * repository, the base's parent directory), relative to `cwd`.
 */
export function stacksUsingBase(baseDir: string, cwd: string): string[] {
  const from = repositoryRoot(baseDir) ?? dirname(baseDir);
  const users: string[] = [];
  for (const file of projectFilesBelow(from)) {
    const settings = settingsOf(file);
    const bases = settings?.base;
    if (!Array.isArray(bases) || settings?.role === 'base') continue;
    if (bases.some((b) => typeof b === 'string' && resolve(dirname(file), b) === baseDir)) users.push(relative(cwd, dirname(file)) || '.');
  }
  return users;
}

/** Throws BaseNotStackError when a path of `command` lies in a base (its edgeops.yaml says role: base). */
export function refuseBases(paths: readonly string[], cwd: string, command: string): void {
  for (const path of paths) {
    const abs = resolve(cwd, path);
    const stat = statSync(abs, { throwIfNoEntry: false });
    if (!stat) continue;
    const file = nearestProjectFiles(stat.isDirectory() ? abs : dirname(abs))[0];
    if (!file || settingsOf(file)?.role !== 'base') continue;
    const users = stacksUsingBase(dirname(file), cwd);
    const base = relative(cwd, dirname(file)) || '.';
    const used = users.length === 0 ? 'no stack lists it under base: yet' : `it is the base of ${users.join(', ')}`;
    // list, graph and render take one path: one command per stack.
    const run = ONE_PATH.has(command) ? users.map((u) => `edgeops ${command} ${u}`).join(', ') : `edgeops ${command} ${users.join(' ')}`;
    const hint = users.length === 0 ? '' : `\nRun it on the stacks instead: ${run}`;
    throw new BaseNotStackError(`refusing to ${command} ${path}: ${base} is a base (its edgeops.yaml says role: base), not a stack; ${used}${hint}`);
  }
}
