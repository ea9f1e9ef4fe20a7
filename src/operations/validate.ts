// The validate operation: the manifests as `plan` reads them, and what a plan would refuse that they alone show
// (two documents with one hostport, a body over the service's limit). No request is made.
import { staticPlanErrors } from '../engine/plan-checks.ts';
import { ManifestError } from '../errors.ts';
import { KINDS } from '../kinds/index.ts';
import type { DesiredState } from '../manifest/document.ts';
import { sortIssues } from '../manifest/read-desired.ts';
import { staticPolicies } from '../policy/plan-policies.ts';
import { policiesOf } from '../policy/policy-set.ts';
import { resultLine } from '../policy/results.ts';

interface ValidateRequest {
  desired: DesiredState;
  stack: string;
}

/** The number of resources the manifests declare; a ManifestError holding every problem otherwise. */
export function run(request: ValidateRequest): number {
  const errors = staticPlanErrors(KINDS, request.desired, request.stack);
  // Policies that need no live state run too: an expression that cannot be evaluated is a problem here.
  const policies = staticPolicies(request.desired, { stack: request.stack, kinds: KINDS });
  errors.push(...(policies?.issues ?? []));
  if (errors.length > 0) throw new ManifestError(sortIssues(errors));
  return request.desired.resources.length;
}

/**
 * What validate says about policies besides problems: each result of the policies that need no live state
 * (nothing is known to change, so none blocks), and each policy without a test.
 */
export function policyNotes(request: ValidateRequest): string[] {
  const policies = staticPolicies(request.desired, { stack: request.stack, kinds: KINDS });
  if (!policies) return [];
  const results = policies.report.results.filter((r) => r.severity !== 'info').map((r) => `Policy: ${resultLine(r)}`);
  return [...results, ...policiesOf(request.desired)!.set.warnings.map((w) => `Warning: ${w}`)];
}
