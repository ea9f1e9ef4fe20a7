// `edgeops stacks`: the stack roots under the paths, each with the files it is made of, and with a ref the stacks
// a change since it touches (manifest/stack-changes.ts). No network. The entries are the JSON `stacks` prints and
// the GitHub Action reads: `changed` is null when no ref was given (nothing was compared), a removed stack root
// has no inputs left and is always changed.
import { relative, resolve, sep } from 'node:path';
import { statSync } from 'node:fs';
import { changedSince, type RemovedStack } from '../manifest/stack-changes.ts';
import { findStackRoots, repoRelative, type StackRoot } from '../manifest/stack-roots.ts';
import type { StackEntry } from '../render/stacks.ts';

interface StackListing {
  /** Sorted by dir. */
  stacks: StackEntry[];
  /** The roots found (without the removed ones), for callers that go on to run them. */
  roots: StackRoot[];
  /** The removed stack roots (with --changed-since), with their settings at the merge base. */
  removed: RemovedStack[];
  /** The merge base compared with, when a ref was given. */
  base?: string;
  repoRoot: string;
}

/** The repository-relative directories `paths` stand for: where a removed stack root may have been. */
function scopeOf(paths: readonly string[], cwd: string, repoRoot: string): string[] {
  return paths.map((path) => {
    const abs = resolve(cwd, path);
    const isFile = statSync(abs, { throwIfNoEntry: false })?.isFile() === true;
    const rel = repoRelative(repoRoot, isFile ? resolve(abs, '..') : abs);
    // A path outside the repository holds no part of its history.
    return relative(repoRoot, abs).startsWith(`..${sep}`) ? '\0' : rel;
  });
}

export function listStacks(paths: readonly string[], cwd: string, opts: { changedSince?: string } = {}): StackListing {
  const found = findStackRoots(paths, cwd);
  const entry = (root: StackRoot, changed: boolean | null): StackEntry => ({
    dir: root.dir, stack: root.stack, environment: root.environment, after: root.after, inputs: root.inputs, changed, removed: false,
  });
  if (opts.changedSince === undefined) return { stacks: found.roots.map((r) => entry(r, null)), roots: found.roots, removed: [], repoRoot: found.repoRoot };
  const changes = changedSince(opts.changedSince, found.repoRoot, found.roots, scopeOf(paths, cwd, found.repoRoot));
  const stacks = [
    ...found.roots.map((r) => entry(r, changes.changed.has(r.dir))),
    ...changes.removed.map((r): StackEntry => ({ dir: r.dir, stack: r.stack, environment: r.environment, after: [], inputs: [], changed: true, removed: true })),
  ].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  return { stacks, roots: found.roots, removed: changes.removed, base: changes.base, repoRoot: found.repoRoot };
}
