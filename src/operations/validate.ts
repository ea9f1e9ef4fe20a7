// The validate operation: the manifests as `plan` reads them, and what a plan would refuse that they alone show
// (two documents with one hostport, a body over the service's limit). No request is made.
import { staticPlanErrors } from '../engine/plan-checks.ts';
import { ManifestError } from '../errors.ts';
import { KINDS } from '../kinds/index.ts';
import type { DesiredState } from '../manifest/document.ts';
import { sortIssues } from '../manifest/read-desired.ts';

interface ValidateRequest {
  desired: DesiredState;
  stack: string;
}

/** The number of resources the manifests declare; a ManifestError holding every problem otherwise. */
export function run(request: ValidateRequest): number {
  const errors = staticPlanErrors(KINDS, request.desired, request.stack);
  if (errors.length > 0) throw new ManifestError(sortIssues(errors));
  return request.desired.resources.length;
}
