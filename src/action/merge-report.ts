// What an apply on merge tells people when the plan is not the reviewed one: the reason, what changed since
// the reviewed plan (the plan comment's "since the previous plan" section, against the reviewed plan), the
// plan as it is now, and how to apply it. The same Markdown goes to the job summary and, as a new comment, to
// the merged pull request, where the reviewers are.
import { COMMENT_LIMIT, truncatePlanMarkdown } from './truncate.ts';
import { GitHubApiError } from './github.ts';
import { diffPlanStates, renderDelta } from './plan-delta.ts';
import { planState, type JsonPlan } from './plan-state.ts';
import type { Review } from './reviewed.ts';
import type { Session } from './session.ts';

type StaleOutcome = 'refused' | 'replanned';

const shortChecksum = (c: string | null): string => (c ? `\`${c.slice(0, 'sha256:'.length + 12)}…\`` : 'none (no changes)');

/** Why the plan cannot be applied as reviewed, in one sentence. */
export function staleReason(review: Review, current: string | null): string {
  if (review.kind === 'none') return `there is no reviewed plan to hold the apply to: ${review.why}`;
  const where = review.kind === 'input' ? 'the checksum input' : `the plan reviewed on pull request #${review.pr.number}`;
  return `the plan now differs from ${where} (checksum ${shortChecksum(current)}, reviewed ${shortChecksum(review.record.checksum)}): live state, the manifests or their policies changed since the review`;
}

/** The "since the reviewed plan" section, when the review's comment holds the reviewed plan's fingerprint. */
export function sinceReviewed(review: Review, plan: JsonPlan, sha: string): string | undefined {
  if (review.kind !== 'pull-request' || !review.state) return undefined;
  return renderDelta(diffPlanStates(review.state, planState(plan, sha)), review.state.sha, 50, 'Since the reviewed plan');
}

export interface MergeReport {
  outcome: StaleOutcome;
  stack: string;
  reason: string;
  delta?: string;
  /** The plan as it is now (Markdown). */
  planMarkdown: string;
  checksum: string | null;
  commit: string;
}

export function mergeReportMarkdown(r: MergeReport, limit = COMMENT_LIMIT): string {
  const commit = r.commit ? ` \`${r.commit.slice(0, 7)}\`` : '';
  const head = r.outcome === 'refused'
    ? `### edgeops apply for stack \`${r.stack}\` refused: not the reviewed plan\n\nNothing was applied for the merge${commit}: ${r.reason}.\n`
    : `### edgeops applied a fresh plan for stack \`${r.stack}\`, not the reviewed one\n\nThe merge${commit} applied the plan below (\`on-stale: replan\`): ${r.reason}.\n`;
  const next = r.outcome === 'refused' && r.checksum
    ? `\nTo apply the plan as it is now, review it below, then run the workflow by hand (workflow_dispatch) with \`checksum: ${r.checksum}\`.\n`
    : '';
  const rest = `${r.delta ? `\n${r.delta.trimEnd()}\n` : ''}${next}`;
  const plan = truncatePlanMarkdown(r.planMarkdown, limit - head.length - rest.length - 600, { fullPlanAt: 'the job summary' }).text;
  return `${head}${rest}\n<details><summary>The plan${r.outcome === 'refused' ? ' as it is now' : ' applied'}</summary>\n\n${plan}\n</details>\n`;
}

/**
 * A new comment on the merged pull request (the plan comment stays as reviewed). A failure is a warning:
 * the job's own result and summary already say everything.
 */
export async function commentOnPull(s: Session, review: Review, markdown: string): Promise<void> {
  const target = review.kind === 'pull-request' || review.kind === 'none' ? review : undefined;
  if (!target?.gh || !target.pr) return;
  try {
    const c = await target.gh.createIssueComment(target.pr.number, s.runner.scrub(markdown));
    s.runner.info(`commented on pull request #${target.pr.number}: ${c.html_url ?? `#${c.id}`}`);
  } catch (err) {
    const hint = err instanceof GitHubApiError && err.isPermission ? ' (the workflow needs `permissions: pull-requests: write`)' : '';
    s.runner.warning(`could not comment on pull request #${target.pr.number}: ${(err as Error).message}${hint}`);
  }
}
