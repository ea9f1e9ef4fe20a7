// The plan for a terminal, Terraform-like. Colour is decided by the caller (TTY, NO_COLOR, --no-color).
import pc from 'picocolors';
import type { Plan } from '../engine/plan-data.ts';
import { planErrorLines } from './plan-errors.ts';
import { destroyHeadline, groupByAddress, groupLines, summaryLine, type PlanLine, type Sign } from './plan-lines.ts';

export interface TextOptions {
  color: boolean;
}

type Colors = ReturnType<typeof pc.createColors>;

function paintSign(c: Colors, sign: Sign): (s: string) => string {
  switch (sign) {
    case '+': return c.green;
    case '~': return c.yellow;
    case '-/+': return c.magenta;
    case '-': return c.red;
  }
}

function renderLine(c: Colors, line: PlanLine): string {
  const indent = '  ' + '    '.repeat(line.depth);
  const paint = paintSign(c, line.sign);
  const text = line.depth === 0 ? c.bold(line.text) : line.text;
  const note = line.note ? c.dim(`  # ${line.note}`) : '';
  return `${indent}${paint(line.sign)} ${text}${note}`;
}

export function renderPlanText(plan: Plan, opts: TextOptions): string {
  const c = pc.createColors(opts.color);
  const out: string[] = [];
  const groups = groupByAddress(plan);
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
  const failing = planErrorLines(plan);
  if (failing) out.push('', ...failing.errors.map((e) => c.red(`Error: ${e}`)), c.bold(c.red(failing.closing)));
  return `${out.join('\n')}\n`;
}
