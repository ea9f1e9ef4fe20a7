// The stacks `path` holds, for the action: the stacks operation (src/operations/stacks.ts, what `edgeops stacks`
// prints) and, on a pull request, which stacks the change touches between its base and head, including stack
// roots it deletes. A path of one stack keeps the single-stack behaviour.
import { ConfigError } from '../errors.ts';
import type { RemovedStack } from '../manifest/stack-changes.ts';
import { severalStacks } from '../manifest/several-stacks.ts';
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
  /** The removed stack roots, with their edgeops.yaml as it was at the base. */
  removed: RemovedStack[];
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
 * The stacks of the run when `path` holds more than one stack root; undefined for today's one-stack run. Decided
 * as the CLI decides, by the same function (manifest/several-stacks.ts).
 */
export function findStacks(s: Session): StackSet | undefined {
  const { paths } = s.inputs;
  if (!severalStacks(paths, s.cwd, { hold: 'path holds', naming: s.env.EDGEOPS_STACK ? 'EDGEOPS_STACK' : undefined })) return undefined;
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
    removed: listing.removed,
    base: listing.base,
  };
}
