// The plan a merge may apply: the one reviewed on the pull request. Every plan comment records, in a hidden
// line, the plan's checksum and the head commit it was planned at; on a push to the default branch the action
// finds the merged pull request of the commit, reads that line from the stack's plan comment, and applies with
// `--checksum`, so only a plan with exactly the reviewed meaning runs. workflow_dispatch names the checksum
// itself (input `checksum`).
import { findPlanComment } from './comment.ts';
import { gitHubFor, type GitHubClient, type IssueComment, type PullRequest } from './github.ts';
import { extractState, type PlanState } from './plan-state.ts';
import type { Session } from './session.ts';

/** What the comment records; `checksum` null when the reviewed plan had no changes. */
interface ReviewedRecord {
  checksum: string | null;
  sha?: string;
}

const REVIEWED_RE = /<!-- edgeops-reviewed:(sha256:[0-9a-f]{64}|none)(?: at ([0-9a-f]{7,40}))? -->/;

export function reviewedLine(checksum: string | undefined, sha: string | undefined): string {
  return `<!-- edgeops-reviewed:${checksum ?? 'none'}${sha && /^[0-9a-f]{7,40}$/.test(sha) ? ` at ${sha}` : ''} -->`;
}

export function extractReviewed(body: string): ReviewedRecord | undefined {
  const match = REVIEWED_RE.exec(body);
  if (!match) return undefined;
  return { checksum: match[1] === 'none' ? null : match[1]!, ...(match[2] ? { sha: match[2] } : {}) };
}

export type Review =
  /** The plan comment of the merged pull request. */
  | { kind: 'pull-request'; gh: GitHubClient; pr: PullRequest; record: ReviewedRecord; state?: PlanState }
  /** workflow_dispatch's `checksum` input. */
  | { kind: 'input'; record: ReviewedRecord }
  /** Nothing reviewed to hold the apply to; `why` says what is missing. `pr` is there when one was found. */
  | { kind: 'none'; why: string; gh?: GitHubClient; pr?: PullRequest };

/** The merged pull request the commit came from: the one whose merge commit it is, else any merged one. */
function mergedPull(pulls: PullRequest[], sha: string): PullRequest | undefined {
  const merged = pulls.filter((p) => p.merged_at);
  return merged.find((p) => p.merge_commit_sha === sha) ?? merged[0];
}

/**
 * The last plan comment of this stack on the pull request: the bot's own (findPlanComment), whose record must
 * be there; a comment replaced by a failed plan holds none, since nothing applicable was reviewed.
 */
function recordOf(comments: IssueComment[], stack: string): { record?: ReviewedRecord; state?: PlanState; comment?: IssueComment } {
  const comment = findPlanComment(comments, stack);
  if (!comment) return {};
  return { comment, record: extractReviewed(comment.body), state: extractState(comment.body) };
}

export async function findReview(s: Session, stack: string): Promise<Review> {
  if (s.inputs.checksum) return { kind: 'input', record: { checksum: s.inputs.checksum } };
  if (s.github.eventName !== 'push') {
    return { kind: 'none', why: `a ${s.github.eventName || 'manual'} run has no reviewed plan (give the checksum input to apply a reviewed one)` };
  }
  const gh = gitHubFor(s, 'the reviewed plan cannot be looked up');
  if (!gh) return { kind: 'none', why: 'no GitHub token to look up the pull request and its reviewed plan' };
  const sha = s.github.sha;
  // A GitHub outage throws from here and fails the apply: without the record nothing can be held to the review.
  const pr = mergedPull(await gh.pullsOfCommit(sha), sha);
  if (!pr) return { kind: 'none', gh, why: `commit \`${sha.slice(0, 7)}\` has no merged pull request (pushed directly?)` };
  const { record, state, comment } = recordOf(await gh.listIssueComments(pr.number), stack);
  if (!comment) return { kind: 'none', gh, pr, why: `pull request #${pr.number} has no edgeops plan comment for stack \`${stack}\`` };
  if (!record) return { kind: 'none', gh, pr, why: `the last plan on pull request #${pr.number} for stack \`${stack}\` failed, so no plan was reviewed` };
  return { kind: 'pull-request', gh, pr, record, state };
}

/** Where the review came from, for messages: `the plan reviewed on #12 (at 1234567)`. */
export function describeReview(review: Review): string {
  if (review.kind === 'input') return `the checksum input \`${review.record.checksum}\``;
  if (review.kind === 'none') return 'no reviewed plan';
  const at = review.record.sha ? ` at \`${review.record.sha.slice(0, 7)}\`` : '';
  return `the plan reviewed on pull request #${review.pr.number}${at}`;
}
