// Runs over several stacks. When the paths of validate, plan, drift, list or apply hold stack roots naming more
// than one stack (or stack roots below a directory the paths name, however many), each stack runs on its own:
// its own settings, key, lists and plan, through the command's single-stack code, with its output kept in a
// buffer and written whole when it is done, so stacks run in parallel never interleave; every line of a failure
// names its stack. Roots named one by one on the command line that agree on one stack stay one run, as always.
import { relative, resolve, sep } from 'node:path';
import { ConfigError, EdgeopsError } from '../errors.ts';
import { assertPathsExist } from '../manifest/missing-paths.ts';
import type { RemovedStack } from '../manifest/stack-changes.ts';
import { ownerOf, severalStacks } from '../manifest/several-stacks.ts';
import type { StackRoot } from '../manifest/stack-roots.ts';
import { runInOrder } from '../operations/stack-schedule.ts';
import { listStacks } from '../operations/stacks.ts';
import { errorText } from '../render/error-text.ts';
import type { CliContext } from './context.ts';

/** One stack's run: its root, and the paths to give the single-stack code (as given, or the root's dir). */
export interface StackTarget {
  root: StackRoot;
  paths: string[];
}

/** What one stack's run left: its exit code, its buffered output, and the value its code returned. */
export interface StackResult<T> {
  target: StackTarget;
  code: number;
  out: string;
  err: string;
  value?: T;
  /** The failure, when it threw. */
  error?: unknown;
  /** Not run: the stack it comes after that failed or was refused (or was itself skipped for one). */
  skipped?: string;
}


/**
 * The stacks of a run over `paths`, or undefined for a run of one stack (today's run, unchanged). Throws
 * ManifestError for roots that cannot run together, and ConfigError for --stack or EDGEOPS_STACK over several
 * stacks or for manifests under the paths that belong to no stack root.
 */
export function stackTargets(paths: readonly string[], cwd: string, stackFlag: string | undefined, env: NodeJS.ProcessEnv): StackTarget[] | undefined {
  // A path that does not exist is the usage error it is in a run of one stack, before anything else.
  assertPathsExist(paths, cwd);
  const naming = stackFlag !== undefined ? '--stack' : env.EDGEOPS_STACK ? 'EDGEOPS_STACK' : undefined;
  const several = severalStacks(paths, cwd, { hold: 'the paths hold', naming });
  return several && targetsOf(several.roots, paths, cwd);
}

/**
 * The stacks of `plan --changed-since REF` over `paths`: every stack root whose inputs changed since the merge
 * base (each a run of its own, even when it is the only one), and the stack roots removed since.
 */
export function changedTargets(paths: readonly string[], cwd: string, ref: string, stackFlag: string | undefined, env: NodeJS.ProcessEnv): { targets: StackTarget[]; unchanged: StackRoot[]; removed: RemovedStack[]; all: number } {
  assertPathsExist(paths, cwd);
  const listing = listStacks(paths, cwd, { changedSince: ref });
  const given = stackFlag !== undefined ? '--stack' : env.EDGEOPS_STACK ? 'EDGEOPS_STACK' : undefined;
  if (given && listing.roots.length > 1) throw new ConfigError(`${given} names one stack, but the paths hold ${listing.roots.length} stack roots: run them without ${given}, or name one stack root`);
  const changed = new Set(listing.stacks.filter((s) => s.changed && !s.removed).map((s) => s.dir));
  return {
    targets: targetsOf(listing.roots.filter((r) => changed.has(r.dir)), paths, cwd),
    unchanged: listing.roots.filter((r) => !changed.has(r.dir)),
    removed: listing.removed,
    all: listing.roots.length,
  };
}

function targetsOf(roots: readonly StackRoot[], paths: readonly string[], cwd: string): StackTarget[] {
  return roots.map((root) => {
    // The paths given inside this root are its run's (a part of it alone is refused there, as always); a root
    // found below a path given is run whole.
    const inside = paths.filter((p) => ownerOf(resolve(cwd, p)) === root.abs);
    const rel = relative(cwd, root.abs);
    const whole = rel === '' ? '.' : rel.startsWith(`..${sep}`) || rel === '..' ? root.abs : rel;
    return { root, paths: inside.length > 0 ? inside : [whole] };
  });
}

/** A context whose output is kept for the stack's section; the stack's secrets are redacted as it learns them. */
function bufferedContext(ctx: CliContext): { sub: CliContext; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const sub: CliContext = {
    env: ctx.env,
    get stdin() {
      return ctx.stdin;
    },
    stdout: ctx.stdout,
    stderr: ctx.stderr,
    redact: ctx.redact,
    out: (text) => void out.push(sub.redact(text)),
    err: (text) => void err.push(sub.redact(text)),
  };
  return { sub, out, err };
}

/** Each line of a stack's failure, tagged with the stack. */
export const tagged = (stack: string, text: string): string =>
  text.split('\n').map((line, i, all) => (i === all.length - 1 && line === '' ? '' : `[${stack}] ${line}`)).join('\n');

interface RunOptions<T> {
  parallel: number;
  /** The targets that must succeed before this one starts (apply's `after`); one that did not skips it. */
  after?: (target: StackTarget) => readonly StackTarget[];
  /** Each result as soon as its stack is done (or skipped). */
  onDone?: (result: StackResult<T>) => void;
}

/** What a stack's run may do besides writing: hand what it wrote so far to the terminal (before a prompt). */
interface StackRunTools {
  flush(): { out: string; err: string };
}

/**
 * Runs `run` for each target, `parallel` at once, each with its own buffered context and, with `after`, only
 * once every target it comes after succeeded (else it is skipped, naming the stack that did not). Resolves in
 * the targets' order once all are done. A failure is kept with its exit code and its error lines.
 */
export async function runEachStack<T>(
  ctx: CliContext,
  targets: readonly StackTarget[],
  opts: RunOptions<T>,
  run: (sub: CliContext, target: StackTarget, tools: StackRunTools) => Promise<{ code: number; value?: T }>,
): Promise<StackResult<T>[]> {
  const one = async (target: StackTarget): Promise<StackResult<T>> => {
    const { sub, out, err } = bufferedContext(ctx);
    const flush = (): { out: string; err: string } => ({ out: out.splice(0).join(''), err: err.splice(0).join('') });
    try {
      const done = await run(sub, target, { flush });
      return { target, code: done.code, out: out.join(''), err: err.join(''), value: done.value };
    } catch (error) {
      const failed = errorText(error);
      if (failed.internal && ctx.env.EDGEOPS_DEBUG && error instanceof Error && error.stack) err.push(`${error.stack}\n`);
      return { target, code: error instanceof EdgeopsError ? error.exitCode : 1, out: out.join(''), err: err.join('') + sub.redact(failed.text), error };
    }
  };
  const done = await runInOrder(targets, one, {
    after: opts.after ?? (() => []),
    parallel: opts.parallel,
    ok: (r) => r.code === 0,
    skipped: (target, cause) => ({ target, code: 1, out: '', err: '', skipped: cause.root.stack }),
    onDone: (_target, result) => opts.onDone?.(result),
  });
  return targets.map((t) => done.get(t)!);
}

/** `--parallel N`: a whole number from 1. */
export function parseParallel(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new ConfigError(`--parallel must be a whole number from 1 to 64, got ${JSON.stringify(value)}`);
  return n;
}
