// The drift operation: the planning half of the pipeline, reported as drift. Read-only by construction: the
// planner gets a read-only view of the Api (src/client/read-only.ts), so no code path here can write.
import { readOnlyApi } from '../client/read-only.ts';
import { driftReport, type DriftReport } from '../engine/drift.ts';

export type { DriftReport };
import type { Plan } from '../engine/plan-data.ts';
import type { Api } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { computePlan } from '../pipeline.ts';
import { ManifestError } from '../errors.ts';
import { KINDS } from '../kinds/index.ts';
import { sortIssues } from '../manifest/read-desired.ts';
import { livePolicies } from '../policy/plan-policies.ts';
import { isDriftFinding } from '../policy/results.ts';

interface DriftRequest {
  stack: string;
  adopt: boolean;
  desired: DesiredState;
  /** The time policies compare with (certificate expiry); now by default. */
  policy?: { now?: Date };
}

export interface DriftView {
  /** The report, and the plan that would restore the manifests' state. */
  drift(report: DriftReport, plan: Plan): void;
}

interface DriftDeps {
  api: Api;
  view: DriftView;
}

export async function run(request: DriftRequest, deps: DriftDeps): Promise<DriftReport> {
  const api = readOnlyApi(deps.api, 'drift');
  const planned = await computePlan(request.desired, api, { stack: request.stack, adopt: request.adopt, policy: request.policy });
  const { plan } = planned;
  const report = driftReport(plan);
  const policies = livePolicies(plan, planned.desired, planned.live, { stack: request.stack, kinds: KINDS, ...request.policy });
  if (policies) {
    if (policies.issues.length > 0) throw new ManifestError(sortIssues(policies.issues));
    report.policy = policies.report;
    if (policies.report.results.some(isDriftFinding)) report.inSync = false;
  }
  deps.view.drift(report, plan);
  return report;
}
