// The stacks `path` holds, for the action: the stacks operation (src/operations/stacks.ts, what `edgeops stacks`
// prints) and, on a pull request, which stacks the change touches between its base and head, including stack
// roots it deletes. A path of one stack keeps the single-stack behaviour.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../errors.ts';
import { nearestProjectFiles } from '../manifest/discover.ts';
import type { ProjectConfig } from '../manifest/document.ts';
import { findStackRoots, stackRootDirs } from '../manifest/stack-roots.ts';
import { listStacks } from '../operations/stacks.ts';
import type { StackEntry } from '../render/stacks.ts';
import { ActionInputError, asRecord } from './inputs.ts';
import type { Session } from './session.ts';

/** One stack as the `stacks` output (and `edgeops stacks --format json`) shows it. */
export type ActionStack = StackEntry;

export interface StackSet {
  /** Absolute: what the stacks' dirs are relative to. */
  repoRoot: string;
  /** Sorted by dir; removed stacks among them. */
  stacks: ActionStack[];
  /** A removed stack's edgeops.yaml as it was at the base, by dir. */
  removedConfig: Map<string, ProjectConfig>;
  /** The commit changes were found against, when they were. */
  base?: string;
}

/** The pull request's base commit, where the event names one. */
function baseSha(s: Session): string | undefined {
  const base = asRecord(asRecord(s.github.event.pull_request).base).sha;
  return typeof base === 'string' && base !== '' ? base : undefined;
}

/** Whether the stack is to run with `stacks: changed`: without a base to compare with, every stack is. */
export const isChanged = (x: ActionStack): boolean => x.changed !== false;

/** The stack root a path is in or at (the directory of the edgeops.yaml it uses), if any. */
function ownerOf(abs: string): string | undefined {
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const file = nearestProjectFiles(stat.isDirectory() ? abs : dirname(abs))[0];
  return file === undefined ? undefined : dirname(file);
}

/**
 * The stacks of the run when `path` holds more than one stack root; undefined for today's one-stack run. Decided
 * as the CLI decides (src/cli/stack-runs.ts): counted without reading a file; roots that cannot run together
 * (an invalid edgeops.yaml, two naming one stack, a cycle of after) throw ManifestError; several roots refuse
 * EDGEOPS_STACK and manifests that belong to no root; roots named one by one that agree on one stack are one run.
 */
export function findStacks(s: Session): StackSet | undefined {
  const { paths } = s.inputs;
  if (stackRootDirs(paths, s.cwd).dirs.size <= 1) return undefined;
  const { roots } = findStackRoots(paths, s.cwd, { allowSameStack: true, fileRefs: false });
  if (new Set(roots.map((r) => r.stack)).size === 1 && paths.every((p) => ownerOf(resolve(s.cwd, p)) !== undefined)) return undefined;
  const found = findStackRoots(paths, s.cwd, { fileRefs: false });
  const count = found.roots.length;
  if (s.env.EDGEOPS_STACK) throw new ActionInputError(`EDGEOPS_STACK names one stack, but path holds ${count} stack roots, each naming its own: leave it unset`);
  if (found.loose.length > 0) {
    const shown = found.loose.slice(0, 10).join(', ') + (found.loose.length > 10 ? ` and ${found.loose.length - 10} more` : '');
    throw new ActionInputError(`path holds ${count} stack roots, and manifests that belong to none of them (no edgeops.yaml in or above their directory): ${shown}; move them into a stack root or give them an edgeops.yaml of their own`);
  }
  let listing: ReturnType<typeof listStacks>;
  try {
    listing = listStacks(paths, s.cwd, { changedSince: baseSha(s) });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // A shallow checkout has no base commit to compare with.
    throw new ActionInputError(`cannot tell which stacks the pull request changes: ${err.message}. Check out the whole history (actions/checkout with fetch-depth: 0), or set stacks: all`);
  }
  return {
    repoRoot: listing.repoRoot,
    stacks: listing.stacks,
    removedConfig: new Map(listing.removed.map((r) => [r.dir, r.config])),
    base: listing.base,
  };
}
