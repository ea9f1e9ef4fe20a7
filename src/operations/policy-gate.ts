// The policy gate of plan and apply: a plan with a blocking result (a deny, on a change, without an honoured
// exception) is refused with E_POLICY_DENIED, naming each result at its line.
import { PolicyDeniedError } from '../errors.ts';
import type { Plan } from '../engine/plan-data.ts';
import type { ExceptionApproval } from '../policy/exceptions.ts';
import { blockingResults, resultLine } from '../policy/results.ts';

export interface PolicyOptions {
  now?: Date;
  approval?: ExceptionApproval;
}

/** The refusal of a plan policies deny, or undefined. `applying`: apply refused it and wrote nothing. */
export function policyDenial(plan: Plan, applying: boolean): PolicyDeniedError | undefined {
  const blocking = blockingResults(plan.policy?.results);
  if (blocking.length === 0) return undefined;
  const n = blocking.length;
  const head = `${n} polic${n === 1 ? 'y violation denies' : 'y violations deny'} this plan${applying ? ', so apply refused it and changed nothing' : ''}`;
  return new PolicyDeniedError([head, ...blocking.map((r) => `  ${resultLine(r)}`)].join('\n'));
}
