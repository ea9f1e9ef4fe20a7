// A plan's errors (engine/plan-checks.ts) as every format shows them: each at its manifest position, then the
// line saying apply would refuse the plan.
import { formatIssue, planErrorsLine } from '../errors.ts';
import type { Plan } from '../engine/plan-data.ts';

export interface ErrorLines {
  /** `file:line:col: Kind/name: message` per error, in position order. */
  errors: string[];
  /** `Plan has N errors; apply would be refused.` */
  closing: string;
}

/** Undefined for a plan without errors. */
export function planErrorLines(plan: Plan): ErrorLines | undefined {
  const errors = plan.errors ?? [];
  if (errors.length === 0) return undefined;
  return { errors: errors.map(formatIssue), closing: `${planErrorsLine(errors.length)}.` };
}
