// `plan` and `drift` over several stacks (stack-runs.ts): each stack planned on its own through the single-stack
// code, its report written whole under its heading, then the summary table (render/stack-report.ts); as JSON,
// one document holding each stack's single-stack JSON unchanged. Exit codes: 1 when any stack failed (the others
// still ran and reported), else 2 when asked and any stack has changes or drift, else 0.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.ts';
import type { DriftReport } from '../operations/drift.ts';
import type { PlanOutcome } from '../operations/plan.ts';
import { driftSummaryTable, failedStackJson, planSummaryTable, removedLines, removedStackJson, stackHeading, stacksJson, worthASection, type ReportFormat, type StackJson, type StackRow } from '../render/stack-report.ts';
import { failureToJson } from '../render/error-text.ts';
import type { StackRoot } from '../manifest/stack-roots.ts';
import type { CliContext } from './context.ts';
import type { RemovedNote } from '../operations/removed-stacks.ts';
import { removedLine } from './removed-stacks.ts';
import { parseParallel, runEachStack, tagged, type StackResult, type StackTarget } from './stack-runs.ts';

interface MultiFlags {
  format: string;
  ownStackFiles?: boolean;
  parallel?: string;
  jsonOut?: string;
  target?: string[];
  detailedExitcode?: boolean;
}

/** One stack's JSON report and counts, captured while its single-stack code runs. */
interface Captured {
  json?: string;
  /** drift: the plan that would restore the manifests' state, as JSON. */
  plan?: string;
}

const rowOf = (target: StackTarget): Pick<StackRow, 'stack' | 'dir' | 'environment'> => ({
  stack: target.root.stack, dir: target.root.dir, environment: target.root.environment,
});

/** Writes each stack's buffered output whole: its section (when worth one) on stdout, its notices tagged on stderr. */
function writeSections(ctx: CliContext, format: string, results: readonly StackResult<unknown>[], rows: readonly StackRow[]): void {
  results.forEach((r, i) => {
    if (format !== 'json' && worthASection(rows[i]!) && r.out !== '') ctx.out(`${stackHeading(format as ReportFormat, r.target.root.stack, r.target.root.dir)}${r.out}${r.out.endsWith('\n\n') ? '' : '\n'}`);
    if (r.err !== '') ctx.err(tagged(r.target.root.stack, r.err));
  });
}

const failure = (r: StackResult<unknown>): Record<string, unknown> => ({ error: failureToJson(r.error) });

function parsed(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

type Hooks = { json?(text: string): void; plan?(text: string): void };
type PlanOne<F> = (sub: CliContext, paths: string[], flags: F, hooks: Hooks) => Promise<PlanOutcome>;

/** With --changed-since: the stacks not planned (unchanged since the ref) and the stack roots removed since. */
interface ChangedSince {
  ref: string;
  unchanged: readonly StackRoot[];
  removed: readonly RemovedNote[];
}

export async function planStacks<F extends MultiFlags & { out?: string }>(ctx: CliContext, targets: readonly StackTarget[], flags: F, planOne: PlanOne<F>, since?: ChangedSince): Promise<number> {
  if (flags.target?.length) throw new ConfigError('--target names resources of one stack, but the paths hold several stacks: name one stack root');
  if (flags.out) mkdirSync(flags.out, { recursive: true });
  const captured = new Map<StackTarget, Captured>();
  const results = await runEachStack(ctx, targets, { parallel: parseParallel(flags.parallel, 1) }, async (sub, target) => {
    const seen: Captured = {};
    captured.set(target, seen);
    const own: F = { ...flags, jsonOut: undefined, out: flags.out ? join(flags.out, `${target.root.stack}.json`) : undefined, ownStackFiles: true };
    const outcome = await planOne(sub, target.paths, own, { json: (text) => { seen.json = text; } });
    return { code: 0, value: outcome };
  });
  const rows: StackRow[] = results.map((r) => ({
    ...rowOf(r.target),
    summary: r.value?.plan.summary,
    // As a plan of one stack prints it: only a plan with changes has a checksum to approve.
    checksum: r.value && r.value.plan.actions.length > 0 ? r.value.checksum : undefined,
    status: r.value ? undefined : 'failed',
  }));
  const entries: StackJson[] = results.map((r, i) => (r.value
    ? { ...rowOf(r.target), checksum: rows[i]!.checksum ?? null, plan: parsed(captured.get(r.target)?.json) }
    : failedStackJson(rowOf(r.target), failureToJson(r.error))));
  if (since) {
    const about = (r: { stack: string; dir: string; environment: string | null }) => ({ stack: r.stack, dir: r.dir, environment: r.environment });
    for (const root of since.unchanged) {
      rows.push({ ...about(root), note: `unchanged since ${since.ref}` });
      entries.push({ ...about(root), checksum: null, plan: null, changed: false });
    }
    for (const removed of since.removed) {
      rows.push({ ...about(removed), note: 'removed' });
      entries.push(removedStackJson(about(removed), removed.live));
    }
    const byDir = (a: { dir: string }, b: { dir: string }): number => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0);
    rows.sort(byDir);
    entries.sort(byDir);
  }
  writeSections(ctx, flags.format, results, results.map((r) => rows.find((row) => row.dir === r.target.root.dir)!));
  if (flags.format === 'json') ctx.out(stacksJson(entries));
  else ctx.out(planSummaryTable(flags.format as ReportFormat, rows) + removedLines(flags.format as ReportFormat, since?.removed.map(removedLine) ?? []));
  if (flags.jsonOut) writeFileSync(flags.jsonOut, ctx.redact(stacksJson(entries)));
  if (results.some((r) => r.code !== 0 || !r.value)) return 1;
  const changed = rows.some((r) => r.summary && r.summary.create + r.summary.update + r.summary.replace + r.summary.delete > 0);
  return flags.detailedExitcode && changed ? 2 : 0;
}

type DriftOne<F> = (sub: CliContext, paths: string[], flags: F, hooks: Hooks) => Promise<DriftReport>;

export async function driftStacks<F extends MultiFlags>(ctx: CliContext, targets: readonly StackTarget[], flags: F, driftOne: DriftOne<F>): Promise<number> {
  const captured = new Map<StackTarget, Captured>();
  const results = await runEachStack(ctx, targets, { parallel: parseParallel(flags.parallel, 1) }, async (sub, target) => {
    const seen: Captured = {};
    captured.set(target, seen);
    const own: F = { ...flags, jsonOut: undefined, ownStackFiles: true };
    const report = await driftOne(sub, target.paths, own, { json: (text) => { seen.json = text; }, plan: (text) => { seen.plan = text; } });
    return { code: 0, value: report };
  });
  const rows: StackRow[] = results.map((r) => ({
    ...rowOf(r.target),
    drifted: r.value ? r.value.resources.length : undefined,
    status: r.value ? undefined : 'failed',
  }));
  const entries: StackJson[] = results.map((r) => ({ ...rowOf(r.target), drift: parsed(captured.get(r.target)?.json), ...(r.value ? {} : failure(r)) }));
  writeSections(ctx, flags.format, results, rows);
  if (flags.format === 'json') ctx.out(stacksJson(entries, 1));
  else ctx.out(driftSummaryTable(flags.format as ReportFormat, rows));
  // As for one stack, --json-out holds the plans that would restore the manifests' state.
  if (flags.jsonOut) writeFileSync(flags.jsonOut, ctx.redact(stacksJson(results.map((r) => ({ ...rowOf(r.target), plan: parsed(captured.get(r.target)?.plan), ...(r.value ? {} : failure(r)) })))));
  if (results.some((r) => r.code !== 0 || !r.value)) return 1;
  return results.some((r) => r.value && !r.value.inSync) ? 2 : 0;
}
