// A stack whose apply failed on merge: live state is now somewhere between the reviewed plan and what was there,
// which is drift by another name, so it goes to the same issue as drift (drift-issue.ts: same marker, title and
// labels), opened or updated saying the apply failed after which pull request, with the line to apply the rest by
// hand. The next merge that applies the stack (or finds nothing left to apply) closes it, as an in-sync drift
// check does; an apply by hand of one stack root runs as one stack and leaves the issue to them.
import { driftIssueMarker, driftIssueTitle, findIssue } from './drift-issue.ts';
import { GitHubApiError, type GitHubClient } from './github.ts';
import { fenced, tail } from './report.ts';
import type { Session } from './session.ts';

interface FailedApply {
  stack: string;
  environment?: string | null;
  dir: string;
  /** The pull request whose merge applied it. */
  pull?: number;
  /** Why, in a line, and the apply's own output. */
  reason: string;
  output: string;
  /** The checksum of what is left to apply, when a plan after the failure could tell. */
  checksum?: string;
}

function body(s: Session, f: FailedApply): string {
  const after = f.pull === undefined ? `the push \`${s.github.sha.slice(0, 7)}\`` : `#${f.pull} (merge \`${s.github.sha.slice(0, 7)}\`)`;
  const run = s.github.runUrl ? ` ([workflow run](${s.github.runUrl}))` : '';
  const dispatch = f.checksum
    ? `To apply what is left once the cause is fixed, run the workflow by hand (workflow_dispatch) with \`path: ${f.dir}\` and \`checksum: ${f.checksum}\`.`
    : 'Run the workflow by hand (workflow_dispatch) on this stack to see what is left to apply.';
  return [
    driftIssueMarker(f.stack),
    `### Apply failed on stack \`${f.stack}\``,
    '',
    `The apply of stack \`${f.stack}\` (\`${f.dir}\`) failed after ${after}${run}: ${f.reason}`,
    '',
    'Live state may hold part of the plan: stacks that apply after this one were skipped.',
    dispatch,
    'This issue is closed by the next merge that applies the stack (or finds it without changes), or by a drift check that finds it in sync.',
    '',
    '<details><summary>The apply</summary>',
    '',
    fenced(tail(f.output, 80)),
    '</details>',
    '',
  ].join('\n');
}

function warn(s: Session, what: string, err: unknown): void {
  const hint = err instanceof GitHubApiError && err.isPermission ? ' (the workflow needs `permissions: issues: write`)' : '';
  s.runner.warning(`${what}: ${(err as Error).message}${hint}`);
}

/** Opens or updates the stack's issue; returns a line for the log. */
export async function openApplyIssue(s: Session, gh: GitHubClient, f: FailedApply): Promise<string | undefined> {
  try {
    const labels = s.inputs.driftIssueLabels;
    const existing = await findIssue(gh, f.stack, labels);
    const text = s.runner.scrub(body(s, f));
    const issue = existing ? await gh.updateIssue(existing.number, { body: text }) : await gh.createIssue(driftIssueTitle(f.stack, f.environment), text, labels);
    return `${existing ? 'updated' : 'opened'} issue #${issue.number} for the failed apply of stack ${f.stack}`;
  } catch (err) {
    warn(s, `the issue of stack ${f.stack} could not be opened or updated`, err);
    return undefined;
  }
}

/** Closes the stack's issue, if one is open, after a successful apply (or one that found nothing left to do). */
export async function closeApplyIssue(s: Session, gh: GitHubClient, stack: string, pull?: number): Promise<string | undefined> {
  try {
    const existing = await findIssue(gh, stack, s.inputs.driftIssueLabels);
    if (!existing) return undefined;
    const by = pull === undefined ? `the push \`${s.github.sha.slice(0, 7)}\`` : `the merge of #${pull}`;
    await gh.createIssueComment(existing.number, `Stack \`${stack}\` was applied successfully by ${by}: live state matches the manifests. Closing.`);
    await gh.updateIssue(existing.number, { state: 'closed', state_reason: 'completed' });
    return `closed issue #${existing.number}: stack ${stack} applied successfully`;
  } catch (err) {
    warn(s, `the issue of stack ${stack} could not be closed`, err);
    return undefined;
  }
}
