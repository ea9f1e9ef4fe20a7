// The stacks `path` holds, for the action: the stacks operation (src/operations/stacks.ts, what `edgeops stacks`
// prints) and, on a pull request, which stacks the change touches between its base and head, including stack
// roots it deletes. A path of one stack (or one the reading refuses, which the single-stack run then reports as
// it always has) keeps the single-stack behaviour.
import { ConfigError, ManifestError } from '../errors.ts';
import type { ProjectConfig } from '../manifest/document.ts';
import { findStackRoots } from '../manifest/stack-roots.ts';
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

/**
 * The stacks of the run when `path` holds more than one stack root; undefined for today's one-stack run (one
 * root, or an edgeops.yaml the reading refuses, which that run reports with the manifests' other problems). As
 * the CLI does, several roots refuse EDGEOPS_STACK and manifests that belong to no root.
 */
export function findStacks(s: Session): StackSet | undefined {
  let found: ReturnType<typeof findStackRoots>;
  try {
    found = findStackRoots(s.inputs.paths, s.cwd, { allowSameStack: true });
  } catch (err) {
    if (err instanceof ManifestError) return undefined;
    throw err;
  }
  const count = found.roots.length;
  if (count < 2) return undefined;
  if (s.env.EDGEOPS_STACK) throw new ActionInputError(`EDGEOPS_STACK names one stack, but path holds ${count} stack roots, each naming its own: leave it unset`);
  if (found.loose.length > 0) {
    const shown = found.loose.slice(0, 10).join(', ') + (found.loose.length > 10 ? ` and ${found.loose.length - 10} more` : '');
    throw new ActionInputError(`path holds ${count} stack roots, and manifests that belong to none of them (no edgeops.yaml in or above their directory): ${shown}; move them into a stack root or give them an edgeops.yaml of their own`);
  }
  const base = baseSha(s);
  let listing: ReturnType<typeof listStacks>;
  try {
    listing = listStacks(s.inputs.paths, s.cwd, { changedSince: base });
  } catch (err) {
    // Two roots naming one stack: the reading says where.
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
