// The plan as a Markdown document for pull-request comments: a summary table and a fenced `diff` block whose
// first column GitHub colours (+ green, - red, ! for updates and replacements).
import type { Plan } from '../engine/plan-data.ts';
import { planErrorLines } from './plan-errors.ts';
import { destroyHeadline, groupByAddress, groupLines, summaryLine, type PlanLine, type Sign } from './plan-lines.ts';

const DIFF_MARK: Record<Sign, string> = { '+': '+', '-': '-', '~': '!', '-/+': '!' };

/** The mark in column 0 stands for the sign; only a replacement keeps its own `-/+` (a `!` alone reads as update). */
function diffLine(line: PlanLine): string {
  const note = line.note ? `  # ${line.note}` : '';
  const sign = line.sign === '-/+' ? '-/+ ' : '';
  return `${DIFF_MARK[line.sign]} ${'    '.repeat(line.depth)}${sign}${line.text}${note}`;
}

/** A fence longer than any backtick run inside, so a value holding ``` cannot close the block early. */
function fenceFor(body: string): string {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>|])/g, '\\$1');
}

export function renderPlanMarkdown(plan: Plan): string {
  const out: string[] = [`### edgeops plan for stack \`${plan.stack.replace(/`/g, '')}\``, ''];
  const destroy = destroyHeadline(plan);
  if (destroy) out.push(`> [!CAUTION]\n> **${escapeInline(destroy)}**`, '');
  if (plan.actions.length === 0) {
    out.push(`**No changes.** Live state matches the manifests.`);
  } else {
    const s = plan.summary;
    out.push('| to create | to update | to replace | to delete |', '|---:|---:|---:|---:|');
    out.push(`| ${s.create} | ${s.update} | ${s.replace} | ${s.delete} |`, '');
    const body = groupByAddress(plan).map((group) => groupLines(group).map(diffLine).join('\n')).join('\n\n');
    const fence = fenceFor(body);
    out.push(`${fence}diff`, body, fence, '', summaryLine(plan));
  }
  if (plan.warnings.length > 0) {
    out.push('');
    for (const warning of plan.warnings) out.push(`> **Warning:** ${escapeInline(warning)}`);
  }
  const failing = planErrorLines(plan);
  if (failing) {
    out.push('', `> [!CAUTION]\n> **${escapeInline(failing.closing)}**\n>`);
    for (const error of failing.errors) out.push(`> - ${escapeInline(error)}`);
  }
  return `${out.join('\n')}\n`;
}
