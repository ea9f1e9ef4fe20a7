// The one pull-request comment when `path` holds several stacks: a summary table (stack, environment, changes,
// checksum), then one folded section per stack that has changes or failed, opened when it deletes or replaces
// (what a reviewer must not miss); a stack without changes is one row. Hidden lines close it: the record of
// every stack's checksum and the head commit (stack-record.ts). A body over GitHub's limit keeps the table and
// every delete and replace line; the rest moves to the job summary, which the caller writes whole.
import { removedText } from '../operations/removed-stacks.ts';
import type { JsonFailure } from '../render/error-text.ts';
import { stacksRecordLine, type StackRecord } from './stack-record.ts';
import type { JsonPlan } from './plan-state.ts';
import { COMMENT_LIMIT, keepOnlyRemovals, truncatePlanMarkdown } from './truncate.ts';
import { policyTally } from '../render/policy-section.ts';

export const STACKS_MARKER = '<!-- edgeops-stacks-plan -->';
const SAFETY_MARGIN = 512;

/** What became of one stack on this pull request. */
export type StackPlanned =
  | { outcome: 'planned'; dir: string; stack: string; environment: string | null; plan: JsonPlan; markdown: string }
  | { outcome: 'failed'; dir: string; stack: string; environment: string | null; markdown: string; failure?: JsonFailure }
  /** A stack root the pull request deletes: its live resources stay, unmanaged (`live` null when unknown). */
  | { outcome: 'removed'; dir: string; stack: string; environment: string | null; live: number | null };

export interface StacksCommentInput {
  results: StackPlanned[];
  /** Stack roots left out because none of their inputs changed (input `stacks: changed`). */
  unchanged: { dir: string; stack: string }[];
  footer: string;
  sha?: string;
  fullPlanAt: string;
}

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;
/** Inside <summary>, where Markdown is not read: an HTML code span. */
const html = (text: string): string => `<code>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code>`;
const shortChecksum = (c: string): string => code(`${c.slice(0, 'sha256:'.length + 12)}…`);

/** `1 to create, 1 to delete`: the non-zero counts, or `no changes`. */
export function changesText(plan: JsonPlan): string {
  const s = plan.summary;
  const parts = [[s.create, 'create'], [s.update, 'update'], [s.replace, 'replace'], [s.delete, 'delete']] as const;
  const text = parts.filter(([n]) => n > 0).map(([n, what]) => `${n} to ${what}`).join(', ');
  return text === '' ? 'no changes' : text;
}

function rowChanges(r: StackPlanned): string {
  if (r.outcome === 'failed') return '**plan failed**';
  if (r.outcome === 'removed') return `**removed**: ${removedText(r.stack, r.live)}`;
  return changesText(r.plan);
}

const markdownOf = (r: StackPlanned): string => (r.outcome === 'removed' ? '' : r.markdown);
const removes = (r: StackPlanned): boolean => r.outcome === 'planned' && (r.plan.summary.delete > 0 || r.plan.summary.replace > 0);
const hasSection = (r: StackPlanned): boolean => r.outcome === 'failed' || (r.outcome === 'planned' && r.plan.resources.length > 0);

function stacksTable(results: StackPlanned[]): string {
  const rows = results.map((r) => {
    const checksum = r.outcome === 'planned' && r.plan.checksum ? shortChecksum(r.plan.checksum) : '—';
    // The policy results in a word per stack: its own section lists them.
    const policy = r.outcome === 'planned' && r.plan.policy ? policyTally(r.plan.policy) : '—';
    return `| ${code(r.stack)} (${code(r.dir)}) | ${r.environment ?? '—'} | ${rowChanges(r)} | ${policy} | ${checksum} |`;
  });
  return ['| stack | environment | changes | policies | checksum |', '|---|---|---|---|---|', ...rows].join('\n');
}

function section(r: StackPlanned, markdown: string): string {
  const open = removes(r) || r.outcome === 'failed' ? ' open' : '';
  const what = r.outcome === 'planned' ? changesText(r.plan) : 'plan failed';
  return `<details${open}><summary>${html(r.stack)} (${html(r.dir)}): ${what}</summary>\n\n${markdown.trimEnd()}\n\n</details>\n`;
}

export function recordOf(results: StackPlanned[]): StackRecord[] {
  return results.map((r) => ({
    dir: r.dir,
    stack: r.stack,
    checksum: r.outcome === 'planned' ? r.plan.checksum ?? null : null,
    ...(r.outcome === 'failed' ? { failed: true as const } : {}),
    ...(r.outcome === 'removed' ? { removed: true as const } : {}),
  }));
}

function heading(c: StacksCommentInput): string {
  const changed = c.results.filter((r) => r.outcome !== 'planned' || r.plan.resources.length > 0).length;
  const planned = `${c.results.length} stack${c.results.length === 1 ? '' : 's'} planned, ${changed} with changes`;
  const left = c.unchanged.length > 0 ? `\n\nNot planned, none of their inputs changed: ${c.unchanged.map((u) => `${code(u.stack)} (${code(u.dir)})`).join(', ')}.` : '';
  if (c.results.length === 0) return `### edgeops plan: no stack changed\n\nThis pull request changes no file of any stack, so merging it applies nothing.${left}\n`;
  return `### edgeops plan: ${planned}\n\n${stacksTable(c.results)}${left}\n`;
}

/** The comment body, and whether parts of the plans had to move to the job summary. */
export function buildStacksComment(c: StacksCommentInput): { body: string; moved: boolean } {
  const head = `${STACKS_MARKER}\n${heading(c)}`;
  const tail = `\n<sub>${c.footer}</sub>\n${stacksRecordLine({ sha: c.sha, stacks: recordOf(c.results) })}\n`;
  const withSections = c.results.filter(hasSection);
  const full = withSections.map((r) => `\n${section(r, markdownOf(r))}`).join('');
  const budget = COMMENT_LIMIT - SAFETY_MARGIN - head.length - tail.length;
  if (full.length <= budget) return { body: `${head}${full}${tail}`, moved: false };

  // Too large: each plan keeps its deletes and replaces; if even those do not fit, each gets an equal share.
  const note = `\n> **Updates and creates are in ${c.fullPlanAt}**: the plans together are over GitHub's ${COMMENT_LIMIT.toLocaleString('en-US')}-character limit, so this comment keeps every delete and replace.\n`;
  const removals = withSections.map((r) => `\n${section(r, r.outcome === 'planned' ? keepOnlyRemovals(r.markdown, c.fullPlanAt) : markdownOf(r))}`);
  const room = budget - note.length;
  if (removals.join('').length <= room) return { body: `${head}${note}${removals.join('')}${tail}`, moved: true };
  const share = Math.floor(room / Math.max(1, withSections.length)) - 200;
  const cut = withSections.map((r) => `\n${section(r, truncatePlanMarkdown(markdownOf(r), Math.max(0, share), { fullPlanAt: c.fullPlanAt }).text)}`);
  return { body: `${head}${note}${cut.join('')}${tail}`, moved: true };
}

/** The job summary's whole report: the same table, then every plan in full (the caller fits it to the limit). */
export function stacksSummary(c: StacksCommentInput): string {
  return `${heading(c)}${c.results.filter(hasSection).map((r) => `\n${section(r, markdownOf(r))}`).join('')}`;
}
