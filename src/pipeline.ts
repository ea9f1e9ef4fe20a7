// The spine of edgeops, top-down: load -> validate -> resolve (manifests), then fetch live -> diff -> plan
// (engine), then execute and check. Operations (src/operations/) call these functions and report what they return.
import { EdgeopsError } from './errors.ts';
import { runPaced } from './pace.ts';
import type { WholeStackCommand } from './manifest/stack-coverage.ts';
import { planWithAdoption } from './engine/adopt-plan.ts';
import { applyPlan } from './engine/apply.ts';
import { describeCertificates } from './engine/certificate-details.ts';
import { namePlan } from './engine/plan-names.ts';
import { fetchLive, liveIndex } from './engine/live.ts';
import { isLockRecord } from './lock/lock-record.ts';
import type { LiveState } from './engine/live.ts';
import { prepareDesiredSteps, prepareLive } from './engine/resource-actions.ts';
import type { ApplyEvent, ApplyResult, Plan } from './engine/plan-data.ts';
import { livePlanErrors, liveCheckKinds, staticPlanErrors, type PlanError } from './engine/plan-checks.ts';
import { foreignReferenceErrors } from './engine/foreign-references.ts';
import { outsideClaimErrors } from './engine/outside-claims.ts';
import { precheckForeignReferences } from './engine/reference-precheck.ts';
import { completedAddresses, perpetualDiff } from './engine/self-check.ts';
import { targetClosure, targetedErrors, targetPlan } from './engine/targets.ts';
import { KINDS } from './kinds/index.ts';
import type { Api, ResourceKind } from './kinds/resource-kind.ts';
import type { DesiredState } from './manifest/document.ts';
import { readDesiredState, sortIssues } from './manifest/read-desired.ts';
import type { ExceptionApproval } from './policy/exceptions.ts';
import { planPolicies } from './policy/plan-policies.ts';

export type { LiveState } from './engine/live.ts';

export interface PlanContext {
  plan: Plan;
  desired: DesiredState;
  live: LiveState;
}

interface PlanOptions {
  stack: string;
  /** The live state's lists when they were started earlier (startFetch), e.g. before the manifests were read. */
  live?: Promise<LiveState>;
  /** The kinds to reconcile; KINDS unless a test narrows them. */
  kinds?: readonly ResourceKind[];
  /** `--adopt` (an extension): unmanaged live resources matching a document by natural key are adopted, not duplicated. */
  adopt?: boolean;
  /** `--target Kind/name`: only these resources and what they reference are planned (engine/targets.ts). */
  targets?: readonly string[];
  /** How policies run (src/policy/): the time they compare with, and which exceptions count (the Action). */
  policy?: { now?: Date; approval?: ExceptionApproval };
}

interface ExecuteOptions extends PlanOptions {
  concurrency: number;
  onEvent?: (e: ApplyEvent) => void;
  signal?: AbortSignal;
  /** Called once the self-check's lists are read: the rest of the check reads nothing, so needs no lock. */
  onRelisted?: () => void;
}

/**
 * load -> validate -> resolve; throws ManifestError with every issue; no network. `opts.stack` (an extension)
 * is the stack chosen by a flag: the metadata size limit counts the marker, which names it. A path without
 * documents is refused unless `opts.allowEmpty` (`--destroy`); paths holding part of a stack, with
 * `opts.wholeStacks`, the command that plans or compares from them (plan, apply, drift, list, graph --plan).
 * `opts.ownStackFiles`: deeper stack roots below the paths are left to their own runs.
 */
export async function loadDesired(paths: string[], env?: NodeJS.ProcessEnv, opts: { stack?: string; allowEmpty?: boolean; wholeStacks?: WholeStackCommand; ownStackFiles?: boolean } = {}): Promise<DesiredState> {
  return readDesiredState(paths, { env, stack: opts.stack, allowEmpty: opts.allowEmpty, wholeStacks: opts.wholeStacks, ownStackFiles: opts.ownStackFiles });
}

/**
 * Starts the lists of the live state (every kind's first page at once) without waiting for them: a command
 * starts them before it reads the manifests, and passes them to computePlan as `live`. Each page's items are
 * prepared for the plan as it arrives.
 */
export function startFetch(api: Api, opts: { stack: string; kinds?: readonly ResourceKind[] }): Promise<LiveState> {
  const fetching = fetchLive(opts.kinds ?? KINDS, api, (kind, items) => prepareLive(kind, items, opts.stack), isLockRecord);
  fetching.catch(() => undefined); // awaited by computePlan: a failed fetch must not count as unhandled meanwhile
  return fetching;
}

/**
 * fetch live -> ownership (adoption) -> diff -> plan. Pure apart from the list GETs. With `adopt`, the returned
 * live state holds adopted items as this stack's (what the executor acts on).
 */
export async function computePlan(desired: DesiredState, api: Api, opts: PlanOptions): Promise<PlanContext> {
  const kinds = opts.kinds ?? KINDS;
  const fetching = opts.live ?? startFetch(api, { stack: opts.stack, kinds });
  // The manifest-only half of planning runs while the lists are in flight, paced between their pages.
  const prepared = await runPaced(prepareDesiredSteps(kinds, desired, opts.stack));
  // The manifests' own plan errors read no live state: they are found while the last pages are still coming.
  const staticErrors = staticPlanErrors(kinds, desired, opts.stack);
  const fetched = await fetching;
  // Asked while the plan is made: the service's answer needs only the lists.
  const outside = outsideClaimErrors(kinds, desired, fetched, api);
  outside.catch(() => undefined); // awaited below, once the plan is made
  const adopt = opts.adopt === true;
  // Paced: what waits for the event loop meanwhile (the stack lock's heartbeat, an interrupt) gets its turns.
  const { plan, live } = await runPaced(planWithAdoption({ kinds, desired, live: fetched, stack: opts.stack, adopt, prepared }));
  const errors = [
    ...staticErrors, ...livePlanErrors(kinds, desired, live, opts.stack, { plan, adopt }),
    ...foreignReferenceErrors(kinds, desired, live, opts.stack, plan.actions), ...await outside,
  ];
  if (errors.length > 0) plan.errors = sortIssues(errors);
  const shown = opts.targets?.length ? targetPlan(plan, { kinds, desired, live, targets: opts.targets }) : plan;
  const policies = planPolicies(shown, desired, live, { stack: opts.stack, kinds, ...opts.policy });
  if (policies) {
    shown.policy = policies.report;
    if (policies.issues.length > 0) shown.errors = sortIssues([...(shown.errors ?? []), ...policies.issues]);
  }
  return { plan: await describeCertificates(namePlan(shown, { kinds, live, desired }), kinds), desired, live };
}

/**
 * The plan's errors as far as they show before the plan is made, from every kind's lists (`lists`, started by
 * startFetch while `desired` is still being read): apply runs this before it takes the stack lock, so that a
 * plan the service would refuse writes nothing. Static errors need no list;
 * the live checks run only when the manifests write a literal id or claim a unique value (a hostport); the
 * reference check's errors count only without theirs.
 */
export async function precheckPlan(desired: DesiredState | Promise<DesiredState>, lists: Promise<LiveState>, opts: { stack: string; adopt: boolean; kinds?: readonly ResourceKind[]; targets?: readonly string[]; api?: Api }): Promise<PlanError[]> {
  const kinds = opts.kinds ?? KINDS;
  const manifests = await desired;
  // A targeted apply is refused only for errors of the resources it plans.
  const selected = opts.targets?.length ? targetClosure(manifests, opts.targets) : undefined;
  const only = (found: PlanError[]): PlanError[] => (selected ? targetedErrors(found, selected) : found);
  const errors = only(staticPlanErrors(kinds, manifests, opts.stack));
  if (errors.length > 0) return sortIssues(errors);
  const live = await lists;
  if (liveCheckKinds(kinds, manifests).length > 0) errors.push(...only(livePlanErrors(kinds, manifests, live, opts.stack, { adopt: opts.adopt })));
  // With the Api, values held outside the account too: asked only about those the plan would newly claim.
  if (opts.api) errors.push(...only(await outsideClaimErrors(kinds, manifests, live, opts.api)));
  if (errors.length === 0) errors.push(...only(precheckForeignReferences(kinds, manifests, live, { stack: opts.stack, adopt: opts.adopt })));
  return sortIssues(errors);
}

/** What an apply did, and what the post-apply check found. */
interface ExecuteOutcome {
  result: ApplyResult;
  /**
   * Why the self-check failed: a PerpetualDiffError naming the resources and fields a fresh plan still changes
   * although their actions completed, or the error of the re-plan itself. Undefined when it passed or did not
   * run (an interrupt, or no action completed).
   */
  selfCheck?: Error;
}

/**
 * Execute the plan's actions (p-limit, dependencies first), then re-plan and check that the resources whose
 * actions all completed have nothing left to do (design: Plan and apply: after apply, plan shows no changes). The check runs
 * after a partial failure too, over what did complete; it is skipped only when the apply was interrupted
 * (`signal`, which also stops new actions from starting). Never throws for a failed check: the caller prints
 * what was applied first, then the check's failure.
 */
export async function executeAndCheck(ctx: PlanContext, api: Api, opts: ExecuteOptions): Promise<ExecuteOutcome> {
  const kinds = opts.kinds ?? KINDS;
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  const { created: _created, ...result } = await applyPlan(ctx.plan, api, {
    stack: opts.stack,
    concurrency: opts.concurrency,
    kindOf: (kind) => byName.get(kind),
    liveItem: liveIndex(ctx.live),
    onEvent: opts.onEvent,
    signal: opts.signal,
  });
  if (result.interrupted || opts.signal?.aborted || completedAddresses(ctx.plan, result).size === 0) return { result };
  try {
    const live = startFetch(api, { stack: opts.stack, kinds });
    live.then(() => opts.onRelisted?.(), () => undefined);
    const again = await computePlan(ctx.desired, api, { stack: opts.stack, kinds, live });
    const bug = perpetualDiff(ctx.plan, result, again.plan);
    return bug ? { result, selfCheck: bug } : { result };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { result, selfCheck: new EdgeopsError('E_SELF_CHECK', `the check after apply could not re-plan: ${message}`) };
  }
}

/** executeAndCheck for callers without an output of their own: a failed self-check is thrown. */
export async function executePlan(ctx: PlanContext, api: Api, opts: ExecuteOptions): Promise<ApplyResult> {
  const { result, selfCheck } = await executeAndCheck(ctx, api, opts);
  if (selfCheck) throw selfCheck;
  return result;
}
