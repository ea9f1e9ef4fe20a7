// Posting the plan on the pull request: read the comments once, find this stack's comment, compare with the
// plan it holds, and create or update it, recording the plan's checksum for the merge (reviewed.ts). GitHub's
// 5xx answers are retried (github.ts); a comment that still could not be written fails the job or warns
// (input comment-failure), saying the pull request shows a stale plan.
import { againstNote } from './against.ts';
import { buildPlanComment, findPlanComment, STATE_BUDGET, upsertPlanComment } from './comment.ts';
import type { EdgeopsRun } from './edgeops.ts';
import { graphSection } from './graph-section.ts';
import type { ResourceGraph } from '../operations/graph.ts';
import { GitHubApiError, gitHubFor, type GitHubClient, type IssueComment } from './github.ts';
import { diffPlanStates, renderDelta } from './plan-delta.ts';
import { extractState, extractStateLine, planState, stateFor, type JsonPlan } from './plan-state.ts';
import { failureMarkdown, footer, fullPlanAt } from './report.ts';
import { extractReviewed, reviewedLine } from './reviewed.ts';
import type { Session } from './session.ts';

interface Target {
  gh: GitHubClient;
  issue: number;
  comments: IssueComment[];
}

/** What became of the comment: `failed` when it could not be written (the job then fails or warns). */
interface Commented<T> {
  value?: T;
  failed: boolean;
}

/**
 * Runs a comment step. A failure says what the pull request now shows (a stale plan, or none) and why; only a
 * refusal for the token's permissions gets the permissions hint, a 5xx that outlasted the retries does not.
 * `comment-failure` decides whether the job fails. `find` picks the comment the run updates (this stack's).
 */
export async function guarded<T>(s: Session, stack: string, fn: (t: Target) => Promise<T>, find = (comments: IssueComment[]) => findPlanComment(comments, stack)): Promise<Commented<T>> {
  const { inputs, github, runner } = s;
  if (!inputs.comment || github.pullNumber === undefined) return { failed: false };
  const gh = gitHubFor(s, 'the plan is not posted on the pull request');
  if (!gh) return { failed: false };
  let existing: IssueComment | undefined;
  try {
    const comments = await gh.listIssueComments(github.pullNumber);
    existing = find(comments);
    return { value: await fn({ gh, issue: github.pullNumber, comments }), failed: false };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const shown = existing ? extractReviewed(existing.body)?.sha : undefined;
    const what = existing
      ? `the plan comment on pull request #${github.pullNumber} is stale: it still shows ${shown ? `the plan for \`${shown.slice(0, 7)}\`` : 'an earlier plan'}, not this one`
      : `the plan was not posted on pull request #${github.pullNumber}`;
    const why = err instanceof GitHubApiError && err.isPermission
      ? ' The workflow needs `permissions: pull-requests: write`; a pull request from a fork gets a read-only token.'
      : ' GitHub did not answer after retries.';
    const text = `${what} (${message}).${why} The job summary has this run's plan.`;
    if (inputs.commentFailure === 'fail') runner.error(`${text} (comment-failure: warn keeps the job green)`);
    else runner.warning(text);
    return { failed: true };
  }
}

/**
 * Posts the plan, with the dependency diagram of what it changes when `graph` is given; returns the "since the
 * previous plan" section (for the job summary too), if there was one.
 */
export async function commentPlan(s: Session, plan: JsonPlan, markdown: string, graph?: ResourceGraph): Promise<Commented<string | undefined>> {
  return guarded(s, plan.stack, async (t) => {
    const existing = findPlanComment(t.comments, plan.stack);
    const before = existing ? extractState(existing.body) : undefined;
    const sha = s.github.headSha || undefined;
    const delta = before ? renderDelta(diffPlanStates(before, planState(plan, sha)), before.sha) : undefined;
    const stateLine = stateFor(plan, sha, STATE_BUDGET);
    const note = stateLine ? '' : ' · too large to compare with the next push';
    const { body, truncated } = buildPlanComment({
      stack: plan.stack,
      planMarkdown: markdown,
      graphMarkdown: graph && graphSection(graph),
      deltaMarkdown: delta,
      footer: footer(s.github, `edgeops plan${againstNote(s.inputs, s.cwd)}${note}`, plan.checksum ? 'merging applies exactly this plan' : undefined),
      stateLine,
      reviewedLine: reviewedLine(plan.checksum, sha),
      fullPlanAt: fullPlanAt(s.github),
    });
    const done = await upsertPlanComment(t.gh, t.issue, existing, s.runner.scrub(body));
    const cut = truncated.omitted > 0 ? ` (${truncated.omitted} of ${truncated.total} resources left out for size: ${truncated.omittedText})` : '';
    s.runner.info(`${done.action} the plan comment ${done.comment.html_url ?? `#${done.comment.id}`}${cut}`);
    return delta;
  });
}

/**
 * Replaces the plan in the comment with the failure, so an outdated plan never looks current. The previous
 * plan's fingerprint is kept, so the next good plan is still compared with the last good one. `stack` is the
 * run's stack as a run resolves it (stack.ts), so the failure replaces the comment its plans go to.
 */
export async function commentFailure(s: Session, run: EdgeopsRun, stack: string): Promise<Commented<void>> {
  return guarded(s, stack, async (t) => {
    const existing = findPlanComment(t.comments, stack);
    const { body } = buildPlanComment({
      stack,
      planMarkdown: failureMarkdown('plan', stack, run),
      footer: footer(s.github, 'edgeops plan failed'),
      stateLine: existing ? extractStateLine(existing.body) : undefined,
    });
    const done = await upsertPlanComment(t.gh, t.issue, existing, s.runner.scrub(body));
    s.runner.info(`${done.action} the plan comment ${done.comment.html_url ?? `#${done.comment.id}`} with the failure`);
  });
}
