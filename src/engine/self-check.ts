// After an apply, the touched resources are planned again: anything left to do means live and desired still
// differ after the service accepted our change, i.e. a normalization bug in edgeops (a perpetual diff).
import { PerpetualDiffError } from '../errors.ts';
import type { ApplyResult, Plan } from './plan-data.ts';

/** Addresses whose every action of `plan` finished. */
export function completedAddresses(plan: Plan, result: ApplyResult): Set<string> {
  const status = new Map(result.results.map((r) => [r.actionId, r.status]));
  const done = new Set(plan.actions.map((a) => a.address));
  for (const a of plan.actions) if (status.get(a.id) !== 'done') done.delete(a.address);
  return done;
}

/** The error to raise when the re-plan still has actions for touched addresses, else undefined. */
export function perpetualDiff(applied: Plan, result: ApplyResult, replan: Plan): PerpetualDiffError | undefined {
  const touched = completedAddresses(applied, result);
  const left = replan.actions.filter((a) => touched.has(a.address));
  if (left.length === 0) return undefined;
  const lines = left.map((a) => {
    // Paths only: values may be secrets, and the path is what names the normalization to fix.
    const fields = a.changes.map((c) => c.path).join(', ');
    const what = a.op === 'create' ? 'not found after apply (is the ownership marker kept?)' : fields || '(no field changes)';
    return `  ${a.address}: ${a.op}${a.module ? ` ${a.module}` : ''}: ${what}`;
  });
  return new PerpetualDiffError(
    `edgeops bug: after apply, the plan still has ${left.length} action(s) for resources it just changed ` +
      `(a perpetual diff in edgeops' normalization; please report it):\n${lines.join('\n')}`,
  );
}
