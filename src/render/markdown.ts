// Plans and drift reports as Markdown, for pull-request comments, job summaries and issue bodies. A plan is a
// summary table and a fenced `diff` block whose first column GitHub colours (+ green, - red, ! for updates and
// replacements); a drift report is its counts and one table row per finding.
import type { DriftDirection, DriftReport } from '../engine/drift.ts';
import type { Plan } from '../engine/plan-data.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { renameHintText } from './rename-hint.ts';
import { policyMarkdownLines } from './policy-section.ts';
import type { ViewFactory } from './view.ts';
import {
  approveHint, destroyHeadline, planErrorLines, targetHeadline, findingApply, findingSubject, findingText, groupByAddress, groupLines, resourceTitle, showFinding, shownValue,
  summaryLine, summaryText, valueLines, type PlanFooter, type PlanLine, type Sign,
} from './wording.ts';

/** Text shown as itself in Markdown: every character Markdown (or a table cell) would read as syntax is escaped. */
function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>|])/g, '\\$1');
}

/** A fence longer than any backtick run inside, so a value holding ``` cannot close the block early. */
function fenceFor(body: string, min: number): string {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(min, longest + 1));
}

/** Inline code that survives any content: a fence longer than any backtick run inside, pipes escaped for tables. */
function code(text: string): string {
  const fence = fenceFor(text, 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|')}${pad}${fence}`;
}

const heading = (what: string, stack: string): string => `### edgeops ${what} for stack \`${stack.replace(/`/g, '')}\``;

function warnings(out: string[], list: readonly string[]): void {
  if (list.length === 0) return;
  out.push('');
  for (const warning of list) out.push(`> **Warning:** ${escapeMarkdown(warning)}`);
}

const DIFF_MARK: Record<Sign, string> = { '+': '+', '-': '-', '~': '!', '-/+': '!', ' ': ' ' };

/** The mark in column 0 stands for the sign; only a replacement keeps its own `-/+` (a `!` alone reads as update). */
function diffLine(line: PlanLine): string {
  const note = line.note ? `  # ${line.note}` : '';
  const sign = line.sign === '-/+' ? '-/+ ' : '';
  const out = `${DIFF_MARK[line.sign]} ${'    '.repeat(line.depth)}${sign}${line.text}${note}`;
  return line.text.trim() === '' && !note ? out.trimEnd() : out;
}

/** Lines as a fenced `diff` block (first column: the mark), fenced past any backticks inside. */
function diffBlock(lines: readonly string[]): string[] {
  const body = lines.join('\n');
  const fence = fenceFor(body, 3);
  return [`${fence}diff`, body, fence];
}

function renderPlanMarkdown(plan: Plan): string {
  const out: string[] = [heading('plan', plan.stack), ''];
  const targeted = targetHeadline(plan);
  if (targeted) out.push(`> **${escapeMarkdown(targeted)}**`, '');
  const destroy = destroyHeadline(plan);
  if (destroy) out.push(`> [!CAUTION]\n> **${escapeMarkdown(destroy)}**`, '');
  if (plan.actions.length === 0) {
    out.push(`**No changes.** Live state matches the manifests.`);
  } else {
    const s = plan.summary;
    out.push('| to create | to update | to replace | to delete |', '|---:|---:|---:|---:|');
    out.push(`| ${s.create} | ${s.update} | ${s.replace} | ${s.delete} |`, '');
    const body = groupByAddress(plan).map((group) => groupLines(group).map(diffLine).join('\n')).join('\n\n');
    out.push(...diffBlock([body]), '', summaryLine(plan));
  }
  warnings(out, plan.warnings);
  if (plan.renames) out.push('', ...plan.renames.map((hint) => `> **Hint:** ${escapeMarkdown(renameHintText(hint))}`));
  out.push(...policyMarkdownLines(plan.policy, escapeMarkdown));
  const failing = planErrorLines(plan);
  if (failing) {
    out.push('', `> [!CAUTION]\n> **${escapeMarkdown(failing.closing)}**\n>`);
    for (const error of failing.errors) out.push(`> - ${escapeMarkdown(error)}`);
  }
  return `${out.join('\n')}\n`;
}

function renderFooterMarkdown(footer: PlanFooter): string {
  const lines: string[] = [];
  if (footer.deletes) lines.push(escapeMarkdown(footer.deletes));
  if (footer.checksum) lines.push(`Checksum: \`${footer.checksum}\` (${approveHint(footer.checksum, footer.applyArgs)})`);
  return lines.length > 0 ? `\n${lines.join('  \n')}\n` : '';
}

/** The live and manifests columns of a finding about the whole resource. */
const WHOLE: Record<DriftDirection, { live: string; desired: string }> = {
  missing: { live: 'absent', desired: 'present' },
  'live-only': { live: 'present', desired: 'absent' },
  unmanaged: { live: 'present, no marker', desired: 'present' },
  changed: { live: 'absent', desired: 'absent' },
};

function renderDriftMarkdown(report: DriftReport): string {
  const out: string[] = [heading('drift', report.stack), ''];
  if (report.inSync) {
    out.push(`**No drift.** Live state matches the manifests.`);
  } else {
    const s = report.summary;
    // The unmanaged column appears only when drift ran with adopt and found resources to adopt.
    const u = s.unmanaged ? { head: ' unmanaged |', rule: '---:|', cell: ` ${s.unmanaged} |` } : { head: '', rule: '', cell: '' };
    out.push(`| changed | missing | live-only |${u.head} resources |`, `|---:|---:|---:|${u.rule}---:|`, `| ${s.changed} | ${s.missing} | ${s.liveOnly} |${u.cell} ${s.resources} |`, '');
    out.push('| resource | direction | what | live | manifests | apply |', '|---|---|---|---|---|---|');
    // Values that do not fit in a cell are shown under the table, each in a diff block (- live, + manifests).
    const below: string[] = [];
    for (const r of report.resources) {
      const resource = r.liveId ? `${code(resourceTitle(r))} (${code(r.liveId)})` : code(resourceTitle(r));
      for (const f of r.findings) {
        const whole = f.path === '';
        const shown = showFinding(f, report);
        const block = shown.lines.length > 0;
        const cell = (value: Json | undefined): string => (whole ? '' : block ? (value === undefined ? '(unset)' : 'below') : code(shownValue(value, f, report.names)));
        const live = f.attachment ? 'present' : whole ? WHOLE[f.direction].live : cell(f.live);
        const desired = f.attachment ? 'absent' : whole ? WHOLE[f.direction].desired : cell(f.desired);
        const what = f.attachment ? findingText(f, report.names) : findingSubject(f);
        out.push(`| ${resource} | ${f.direction} | ${escapeMarkdown(what)} | ${live} | ${desired} | ${escapeMarkdown(findingApply(f))} |`);
        if (block) {
          const sign: Sign = f.direction === 'missing' ? '+' : f.direction === 'live-only' ? '-' : '~';
          below.push('', `${code(resourceTitle(r))} ${escapeMarkdown(findingSubject(f))} (\`-\` live, \`+\` manifests):`, '');
          below.push(...diffBlock([{ sign, depth: 0, text: shown.text }, ...valueLines(shown, 0)].map(diffLine)));
        }
      }
    }
    out.push(...below);
    out.push('', escapeMarkdown(summaryText(report)).replace(/\\`/g, '`'));
  }
  warnings(out, report.warnings);
  out.push(...policyMarkdownLines(report.policy, escapeMarkdown, true));
  return `${out.join('\n')}\n`;
}

export const markdownView: ViewFactory = () => ({
  plan: (plan, footer = {}) => renderPlanMarkdown(plan) + renderFooterMarkdown(footer),
  drift: renderDriftMarkdown,
});
