// The one pull-request comment per stack: found again by a hidden marker on its first line and updated in
// place on every push, never posted twice. Its body is the plan (cut to fit GitHub's limit), the difference
// from the previous push, and that plan's fingerprint for the next push to compare with.
import type { GitHubClient, IssueComment } from './github.ts';
import { COMMENT_LIMIT, truncatePlanMarkdown, type Truncated } from './truncate.ts';

/** Room kept below the hard limit for anything GitHub counts differently (line endings, astral characters). */
const SAFETY_MARGIN = 512;
/** The largest fingerprint kept in a comment; larger plans keep a coarser one or none (plan-state.ts). */
export const STATE_BUDGET = 20_000;

function commentMarker(stack: string): string {
  return `<!-- edgeops-plan:${stack} -->`;
}

/**
 * The comment of this stack: its body must START with the marker, so a reply quoting it does not count.
 * If a person posted one by hand too, the bot's own comment wins.
 */
export function findPlanComment(comments: IssueComment[], stack: string): IssueComment | undefined {
  const marker = commentMarker(stack);
  const mine = comments.filter((c) => typeof c.body === 'string' && c.body.startsWith(marker));
  return mine.find((c) => c.user?.type === 'Bot') ?? mine[0];
}

interface CommentParts {
  stack: string;
  /** The Markdown plan, or a failure report. */
  planMarkdown: string;
  /** The dependency diagram of the changed resources (graph-section.ts), under the plan. */
  graphMarkdown?: string;
  /** The "since the previous plan" section, if there is a previous plan. */
  deltaMarkdown?: string;
  /** One line of small print under everything (commit, run link). */
  footer: string;
  /** The hidden fingerprint line (plan-state.ts) and the reviewed-plan record (reviewed.ts), kept last. */
  stateLine?: string;
  reviewedLine?: string;
  /** Markdown naming where the full plan is, for the truncation note. */
  fullPlanAt?: string;
}

export function buildPlanComment(parts: CommentParts): { body: string; truncated: Truncated } {
  const head = `${commentMarker(parts.stack)}\n`;
  const rest = [
    parts.graphMarkdown ? `\n${parts.graphMarkdown.trimEnd()}\n` : '',
    parts.deltaMarkdown ? `\n${parts.deltaMarkdown.trimEnd()}\n` : '',
    `\n<sub>${parts.footer}</sub>\n`,
    parts.stateLine ? `${parts.stateLine}\n` : '',
    parts.reviewedLine ? `${parts.reviewedLine}\n` : '',
  ].join('');
  const budget = COMMENT_LIMIT - SAFETY_MARGIN - head.length - rest.length;
  const truncated = truncatePlanMarkdown(parts.planMarkdown, budget, { fullPlanAt: parts.fullPlanAt });
  return { body: `${head}${truncated.text}${rest}`, truncated };
}

interface Upserted {
  action: 'created' | 'updated';
  comment: IssueComment;
}

/** Updates `existing` (found by findPlanComment) or creates the comment. */
export async function upsertPlanComment(gh: GitHubClient, issue: number, existing: IssueComment | undefined, body: string): Promise<Upserted> {
  if (existing) return { action: 'updated', comment: await gh.updateIssueComment(existing.id, body) };
  return { action: 'created', comment: await gh.createIssueComment(issue, body) };
}
