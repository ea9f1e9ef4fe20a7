// The apply operation: under the stack's lock, plan; run a saved plan only if what it acts on is unchanged, a
// checksum only if the fresh plan has exactly it; refuse a plan over the delete limits without allowDeletes and
// a destroy without `destroy`; ask for approval unless it was given; execute with progress; report what was
// written, then the self-check. Every refusal throws a typed error (src/errors.ts) before any write.
import { AbortedError, ApplyFailedError, PlanErrorsError, StalePlanError } from '../errors.ts';
import { savedFileKey, type KeyMaterial } from '../engine/fingerprint.ts';
import type { ApplyResult, Plan } from '../engine/plan-data.ts';
import { sameChecksum } from '../engine/plan-meaning.ts';
import { liveNames } from '../engine/plan-names.ts';
import { assertDeletesAllowed, deleteStatusLine, markDestroy } from '../engine/safety.ts';
import type { SavedPlan } from '../engine/saved-plan.ts';
import { checkSavedPlan } from '../engine/saved-plan-check.ts';
import { KINDS } from '../kinds/index.ts';
import type { Api } from '../kinds/resource-kind.ts';
import { LockLostError, withStackLock, type LockOptions } from '../lock/stack-lock.ts';
import type { DesiredState } from '../manifest/document.ts';
import { computePlan, executeAndCheck, precheckPlan, startFetch, type PlanContext } from '../pipeline.ts';
import type { ApplyView } from '../render/apply-progress.ts';
import { checksumOf } from './saved-plans.ts';
import { policyDenial, type PolicyOptions } from './policy-gate.ts';
import { policiesOf } from '../policy/policy-set.ts';

export type { ApplyView } from '../render/apply-progress.ts';

export interface ApplyRequest {
  stack: string;
  adopt: boolean;
  /** The manifests, already being read: they load while the lock is taken. Their problems are the run's outcome. */
  desired: Promise<DesiredState>;
  /** `apply --plan FILE`: exactly its actions run, unless what they act on changed. Approves the plan. */
  saved?: { file: string; contents: SavedPlan };
  /** `apply --checksum`: only a fresh plan with exactly this checksum runs. Approves the plan. */
  checksum?: string;
  /** `--target Kind/name` (a saved plan's own with `saved`): plan only these resources and what they reference. */
  targets?: string[];
  /** Approved already (`--auto-approve`): no prompt. */
  approved: boolean;
  allowDeletes: boolean;
  destroy: boolean;
  concurrency: number;
  material: KeyMaterial | undefined;
  lock: LockOptions & { onReleaseError?: (err: unknown, id: string) => void };
  /** How policies run: which exceptions count (the Action), the time they compare with. */
  policy?: PolicyOptions;
}

/** What the caller's interrupt handling learns: when actions start, and how to release the lock at a forced exit. */
interface InterruptHooks {
  actionsStarting(): void;
  onForcedExit(release: () => Promise<void>): void;
}

export interface ApplyDeps {
  api: Api;
  view: ApplyView;
  /** Asks for approval of the plan shown (the prompt); throws to refuse. Not called for an approved plan. */
  approve(): Promise<void>;
  /** An interrupt: before the actions start it ends the run at once; after, no new action starts. */
  signal: AbortSignal;
  interrupt?: InterruptHooks;
}

export interface ApplyOutcome {
  /** Undefined when there was nothing to do. */
  result?: ApplyResult;
}

export async function run(request: ApplyRequest, deps: ApplyDeps): Promise<ApplyOutcome> {
  const { api, view, signal: interrupt } = deps;
  const { stack, saved, material, targets } = request;
  // Invalid manifests stop a wait for the lock: their problems are the run's outcome.
  const invalid = new AbortController();
  request.desired.catch(() => invalid.abort());
  const lockSignal = AbortSignal.any([interrupt, invalid.signal, ...(request.lock.signal ? [request.lock.signal] : [])]);
  const adopt = saved?.contents.adopt ?? request.adopt;
  // The plan a context shows: a destroy marked as one.
  const shownPlan = (ctx: PlanContext): Plan => markDestroy(ctx.plan, ctx.live, KINDS, ctx.desired.config);
  // A plan the service would refuse writes nothing, not even the lock record: its errors are looked for
  // first, in the manifests and in the lists, which start while the manifests load (pipeline.ts precheckPlan).
  // Those lists only ever refuse, or judge the plan by the policies: the plan applied is made from lists read
  // under the lock.
  const lists = startFetch(api, { stack });
  const policy = request.policy;
  const checked = unlessInterrupted(interrupt, 'while planning', async () => {
    const errors = await precheckPlan(request.desired, lists, { stack, adopt, targets, api });
    if (errors.length > 0) throw new PlanErrorsError(errors, { shown: false, applying: true });
    const manifests = await request.desired;
    if (!policiesOf(manifests)) return;
    // With policies, the plan of those lists is made first and judged: a deny takes no lock and writes nothing.
    // Under the lock the plan is made again from fresh lists, and judged again.
    const judged = await computePlan(manifests, api, { stack, adopt, live: lists, targets, policy });
    if (judged.plan.errors) throw new PlanErrorsError(judged.plan.errors, { shown: false, applying: true });
    const denied = policyDenial(shownPlan(judged), true);
    if (denied) {
      view.plan(shownPlan(judged), { deletes: deleteStatusLine(shownPlan(judged), manifests.config) });
      throw denied;
    }
  });
  // The lock is held from before the plan until the apply's last read: two applies of one stack never both
  // plan a create of the same resource (README "Reliability"). So the plan is made from lists read once it
  // is held: a list read before could miss what the previous holder was still writing.
  const locking = checked.then(() => withStackLock(api, stack, { ...request.lock, signal: lockSignal }, async (lock) => {
    deps.interrupt?.onForcedExit(() => lock.release());
    const fresh = await unlessInterrupted(interrupt, 'while planning', async () =>
      computePlan(await request.desired, api, { stack, adopt, targets, policy }));
    // Live state may have changed between the check and the lock.
    if (fresh.plan.errors) throw new PlanErrorsError(fresh.plan.errors, { shown: false, applying: true });
    const denied = policyDenial(fresh.plan, true);
    if (denied) {
      view.plan(shownPlan(fresh), { deletes: deleteStatusLine(shownPlan(fresh), fresh.desired.config) });
      throw denied;
    }
    const { desired } = fresh;
    let planned: PlanContext = fresh;
    let approved = request.approved;
    if (saved) {
      planned = { ...fresh, plan: checkSavedPlan(saved.contents, fresh, KINDS, savedFileKey(saved.contents.secret_fingerprints, material)) };
      view.savedPlan(saved.file, saved.contents.checksum);
      approved = true;
    }
    const plan = markDestroy(planned.plan, planned.live, KINDS, desired.config);
    planned = { ...planned, plan };
    view.plan(plan, { deletes: deleteStatusLine(plan, desired.config) });
    if (request.checksum) {
      // An empty plan has no checksum to approve (plan prints none), so none is named: there is nothing to run.
      if (plan.actions.length === 0) {
        throw new StalePlanError(`this plan is not the approved one: live state already matches the manifests, so there is nothing to apply (the approved plan ${request.checksum} was applied already, or the manifests or live state changed since)`);
      }
      const actual = checksumOf(plan, material);
      if (!sameChecksum(request.checksum, actual)) {
        throw new StalePlanError(`this plan is not the approved one: its checksum is ${actual}, not ${request.checksum} (the manifests or live state changed since); review it and approve the new checksum`);
      }
      approved = true;
    }
    if (interrupt.aborted) throw interruptedBefore('before any action started');
    if (plan.actions.length === 0) return {};
    assertDeletesAllowed(plan, desired.config, { deletes: request.allowDeletes, destroy: request.destroy });
    if (!approved) await deps.approve();
    if (interrupt.aborted) throw interruptedBefore('before any action started');
    deps.interrupt?.actionsStarting();

    // A failure may mention any live resource (the one in the way, a referrer): each is named if managed.
    const names = { ...Object.fromEntries(liveNames(planned.live, KINDS, stack)), ...plan.names };
    const progress = view.progress(plan.actions.length, names);
    let outcome;
    try {
      outcome = await executeAndCheck(planned, api, {
        stack,
        concurrency: request.concurrency,
        onEvent: (event) => progress.onEvent(event),
        signal: AbortSignal.any([interrupt, lock.lost]),
        // Released as soon as the check's lists are read, while it plans: withStackLock awaits the same
        // release and reports its failure.
        onRelisted: () => void lock.release().catch(() => undefined),
      });
    } finally {
      progress.stop();
    }
    // What was written is always reported first; then the self-check's failure (a perpetual diff is a bug
    // in edgeops, named by field), which fails the apply even when every action succeeded.
    const { result, selfCheck } = outcome;
    view.summary(plan, result, names);
    if (lock.lost.aborted) throw new LockLostError(stack, lock.id);
    if (result.interrupted) throw new AbortedError('apply interrupted; run it again to converge');
    if (selfCheck) throw selfCheck;
    if (!result.ok) throw new ApplyFailedError('apply failed (see the failures above)');
    return { result };
  }));
  return manifestsFirst(request.desired, locking);
}

/** `work`'s outcome; but if it fails, the manifests' problems come first, whatever the service said meanwhile (a refused lock, a 401). */
export async function manifestsFirst<T>(desired: Promise<unknown>, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    await desired;
    throw err;
  }
}

const interruptedBefore = (when: string): AbortedError =>
  new AbortedError(`apply interrupted ${when}: nothing was changed; run it again to apply`);

/**
 * `start()`'s work, unless an interrupt comes first: then an AbortedError saying when, and the work is
 * abandoned (it only reads; the lock is released as the error unwinds, and the closed client ends it).
 */
function unlessInterrupted<T>(signal: AbortSignal, when: string, start: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(interruptedBefore(when));
  const work = start();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(interruptedBefore(when));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
