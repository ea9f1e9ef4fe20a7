// The show operation: a saved plan (`plan --out FILE`) as `plan` printed it, checksum and delete line included.
// It reads one file and nothing else: no manifests, no settings, no service.
import { EdgeopsError } from '../errors.ts';
import type { Plan } from '../engine/plan-data.ts';
import type { PlanFooter } from '../render/view.ts';
import { planFooter, readSavedPlan } from './saved-plans.ts';

interface ShownPlan {
  plan: Plan;
  footer: PlanFooter;
}

export function run(file: string): ShownPlan {
  const saved = readSavedPlan(file);
  // Reading refuses an edited file; one without a digest or limits was written by an earlier edgeops, and what
  // it shows could not be vouched for, nor its delete line repeated.
  if (saved.digest === undefined || saved.delete_limits === undefined) {
    throw new EdgeopsError('E_SAVED_PLAN_OLD', `${file}: this saved plan was written by an earlier edgeops, without the digest that shows it is unedited; make a new plan with plan --out`);
  }
  // The paths the plan was made from are in the file: the apply command under the checksum names them, as plan did.
  return { plan: saved.plan, footer: planFooter(saved.plan, saved.delete_limits, saved.checksum, saved.paths) };
}
