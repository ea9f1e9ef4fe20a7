// Stale plans on other pull requests: once a merge applied stack X, the plan on every other open pull request
// that planned X was made against live state that is gone, and its checksum would make its own merge refuse.
// Each such pull request gets a failing commit status `edgeops/X` on its head, so branch protection can keep
// it from merging; its next plan (a push, or a re-run) sets the status back to success. A status GitHub refuses
// is a warning: the merge's own result stands.
import { GitHubApiError, type GitHubClient, type IssueComment } from './github.ts';
import { STACKS_MARKER } from './stacks-comment.ts';
import { extractStacksRecord } from './stack-record.ts';
import type { Session } from './session.ts';

const context = (stack: string): string => `edgeops/${stack}`;

function warn(s: Session, what: string, err: unknown): void {
  const hint = err instanceof GitHubApiError && err.isPermission ? ' (the workflow needs `permissions: statuses: write`)' : '';
  s.runner.warning(`${what}: ${(err as Error).message}${hint}`);
}

/** The stacks the bot's multi-stack plan comment on a pull request records. */
function plannedStacks(comments: IssueComment[]): Set<string> {
  const mine = comments.filter((c) => typeof c.body === 'string' && c.body.startsWith(STACKS_MARKER));
  const comment = mine.find((c) => c.user?.type === 'Bot') ?? mine[0];
  return new Set((comment && extractStacksRecord(comment.body)?.stacks.map((r) => r.stack)) ?? []);
}

/** After applying `applied` for pull request #`merged`: a failing `edgeops/X` on every other open pull request that planned X. */
export async function markOtherPlansStale(s: Session, gh: GitHubClient, applied: string[], merged: number | undefined): Promise<void> {
  if (applied.length === 0) return;
  let pulls;
  try {
    pulls = await gh.listOpenPulls();
  } catch (err) {
    warn(s, 'could not list the open pull requests to mark their plans stale', err);
    return;
  }
  const by = merged === undefined ? 'a push to the default branch' : `#${merged}`;
  for (const pull of pulls) {
    const head = pull.head?.sha;
    if (pull.number === merged || !head) continue;
    try {
      const planned = plannedStacks(await gh.listIssueComments(pull.number));
      for (const stack of applied.filter((x) => planned.has(x))) {
        await gh.createStatus(head, { state: 'failure', context: context(stack), description: `plan is stale: ${stack} was applied by ${by}; push or re-run to re-plan` });
        s.runner.info(`pull request #${pull.number}: set ${context(stack)} to failure, its plan of ${stack} is stale`);
      }
    } catch (err) {
      warn(s, `could not mark the plan on pull request #${pull.number} stale`, err);
    }
  }
}

/** A fresh plan of `stacks` at `head`: their `edgeops/X` statuses that say stale go back to success. */
export async function clearStalePlans(s: Session, gh: GitHubClient, head: string, stacks: string[]): Promise<void> {
  if (!head || stacks.length === 0) return;
  try {
    const latest = new Map<string, string>();
    // Newest first: the first status of a context is its current state.
    for (const st of await gh.listStatuses(head)) if (!latest.has(st.context)) latest.set(st.context, st.state);
    for (const stack of stacks) {
      if (latest.get(context(stack)) !== 'failure') continue;
      await gh.createStatus(head, { state: 'success', context: context(stack), description: `plan of ${stack} is current at ${head.slice(0, 7)}` });
      s.runner.info(`set ${context(stack)} back to success: this run planned ${stack} again`);
    }
  } catch (err) {
    warn(s, 'could not clear the stale-plan statuses of this pull request', err);
  }
}
