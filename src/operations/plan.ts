// The plan operation: live state's lists -> the manifests -> diff -> plan, with the lines about approving it
// (the delete limits' status, the checksum) and, on request, the plan saved for `apply --plan`. Read-only:
// only list GETs are sent.
import { PlanErrorsError } from '../errors.ts';
import type { KeyMaterial } from '../engine/fingerprint.ts';
import type { Plan } from '../engine/plan-data.ts';
import { planGraph } from '../engine/plan-graph.ts';
import type { ResourceGraph } from '../engine/resource-graph.ts';
import { markDestroy } from '../engine/safety.ts';
import { KINDS } from '../kinds/index.ts';
import type { Api } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { computePlan, startFetch } from '../pipeline.ts';
import type { Redactor } from '../render/redact.ts';
import type { PlanFooter } from '../render/view.ts';
import { checksumOf, planFooter, writeSavedPlan } from './saved-plans.ts';
import { policyDenial, type PolicyOptions } from './policy-gate.ts';

export interface PlanRequest {
  stack: string;
  adopt: boolean;
  /** Reads the manifests; called once the live state's lists have started, so both run at once. */
  desired(): Promise<DesiredState>;
  /** What the checksum and the saved plan's secret fingerprints are keyed with. */
  material: KeyMaterial | undefined;
  /** Also save the plan for `apply --plan FILE`, recording the manifest paths it was made from. */
  save?: { file: string; paths: string[] };
  /** The manifest paths as given, for the apply command line under the checksum. */
  paths?: string[];
  /** `--target Kind/name`: plan only these resources and what they reference. */
  targets?: string[];
  /** How policies run: which exceptions count (the Action), the time they compare with. */
  policy?: PolicyOptions;
}

export interface PlanView {
  plan(plan: Plan, footer: PlanFooter): void;
  /** The plan was saved to `file`; `note` warns about how its secret fingerprints are keyed. */
  saved(file: string, note: string | undefined): void;
  /** The plan has errors, so it was not saved to `file`. */
  notSaved(file: string): void;
  /** The manifests' dependency graph with each resource's planned action, for a view that draws it. */
  graph?(graph: ResourceGraph): void;
}

interface PlanDeps {
  api: Api;
  view: PlanView;
  /** The run's redactor: a saved plan is checked against it before a byte is written. */
  redact: Redactor;
}

export interface PlanOutcome {
  plan: Plan;
  checksum: string;
}

export async function run(request: PlanRequest, deps: PlanDeps): Promise<PlanOutcome> {
  const { stack, adopt, material } = request;
  const live = startFetch(deps.api, { stack });
  const desired = await request.desired();
  const planned = await computePlan(desired, deps.api, { stack, adopt, live, targets: request.targets, policy: request.policy });
  const plan = markDestroy(planned.plan, planned.live, KINDS, desired.config);
  const checksum = checksumOf(plan, material);
  // A plan with errors cannot be applied: no checksum to approve it (planFooter), and it is not saved.
  const footer = planFooter(plan, desired.config, checksum, request.paths);
  if (deps.view.graph) deps.view.graph(planGraph({ plan, desired, live: planned.live }, KINDS));
  deps.view.plan(plan, footer);
  if (plan.errors) {
    if (request.save) deps.view.notSaved(request.save.file);
    throw new PlanErrorsError(plan.errors, { shown: true, applying: false });
  }
  const denied = policyDenial(plan, false);
  if (denied) {
    if (request.save) deps.view.notSaved(request.save.file);
    throw denied;
  }
  if (request.save) {
    const { file, paths } = request.save;
    const note = writeSavedPlan(deps.redact, { file, plan, live: planned.live, paths, adopt, checksum, material, config: desired.config });
    deps.view.saved(file, note);
  }
  return { plan, checksum };
}
