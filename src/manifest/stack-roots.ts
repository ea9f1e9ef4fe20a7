// The stack roots under a set of paths, and every file each stack is made of. A stack root is a directory holding
// an edgeops.yaml (or edgeops.yml): its stack is the file's `stack:`, "default" when it names none (as a run of
// that directory uses). A path inside a stack root means that root; a directory means every stack root at, above
// (the nearest) or below it. A stack's own files stop where a deeper stack root begins: the deeper root's files
// are that stack's, not both. Directories are named relative to the repository root (the directory holding
// .git, else the cwd) with `/`, the same on every machine, so CI and a laptop print the same lists. No network.
import { existsSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ManifestError, type ManifestIssue } from '../errors.ts';
import { nearestProjectFiles, readProjectFiles } from './discover.ts';
import type { ProjectConfig } from './document.ts';
import { parseFile } from './parse.ts';
import { PROJECT_FILE_NAMES } from './schema/project.ts';
import { stackOrderIssues } from './stack-order.ts';
import { environmentInputs, fileRefs } from './environment/inputs.ts';

/** The stack a root names when its edgeops.yaml has no `stack:` (what a run of it uses). */
export const UNNAMED_STACK = 'default';

export interface StackRoot {
  /** Relative to the repository root, `/`-separated; `.` for the repository root itself. */
  dir: string;
  /** Absolute. */
  abs: string;
  stack: string;
  /** The edgeops.yaml `environment:` label, or null. */
  environment: string | null;
  /** Directories of the stack roots this one applies after, repository-relative. */
  after: string[];
  protect: boolean;
  retire: boolean;
  /** Every file the stack is made of, repository-relative and sorted: manifests, its edgeops.yaml, `{file:}` targets. */
  inputs: string[];
  /** Its manifests, repository-relative and sorted (a subset of inputs). */
  manifests: string[];
  /** Its project files, repository-relative. */
  projectFiles: string[];
  /** The settings its edgeops.yaml states. */
  config: ProjectConfig;
}

interface StackRoots {
  /** Absolute: the directory holding .git, else the cwd. */
  repoRoot: string;
  /** Sorted by dir. */
  roots: StackRoot[];
  /** Manifests under the paths that belong to no stack root, relative to the cwd. */
  loose: string[];
}

const SKIPPED_DIRS = new Set(['node_modules', '.edgeops']);
const YAML_NAME = /\.ya?ml$/i;
const isProjectFileName = (name: string): boolean => PROJECT_FILE_NAMES.includes(name.toLowerCase());

/** The directory holding .git at or above `cwd`, else `cwd`. */
function repositoryRoot(cwd: string): string {
  for (let at = resolve(cwd); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return resolve(cwd);
  }
}

/** `abs` relative to the repository root, `/`-separated, `.` for the root itself. */
export const repoRelative = (repoRoot: string, abs: string): string => relative(repoRoot, abs).split(sep).join('/') || '.';

const projectFilesIn = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter(isProjectFileName).sort().map((n) => join(dir, n)).filter((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
  } catch {
    return [];
  }
};
const isStackRoot = (dir: string): boolean => projectFilesIn(dir).length > 0;

/** A base of environments (`role: base`): its own files, but no stack; the stacks that use it read them. */
const isBase = (dir: string): boolean => projectFilesIn(dir).some((file) => parseFile({ abs: file, rel: file }).docs[0]?.value?.role === 'base');

/**
 * Walks `dir`: each deeper directory with a project file is reported to `onRoot` and not entered (its files are
 * its own stack's); YAML files outside any such directory go to `onManifest`. Skips node_modules, .edgeops and dot-names.
 */
function walk(dir: string, onManifest: (abs: string) => void, onRoot: (abs: string) => void, seen = new Set<string>()): void {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of entries) {
    if (SKIPPED_DIRS.has(name) || name.startsWith('.')) continue;
    const abs = join(dir, name);
    const stat = statOf(abs);
    if (stat?.isDirectory()) {
      if (seen.has(abs)) continue;
      seen.add(abs);
      if (isStackRoot(abs)) onRoot(abs);
      else walk(abs, onManifest, onRoot, seen);
    } else if (stat?.isFile() && YAML_NAME.test(name) && !isProjectFileName(name)) onManifest(abs);
  }
}

/** One root: its settings (issues for an invalid edgeops.yaml) and the files it is made of. */
function readRoot(abs: string, repoRoot: string, cwd: string, issues: ManifestIssue[], withFileRefs: boolean): StackRoot {
  const rel = (file: string): string => repoRelative(repoRoot, file);
  const projectFiles = projectFilesIn(abs);
  const project = readProjectFiles(projectFiles.map((f) => ({ abs: f, rel: relative(cwd, f) || f })));
  issues.push(...project.issues);
  const manifests: string[] = [];
  walk(abs, (f) => manifests.push(f), () => {});
  const inputs = new Set<string>([...projectFiles, ...manifests]);
  // An environment is also made of its bases' files (and what their documents read).
  if (withFileRefs && (project.config.base?.length ?? 0) > 0) for (const file of environmentInputs(abs, cwd)) inputs.add(file);
  for (const file of withFileRefs ? manifests : []) {
    const refs = new Set<string>();
    // An unreadable or broken manifest is still an input; its problems are the commands' to report.
    for (const doc of parseFile({ abs: file, rel: relative(cwd, file) }).docs) fileRefs(doc.value, dirname(file), refs);
    for (const ref of refs) inputs.add(ref);
  }
  const { config } = project;
  return {
    dir: rel(abs),
    abs,
    stack: config.stack ?? UNNAMED_STACK,
    environment: config.environment ?? null,
    after: (config.after ?? []).map((d) => rel(resolve(abs, d))),
    protect: config.protect === true,
    retire: config.retire === true,
    inputs: [...inputs].map(rel).sort(),
    manifests: manifests.map(rel).sort(),
    projectFiles: projectFiles.map(rel),
    config,
  };
}

/** What is at `abs`, or undefined when nothing can be (ENOENT, ENOTDIR, EACCES): that path's run says why. */
function statOf(abs: string): Stats | undefined {
  try {
    return statSync(abs);
  } catch {
    return undefined;
  }
}

/** The directories of the stack roots `paths` hold, absolute and unsorted, without reading any file. */
export function stackRootDirs(paths: readonly string[], cwd: string): { dirs: Set<string>; loose: string[] } {
  const dirs = new Set<string>();
  const loose: string[] = [];
  for (const path of paths) {
    const abs = resolve(cwd, path);
    const stat = statOf(abs);
    if (!stat) continue;
    const dir = stat.isDirectory() ? abs : dirname(abs);
    const above = nearestProjectFiles(dir)[0];
    if (above) dirs.add(dirname(above));
    else if (!stat.isDirectory()) loose.push(relative(cwd, abs));
    if (!stat.isDirectory()) continue;
    walk(abs, (f) => {
      if (!above) loose.push(relative(cwd, f));
    }, (r) => collectBelow(r, dirs));
  }
  // Bases are read by the stacks that use them; only when there is a choice to make is an edgeops.yaml read.
  if (dirs.size > 1) for (const dir of dirs) if (isBase(dir)) dirs.delete(dir);
  return { dirs, loose };
}

/**
 * The stack roots `paths` hold (see the top of this file), each read, sorted by dir. `fileRefs: false` leaves
 * the `{file:}` targets out of the inputs (no manifest is parsed), for a run that only needs the roots. Throws
 * ManifestError for an invalid edgeops.yaml, two roots naming the same stack, an `after` naming no stack root,
 * or a cycle of `after`.
 */
export function findStackRoots(paths: readonly string[], cwd: string, opts: { allowSameStack?: boolean; fileRefs?: boolean } = {}): StackRoots {
  const repoRoot = repositoryRoot(cwd);
  const { dirs: rootDirs, loose } = stackRootDirs(paths, cwd);
  const issues: ManifestIssue[] = [];
  const roots = [...rootDirs].map((abs) => readRoot(abs, repoRoot, cwd, issues, opts.fileRefs !== false)).sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  if (issues.length === 0) issues.push(...stackOrderIssues(roots, repoRoot, cwd, { allowSameStack: opts.allowSameStack === true }));
  if (issues.length > 0) throw new ManifestError(issues);
  return { repoRoot, roots, loose: [...new Set(loose)].sort() };
}

function collectBelow(abs: string, into: Set<string>): void {
  into.add(abs);
  walk(abs, () => {}, (deeper) => collectBelow(deeper, into));
}
