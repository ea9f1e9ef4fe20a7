// What a merge over several stacks does once the stacks ran: the issue of each failed stack opened or updated
// (with the checksum of what is left to apply) and that of each stack now in order closed, the result commented
// on the merged pull request, and the plans of other open pull requests that an applied stack made stale marked
// so. Each of these is a warning when GitHub refuses it: the applies themselves are done and reported.
import { closeApplyIssue, openApplyIssue } from './apply-issue.ts';
import type { GitHubClient, PullRequest } from './github.ts';
import { runPlanned } from './json-plan.ts';
import type { Session } from './session.ts';
import type { ActionStack, StackSet } from './stack-set.ts';
import { stackSession } from './stack-session.ts';
import { stacksResultMarkdown, type StackApplied } from './stacks-result.ts';
import { markOtherPlansStale } from './stale-status.ts';

interface Merged {
  gh?: GitHubClient;
  pr?: PullRequest;
}

/** `pull request #12`, or the commit when no pull request was found. */
export const mergedBy = (s: Session, m: Merged): string => (m.pr ? `pull request #${m.pr.number}` : `commit \`${s.github.sha.slice(0, 7)}\``);

/** What is left to apply after a failure, for the issue's workflow_dispatch line. */
async function leftChecksum(s: Session, set: StackSet, x: ActionStack): Promise<string | undefined> {
  const one = stackSession(s, set.repoRoot, x);
  const planned = await runPlanned(one.session, 'plan');
  await one.flush(`edgeops plan: what is left of stack ${x.stack}`);
  return planned.ok ? planned.plan.checksum : undefined;
}

export async function afterMerge(s: Session, set: StackSet, run: ActionStack[], results: StackApplied[], m: Merged): Promise<void> {
  const { gh, pr } = m;
  if (!gh) return;
  for (const r of results) {
    const x = run.find((y) => y.dir === r.dir)!;
    let line: string | undefined;
    if (r.result === 'failed') {
      line = await openApplyIssue(s, gh, { stack: r.stack, environment: x.environment, dir: r.dir, pull: pr?.number, reason: r.detail, output: r.output ?? '', checksum: await leftChecksum(s, set, x) });
    } else if (r.result === 'applied' || r.result === 'unchanged') {
      line = await closeApplyIssue(s, gh, r.stack, pr?.number);
    }
    if (line) s.runner.info(line);
  }
  if (pr) {
    try {
      const c = await gh.createIssueComment(pr.number, s.runner.scrub(stacksResultMarkdown(results, mergedBy(s, m), s.github.sha)));
      s.runner.info(`commented the result on pull request #${pr.number}: ${c.html_url ?? `#${c.id}`}`);
    } catch (err) {
      s.runner.warning(`could not comment the result on pull request #${pr.number}: ${(err as Error).message}`);
    }
  }
  await markOtherPlansStale(s, gh, results.filter((r) => r.result === 'applied').map((r) => r.stack), pr?.number);
}
