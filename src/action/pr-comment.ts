// Posting the plan on the pull request: read the comments once, find this stack's comment, compare with the
// plan it holds, and create or update it. A failure to comment (a fork's read-only token, a missing
// `pull-requests: write` permission) is a warning: the plan itself is in the job summary either way.
import { againstNote } from './against.ts';
import { buildPlanComment, findPlanComment, STATE_BUDGET, upsertPlanComment } from './comment.ts';
import type { CliRun } from './edgeops-cli.ts';
import { GitHubClient, type IssueComment } from './github.ts';
import { diffPlanStates, renderDelta } from './plan-delta.ts';
import { extractState, extractStateLine, planState, stateFor, type JsonPlan } from './plan-state.ts';
import { failureMarkdown, footer, fullPlanAt } from './report.ts';
import type { Session } from './session.ts';

interface Target {
  gh: GitHubClient;
  issue: number;
  comments: IssueComment[];
}

async function target(s: Session): Promise<Target | undefined> {
  const { inputs, github, runner } = s;
  if (!inputs.comment || github.pullNumber === undefined) return undefined;
  if (!inputs.githubToken) {
    runner.warning('no GitHub token: the plan is not posted on the pull request (pass github-token or keep its default)');
    return undefined;
  }
  const gh = new GitHubClient({ apiUrl: github.apiUrl, token: inputs.githubToken });
  return { gh, issue: github.pullNumber, comments: await gh.listIssueComments(github.repository, github.pullNumber) };
}

/** Runs a comment step; a GitHub error becomes a warning with the usual fix. */
async function guarded<T>(s: Session, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    s.runner.warning(`could not comment on the pull request: ${message}. The workflow needs \`permissions: pull-requests: write\`; a pull request from a fork gets a read-only token.`);
    return undefined;
  }
}

/** Posts the plan; returns the "since the previous plan" section (for the job summary too), if there was one. */
export async function commentPlan(s: Session, plan: JsonPlan, markdown: string): Promise<string | undefined> {
  return guarded(s, async () => {
    const t = await target(s);
    if (!t) return undefined;
    const existing = findPlanComment(t.comments, plan.stack);
    const before = existing ? extractState(existing.body) : undefined;
    const sha = s.github.headSha || undefined;
    const delta = before ? renderDelta(diffPlanStates(before, planState(plan, sha)), before.sha) : undefined;
    const stateLine = stateFor(plan, sha, STATE_BUDGET);
    const note = stateLine ? '' : ' · too large to compare with the next push';
    const { body, truncated } = buildPlanComment({
      stack: plan.stack,
      planMarkdown: markdown,
      deltaMarkdown: delta,
      footer: footer(s.github, `edgeops plan${againstNote(s.inputs, s.cwd)}${note}`),
      stateLine,
      fullPlanAt: fullPlanAt(s.github),
    });
    const done = await upsertPlanComment(t.gh, s.github.repository, t.issue, existing, s.runner.scrub(body));
    const cut = truncated.omitted > 0 ? ` (${truncated.omitted} of ${truncated.total} resources left out for size)` : '';
    s.runner.info(`${done.action} the plan comment ${done.comment.html_url ?? `#${done.comment.id}`}${cut}`);
    return delta;
  });
}

/**
 * Replaces the plan in the comment with the failure, so an outdated plan never looks current. The previous
 * plan's fingerprint is kept, so the next good plan is still compared with the last good one. `stack` is the
 * run's stack as the CLI resolves it (stack.ts), so the failure replaces the comment its plans go to.
 */
export async function commentFailure(s: Session, run: CliRun, stack: string): Promise<void> {
  await guarded(s, async () => {
    const t = await target(s);
    if (!t) return;
    const existing = findPlanComment(t.comments, stack);
    const { body } = buildPlanComment({
      stack,
      planMarkdown: failureMarkdown('plan', stack, run),
      footer: footer(s.github, 'edgeops plan failed'),
      stateLine: existing ? extractStateLine(existing.body) : undefined,
    });
    const done = await upsertPlanComment(t.gh, s.github.repository, t.issue, existing, s.runner.scrub(body));
    s.runner.info(`${done.action} the plan comment ${done.comment.html_url ?? `#${done.comment.id}`} with the failure`);
  });
}
