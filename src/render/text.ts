// Plans and drift reports for a terminal and for logs, Terraform-like. Colour is decided by the caller (TTY,
// NO_COLOR, --no-color).
import { policyTextLines } from './policy-section.ts';
import pc from 'picocolors';
import type { DriftDirection, DriftReport } from '../engine/drift.ts';
import type { Plan } from '../engine/plan-data.ts';
import { renameHintText } from './rename-hint.ts';
import type { ViewFactory } from './view.ts';
import {
  approveHint, destroyHeadline, planErrorLines, targetHeadline, findingApply, groupByAddress, groupLines, resourceHeader, showFinding, summaryLine, summaryText,
  type PlanFooter, type PlanLine, type Sign,
} from './wording.ts';

interface TextOptions {
  color: boolean;
}

type Colors = ReturnType<typeof pc.createColors>;

function paintSign(c: Colors, sign: Sign): (s: string) => string {
  switch (sign) {
    case '+': return c.green;
    case '~': return c.yellow;
    case '-/+': return c.magenta;
    case '-': return c.red;
    case ' ': return (s) => s;
  }
}

function renderLine(c: Colors, line: PlanLine): string {
  const indent = '  ' + '    '.repeat(line.depth);
  const paint = paintSign(c, line.sign);
  const text = line.depth === 0 ? c.bold(line.text) : line.text;
  const note = line.note ? c.dim(`  # ${line.note}`) : '';
  const out = `${indent}${paint(line.sign)} ${text}${note}`;
  return line.text.trim() === '' && !note ? out.trimEnd() : out;
}

function renderPlanText(plan: Plan, opts: TextOptions): string {
  const c = pc.createColors(opts.color);
  const out: string[] = [];
  const groups = groupByAddress(plan);
  const targeted = targetHeadline(plan);
  if (targeted) out.push(c.bold(targeted), '');
  const destroy = destroyHeadline(plan);
  if (destroy) out.push(c.bold(c.red(destroy)), '');
  if (groups.length > 0) {
    out.push(`edgeops will perform these actions on stack "${plan.stack}":`, '');
    for (const group of groups) {
      out.push(...groupLines(group).map((line) => renderLine(c, line)), '');
    }
  }
  out.push(c.bold(summaryLine(plan)));
  for (const warning of plan.warnings) out.push(c.yellow(`Warning: ${warning}`));
  for (const hint of plan.renames ?? []) out.push(c.cyan(`Hint: ${renameHintText(hint)}`));
  out.push(...policyTextLines(plan.policy, c));
  const failing = planErrorLines(plan);
  if (failing) out.push('', ...failing.errors.map((e) => c.red(`Error: ${e}`)), c.bold(c.red(failing.closing)));
  return `${out.join('\n')}\n`;
}

function renderFooterText(footer: PlanFooter): string {
  const lines: string[] = [];
  if (footer.deletes) lines.push(footer.deletes);
  if (footer.checksum) lines.push(`Checksum: ${footer.checksum} (${approveHint(footer.checksum, footer.applyArgs).replace(/`/g, '')})`);
  return lines.map((l) => `${l}\n`).join('');
}

function paintDirection(c: Colors, direction: DriftDirection): (s: string) => string {
  switch (direction) {
    case 'changed': return c.yellow;
    case 'missing': return c.red;
    case 'live-only': return c.magenta;
    case 'unmanaged': return c.cyan;
  }
}

/** Where a finding's text starts: after its indentation and its direction column. */
const FINDING_INDENT = ' '.repeat(4 + 9 + 2);

/** One block per resource, one line per finding (and the lines of its values, when they do not fit on it). */
function renderDriftText(report: DriftReport, opts: TextOptions): string {
  const c = pc.createColors(opts.color);
  const out: string[] = [];
  if (!report.inSync) {
    out.push(`Drift on stack "${report.stack}": live state differs from the manifests.`, '');
    for (const r of report.resources) {
      out.push(c.bold(resourceHeader(r)));
      for (const f of r.findings) {
        const apply = f.action === 'module-put' || f.action === 'module-delete' ? c.dim(`  # apply: ${findingApply(f)}`) : '';
        const shown = showFinding(f, report);
        out.push(`    ${paintDirection(c, f.direction)(f.direction.padEnd(9))}  ${shown.text}${apply}`);
        for (const line of shown.lines) {
          const text = `${FINDING_INDENT}${paintSign(c, line.mark)(line.mark)} ${'    '.repeat(line.depth)}${line.text}`;
          out.push(line.text.trim() === '' ? text.trimEnd() : text);
        }
      }
      out.push('');
    }
  }
  out.push(c.bold(summaryText(report)));
  for (const warning of report.warnings) out.push(c.yellow(`Warning: ${warning}`));
  out.push(...policyTextLines(report.policy, c, true));
  return `${out.join('\n')}\n`;
}

export const textView: ViewFactory = (opts) => ({
  plan: (plan, footer = {}) => renderPlanText(plan, opts) + renderFooterText(footer),
  drift: (report) => renderDriftText(report, opts),
});
