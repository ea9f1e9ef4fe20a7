// Whether a run over some paths is one stack's run or several: the decision `validate`, `plan`, `drift`, `list`
// and `apply` make, and the GitHub Action too, so that a path means the same stacks to both. Counted first
// without reading a file (a run of one stack root, the usual run, reads nothing more here); roots named one by
// one that agree on one stack stay one run, as always; a path holding stack roots only below it is a repository
// of stacks, run as such however many it holds.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { ConfigError } from '../errors.ts';
import { nearestProjectFiles } from './discover.ts';
import { findStackRoots, stackRootDirs, type StackRoot } from './stack-roots.ts';

/** The stack root a path is in or at (the directory of the edgeops.yaml it uses), if any. */
export function ownerOf(abs: string): string | undefined {
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const file = nearestProjectFiles(stat.isDirectory() ? abs : dirname(abs))[0];
  return file === undefined ? undefined : dirname(file);
}

/** Whether `abs` is a directory in no stack root with `root` below it. */
function holdsRootBelow(abs: string, root: string): boolean {
  const rel = relative(abs, root);
  return statSync(abs, { throwIfNoEntry: false })?.isDirectory() === true && rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && ownerOf(abs) === undefined;
}

interface Wording {
  /** How the caller's paths are said in an error: `the paths hold` (the CLI), `path holds` (the Action). */
  hold: string;
  /** What names one stack for the whole run (`--stack`, `EDGEOPS_STACK`), when something does. */
  naming?: string;
}

/**
 * The stack roots of a run over `paths` when each is to run on its own; undefined for a run of one stack. Throws
 * ManifestError for roots that cannot run together (an invalid edgeops.yaml, two naming one stack, a cycle of
 * after: run as one stack, the paths would plan every document under the wrong stack), and ConfigError for a
 * stack named for the whole run or manifests under the paths that belong to no stack root.
 */
export function severalStacks(paths: readonly string[], cwd: string, said: Wording): { roots: StackRoot[]; repoRoot: string } | undefined {
  const dirs = stackRootDirs(paths, cwd).dirs;
  if (dirs.size === 0) return undefined;
  // One stack root at or above every path is the run of one stack it always was. One found only below a path
  // is a repository of stacks with one left: run as one of several, it plans under its own stack, not "default".
  if (dirs.size === 1 && !paths.some((p) => holdsRootBelow(resolve(cwd, p), [...dirs][0]!))) return undefined;
  const { roots } = findStackRoots(paths, cwd, { allowSameStack: true, fileRefs: false });
  if (new Set(roots.map((r) => r.stack)).size === 1 && paths.every((p) => ownerOf(resolve(cwd, p)) !== undefined)) return undefined;
  // Checked again without leave for one stack twice: two roots of one stack are an error here.
  const found = findStackRoots(paths, cwd, { fileRefs: false });
  const count = found.roots.length;
  if (said.naming) {
    throw new ConfigError(`${said.naming} names one stack, but ${said.hold} ${count} stack roots (${found.roots.map((r) => r.dir).join(', ')}), each with its own stack: run them without ${said.naming}, or name one stack root`);
  }
  if (found.loose.length > 0) {
    const shown = found.loose.slice(0, 10).join(', ') + (found.loose.length > 10 ? ` and ${found.loose.length - 10} more` : '');
    throw new ConfigError(`${said.hold} ${count} stack roots, and manifests that belong to none of them (no edgeops.yaml in or above their directory): ${shown}; move them into a stack root or give them an edgeops.yaml of their own`);
  }
  return { roots: found.roots, repoRoot: found.repoRoot };
}
