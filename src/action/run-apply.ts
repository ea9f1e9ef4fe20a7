// command: apply (pushes to the default branch): apply exactly the plan that was reviewed. The reviewed
// checksum comes from the merged pull request's plan comment (or the checksum input, reviewed.ts); a fresh
// plan with that checksum is applied by the apply operation as `edgeops apply --checksum` would, which checks
// it again under the stack lock. A plan that differs (or no reviewed plan at all) follows `on-stale`: fail applies nothing, comments
// the difference on the pull request and fails the job; replan applies the fresh plan and says so.
import { trapInterrupts } from '../interrupt.ts';
import * as apply from '../operations/apply.ts';
import { DEFAULT_LOCK_TIMEOUT, lockNotices } from '../operations/lock-notices.ts';
import { keyMaterial } from '../operations/connection.ts';
import { ConfigError } from '../errors.ts';
import { createApplyView } from '../render/apply-progress.ts';
import { commandLine, loadManifests, runEdgeops, runSettings, withService, type EdgeopsRun } from './edgeops.ts';
import { planSummaryLine, runPlanned } from './json-plan.ts';
import { commentOnPull, mergeReportMarkdown, sinceReviewed, staleReason, type MergeReport } from './merge-report.ts';
import type { JsonPlan } from './plan-state.ts';
import { fenced, firstError, lookupFailed, reportFailure } from './report.ts';
import { describeReview, findReview, type Review } from './reviewed.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import { runStack, type Session } from './session.ts';
import { truncatePlanMarkdown } from './truncate.ts';

/** Apply's closing line: `Apply complete: ...`, `Apply failed: ...` or the no-changes line. */
export function closingLine(stdout: string): string | undefined {
  const lines = stdout.split('\n').map((l) => l.trim());
  return lines.reverse().find((l) => /^(Apply complete|Apply failed|No changes)/.test(l));
}

/** `apply --checksum` refuses a plan whose meaning changed between our plan and its own. */
const CHANGED_UNDER_US = /not the approved one/;

const fit = (markdown: string): string =>
  truncatePlanMarkdown(markdown, STEP_SUMMARY_LIMIT, { measure: (t) => Buffer.byteLength(t), fullPlanAt: 'the job log' }).text;

export async function runApply(s: Session): Promise<number> {
  let review: Review;
  try {
    review = await findReview(s, runStack(s));
  } catch (err) {
    return lookupFailed(s, 'the reviewed plan', err);
  }
  const planned = await runPlanned(s, 'plan');
  if (!planned.ok) return reportFailure(s, 'apply', planned.run, undefined, undefined, planned.problems);
  const { plan } = planned;
  s.runner.setOutput('has-changes', String(plan.resources.length > 0));
  s.runner.info(planSummaryLine(plan));

  const current = plan.checksum ?? null;
  // Nothing to apply: nothing unreviewed can happen, whatever was reviewed.
  if (current === null) return applyExactly(s, plan, null, review.kind === 'none' ? 'Nothing to apply.' : `Nothing to apply (${describeReview(review)}).`);
  if (review.kind !== 'none' && review.record.checksum === current) {
    s.runner.info(`This is ${describeReview(review)}; applying exactly it.`);
    return applyExactly(s, plan, current, `Applied ${describeReview(review)}.`);
  }

  const report: MergeReport = {
    outcome: s.inputs.onStale === 'fail' ? 'refused' : 'replanned',
    stack: plan.stack,
    reason: staleReason(review, current),
    delta: sinceReviewed(review, plan, s.github.sha),
    planMarkdown: planned.run.stdout,
    checksum: current,
    commit: s.github.sha,
  };
  const markdown = mergeReportMarkdown(report);
  if (report.outcome === 'refused') {
    await commentOnPull(s, review, markdown);
    s.runner.appendSummary(fit(markdown));
    const summary = `edgeops apply refused for stack ${plan.stack}: ${report.reason}. Nothing was applied.`;
    s.runner.error(`${summary} (on-stale: replan would apply the fresh plan)`.replace(/`/g, ''));
    s.runner.setOutput('summary', summary.replace(/`/g, ''));
    return 1;
  }
  s.runner.warning(`applying a fresh plan, not a reviewed one (on-stale: replan): ${report.reason}`.replace(/`/g, ''));
  const code = await applyExactly(s, plan, current, markdown);
  await commentOnPull(s, review, code === 0 ? markdown : `${markdown}\n**The apply failed**; the workflow run's summary lists why.\n`);
  return code;
}

/**
 * The apply operation held to the checksum of the plan just made: what runs is what the summary shows. `note`
 * heads the job summary (which plan this is and why).
 */
async function applyExactly(s: Session, plan: JsonPlan, checksum: string | null, note: string): Promise<number> {
  const stack = plan.stack;
  if (checksum === null) {
    s.runner.appendSummary(`### edgeops apply for stack \`${stack}\`\n\n${note}\n\nNo changes: live state matches the manifests.\n`);
    s.runner.setOutput('summary', `No changes (stack ${stack}).`);
    return 0;
  }
  const run = await applyChecksum(s, checksum);
  if (run.code !== 0) {
    // `Apply failed: 1 action failed; 2 created, ...` says more than the generic error line on stderr; a plan
    // refused for its deletes says how to allow them here, where the flag is an input.
    const failed = closingLine(run.stdout)?.replace(/^Apply failed:\s*/, '');
    const refused = !s.inputs.allowDeletes && run.stderr.includes('--allow-deletes') ? `${firstError(run)} In the action: allow-deletes: true.` : undefined;
    const raced = CHANGED_UNDER_US.test(run.stderr) ? 'live state changed between the plan and the apply; nothing was applied. Re-run the job.' : undefined;
    return reportFailure(s, 'apply', run, stack, raced ?? failed ?? refused);
  }
  const closing = closingLine(run.stdout) ?? 'Apply complete.';
  s.runner.appendSummary(fit(`### edgeops apply for stack \`${stack}\`\n\n${note}\n\n${fenced(run.stdout.trim())}`));
  s.runner.setOutput('summary', `${closing.replace(/\.$/, '')} (stack ${stack}).`);
  return 0;
}

/**
 * `edgeops apply PATHS --checksum C [--allow-deletes]`, in this process: the progress and the summary in text
 * for the log. An interrupt (the runner cancelling the job) stops it as it stops the CLI: before the actions
 * start, nothing is written; after, the actions in flight finish and the lock is released.
 */
export function applyChecksum(s: Session, checksum: string): Promise<EdgeopsRun> {
  const line = commandLine(s, 'apply', ['--checksum', checksum, ...(s.inputs.allowDeletes ? ['--allow-deletes'] : [])]);
  return runEdgeops(s, line, true, async (o) => {
    const loading = loadManifests(s);
    loading.catch(() => undefined); // awaited by the operation, before anything is printed
    const settings = runSettings(s, await loading);
    const interrupt = trapInterrupts((text) => o.err(text));
    const request: apply.ApplyRequest = {
      stack: settings.stack,
      adopt: settings.adopt,
      desired: loading,
      checksum,
      approved: false,
      allowDeletes: s.inputs.allowDeletes,
      destroy: false,
      concurrency: settings.concurrency,
      material: keyMaterial(settings, s.edgeopsEnv),
      lock: lockNotices(settings.stack, DEFAULT_LOCK_TIMEOUT, s.edgeopsEnv, (text) => o.err(text)),
    };
    const view = createApplyView({ write: (text) => o.out(text), color: false, live: false, columns: undefined });
    // The checksum approves the plan; nothing here can answer a prompt.
    const approve = (): Promise<void> => Promise.reject(new ConfigError('refusing to apply without an approved checksum'));
    try {
      await apply.manifestsFirst(loading, withService(settings, o, (api) =>
        apply.run(request, { api, view, approve, signal: interrupt.signal, interrupt })));
    } finally {
      interrupt.dispose();
    }
    return 0;
  });
}
