// `apply` over several stacks (stack-runs.ts): each stack applied on its own, under its own stack lock, each
// approved by itself (a confirmation per stack at the terminal, its name typed when its edgeops.yaml says
// `protect: true`; --auto-approve; or --checksum STACK=sha256:... for each, a stack without one not applied).
// A stack whose edgeops.yaml says `after: [DIR...]` starts once those stacks applied in the same run; one that
// failed, was refused or was not approved skips every stack after it. Independent stacks apply --parallel N
// at once (default 4), each one's output written whole when it is done; then a summary table. Exit 1 when any
// stack failed, was skipped or was not applied.
import { ConfigError } from '../errors.ts';
import type { ApplyOutcome } from '../operations/apply.ts';
import { stackHeading } from '../render/stack-report.ts';
import { confirmStackApply } from './confirm.ts';
import type { CliContext } from './context.ts';
import { checksumsByStack } from './plan-options.ts';
import { parseParallel, runEachStack, tagged, type StackResult, type StackTarget } from './stack-runs.ts';

/** The flags of `apply` that a run over several stacks reads. */
export interface ApplyStackFlags {
  autoApprove?: boolean;
  checksum?: string[];
  target?: string[];
  parallel?: string;
  /** Set for one stack of a run over several: deeper stack roots are theirs (not a flag). */
  ownStackFiles?: boolean;
}

/** What a run over several stacks decides for each stack's apply. */
export interface StackApproval {
  /** No live progress display: the output is kept for the stack's section. */
  live?: boolean;
  /** The approval at the terminal, instead of the usual prompt. */
  approve?: () => Promise<void>;
  /** The checksum approving this stack's plan. */
  checksum?: string;
}

type ApplyOne<F> = (sub: CliContext, paths: string[], flags: F, opts: StackApproval) => Promise<ApplyOutcome>;

/** Thrown for a stack that no --checksum approves: it is not applied, and the stacks after it are skipped. */
class NotApproved extends ConfigError {}

const DEFAULT_PARALLEL = 4;

/** The checksum of each stack; refuses a plain checksum and one naming no stack of the run, before any work. */
function checksumsOf(given: readonly string[] | undefined, targets: readonly StackTarget[]): Map<string, string> {
  const byStack = checksumsByStack(given);
  if (byStack.has('')) throw new ConfigError('--checksum: the paths hold several stacks; name the stack each checksum approves: --checksum STACK=sha256:...');
  const stacks = new Set(targets.map((t) => t.root.stack));
  const unknown = [...byStack.keys()].filter((s) => !stacks.has(s));
  if (unknown.length > 0) throw new ConfigError(`--checksum names ${unknown.join(', ')}, not a stack of this run (${[...stacks].join(', ')})`);
  return byStack;
}

function resultLine(r: StackResult<ApplyOutcome>): string {
  if (r.skipped !== undefined) return `skipped: ${r.skipped} failed`;
  if (r.error instanceof NotApproved) return 'not applied: no --checksum for it';
  if (r.code !== 0 || !r.value) return 'failed';
  const done = r.value.result?.results.filter((a) => a.status === 'done').length ?? 0;
  return r.value.result ? `applied (${done} action${done === 1 ? '' : 's'})` : 'no changes';
}

function summary(results: readonly StackResult<ApplyOutcome>[]): string {
  const rows = results.map((r) => [r.target.root.stack, r.target.root.dir, resultLine(r)]);
  const header = ['STACK', 'DIRECTORY', 'RESULT'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const bad = results.filter((r) => r.code !== 0).length;
  const head = `Summary: ${results.length} stacks, ${results.length - bad} applied or unchanged${bad > 0 ? `, ${bad} failed, skipped or not applied` : ''}`;
  return `${[head, ...[header, ...rows].map(line)].join('\n')}\n`;
}

export async function applyStacks<F extends ApplyStackFlags>(ctx: CliContext, targets: readonly StackTarget[], flags: F, applyOne: ApplyOne<F>): Promise<number> {
  if (flags.target?.length) throw new ConfigError('--target names resources of one stack, but the paths hold several stacks: name one stack root');
  const checksums = checksumsOf(flags.checksum, targets);
  // Asked at the terminal, one stack at a time: each plan is shown whole before its question.
  const interactive = flags.autoApprove !== true && checksums.size === 0;
  if (interactive && !ctx.stdin.isTTY) {
    throw new ConfigError('refusing to apply without confirmation: stdin is not a terminal, so nobody can answer the prompts; review the plans and pass --auto-approve or --checksum STACK=sha256:... for each stack');
  }
  const byDir = new Map(targets.map((t) => [t.root.dir, t]));
  const heading = (t: StackTarget): string => stackHeading('text', t.root.stack, t.root.dir);
  const written = new Set<StackTarget>();
  const results = await runEachStack<ApplyOutcome>(ctx, targets, {
    parallel: interactive ? 1 : parseParallel(flags.parallel, DEFAULT_PARALLEL),
    after: (t) => t.root.after.map((dir) => byDir.get(dir)).filter((d): d is StackTarget => d !== undefined),
    onDone: (r) => {
      const stack = r.target.root.stack;
      if (r.skipped !== undefined) {
        ctx.err(`[${stack}] skipped: ${r.skipped} failed\n`);
        return;
      }
      if (r.out !== '') ctx.out(`${written.has(r.target) ? '' : heading(r.target)}${r.out}\n`);
      if (r.err !== '') ctx.err(tagged(stack, r.err));
    },
  }, async (sub, target, tools) => {
    const stack = target.root.stack;
    const own: F = { ...flags, checksum: undefined, ownStackFiles: true };
    // Asked only when the plan has actions: a stack without changes needs no approval.
    const unapproved = async (): Promise<void> => {
      throw new NotApproved(`stack ${stack} was not applied: no --checksum ${stack}=sha256:... approves it`);
    };
    const approve = async (): Promise<void> => {
      // The plan so far goes to the terminal whole, with its heading, before the question about it.
      const shown = tools.flush();
      ctx.out(`${heading(target)}${shown.out}`);
      if (shown.err !== '') ctx.err(tagged(stack, shown.err));
      written.add(target);
      await confirmStackApply(ctx, stack, target.root.protect);
    };
    const value = await applyOne(sub, target.paths, own, { live: false, checksum: checksums.get(stack), approve: interactive ? approve : unapproved });
    return { code: 0, value };
  });
  ctx.out(summary(results));
  return results.every((r) => r.code === 0) ? 0 : 1;
}
