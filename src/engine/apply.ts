// The executor: the only engine code with effects. Runs the plan's actions through p-limit, each as soon as
// its prerequisites are done (so deletes run dependents first and creates dependencies first), substitutes
// PendingRefs with ids created earlier in the run, writes the ownership marker into metadata, and on a failure
// skips only the failed action's dependents. An aborted signal stops new actions from starting (but for the
// old halves of replaces already half done). Old resources left live beside their replacements are reported.
import pLimit from 'p-limit';
import { ApiError, EdgeopsError } from '../errors.ts';
import type { Api, LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import { StepGraph, type Step } from './graph.ts';
import { createChecked } from './landed.ts';
import { keptOld, type KeptContext } from './kept-old.ts';
import type { Action, ActionResult, ApplyEvent, ApplyResult, KeptOld, Plan } from './plan-data.ts';
import { pendingTargets } from '../kinds/refs.ts';
import { wireBody } from '../kinds/sent-body.ts';

interface ExecutorOptions {
  stack: string;
  concurrency: number;
  kindOf: (kind: string) => ResourceKind | undefined;
  /** The live item an action acts on (update, module ops, delete, replace's old delete). */
  liveItem: (kind: string, id: string) => LiveItem | undefined;
  onEvent?: (e: ApplyEvent) => void;
  signal?: AbortSignal;
}

interface ExecutorResult extends ApplyResult {
  /** Items created by this run, by address (for the post-apply check and callers that report ids). */
  created: Map<string, LiveItem>;
}

type NodeState = 'done' | 'failed' | 'skipped';
const INTERRUPTED = 'interrupted';

function errorOf(err: unknown): NonNullable<ActionResult['error']> {
  if (err instanceof ApiError) return { status: err.status, errorCode: err.errorCode, message: err.serviceMessage };
  return { message: err instanceof Error ? err.message : String(err) };
}

export async function applyPlan(plan: Plan, api: Api, opts: ExecutorOptions): Promise<ExecutorResult> {
  const graph = new StepGraph(plan.actions);
  const order = graph.steps();
  const rank = new Map(order.map((step, i) => [step, i]));
  const dependents = new Map<Step, Step[]>();
  const waiting = new Map<Step, number>();
  for (const step of order) {
    const deps = graph.prerequisites(step);
    waiting.set(step, deps.length);
    for (const dep of deps) {
      const list = dependents.get(dep);
      if (list) list.push(step);
      else dependents.set(dep, [step]);
    }
  }

  // The ids each address had when the plan was made: a create's landed check must never take one of them for
  // the resource it makes (a replace's old resource has the same marker, and its last phase deletes it).
  const existing = new Map<string, Set<string>>();
  for (const a of plan.actions) {
    if (a.liveId === undefined) continue;
    const ids = existing.get(a.address);
    if (ids) ids.add(a.liveId);
    else existing.set(a.address, new Set([a.liveId]));
  }

  const limit = pLimit(Math.max(1, Math.floor(opts.concurrency) || 1));
  const ids = new Map<string, string>();
  const created = new Map<string, LiveItem>();
  const state = new Map<Step, NodeState>();
  const errors = new Map<Step, NonNullable<ActionResult['error']>>();
  const because = new Map<Step, string>();
  let interrupted = false;
  const emit = (e: ApplyEvent): void => {
    try {
      opts.onEvent?.(e);
    } catch {
      // A broken progress display must not leave the apply half-scheduled.
    }
  };

  const kindOf = (a: Action): ResourceKind => {
    const kind = opts.kindOf(a.kind);
    if (!kind) throw new EdgeopsError('E_APPLY', `unknown kind ${a.kind}`);
    return kind;
  };
  const liveOf = (a: Action): LiveItem => opts.liveItem(a.kind, a.liveId ?? '') ?? { id: a.liveId ?? '', raw: {} };
  /** The body to send (wireBody, which the plan's checks measure): every reference an id this run created. */
  const sendable = (a: Action, kind: ResourceKind, body: Obj, metadata: boolean): Obj => {
    const left = pendingTargets(body).filter((address) => !ids.has(address));
    if (left.length > 0) throw new EdgeopsError('E_APPLY', `${a.address}: no id for ${left.join(', ')}`);
    return wireBody(kind, body, { stack: opts.stack, address: a.address, ids: (address) => ids.get(address), metadata });
  };

  async function run(step: Step): Promise<void> {
    const a = step.action;
    const kind = kindOf(a);
    if (step.phase === 'delete-old') return kind.delete(api, liveOf(a));
    const desired = a.desired ?? a.body ?? {};
    switch (a.op) {
      case 'create':
      case 'replace': {
        const target = { kind, address: a.address, stack: opts.stack, existing: existing.get(a.address) };
        const item = await createChecked(target, api, sendable(a, kind, a.body ?? {}, true));
        // Dependents are repointed to this id and the old phase deletes the old one: they must never be the same.
        if (a.op === 'replace' && item.id === a.liveId) throw new EdgeopsError('E_APPLY', `${a.address}: the replacement has the old id ${item.id}`);
        ids.set(a.address, item.id);
        created.set(a.address, item);
        return;
      }
      case 'update':
        return kind.update(api, liveOf(a), sendable(a, kind, a.body ?? {}, 'metadata' in (a.body ?? {})), sendable(a, kind, desired, true));
      case 'module-put':
        if (!kind.putModule || !a.module) throw new EdgeopsError('E_APPLY', `${a.kind} has no module ${a.module ?? ''}`);
        return kind.putModule(api, liveOf(a), a.module, sendable(a, kind, a.body ?? {}, false));
      case 'module-delete':
        if (!kind.deleteModule || !a.module) throw new EdgeopsError('E_APPLY', `${a.kind} has no module ${a.module ?? ''}`);
        return kind.deleteModule(api, liveOf(a), a.module);
      case 'delete':
        return kind.delete(api, liveOf(a));
    }
  }

  let settled = 0;
  let allSettled!: () => void;
  const finished = new Promise<void>((resolve) => (allSettled = resolve));

  /** Progress events, sent when an action's last phase settles (a replace is done once the old one is gone). */
  const report = (step: Step, s: NodeState, cause?: string): void => {
    const { action } = step;
    const old = step.phase === 'delete-old';
    if (s === 'done' && action.op === 'replace' && !old) return;
    // The old phase of a replace whose create did not run: the action was already reported.
    if (old && s === 'skipped' && state.get(graph.stepsOf(action)[0]!) !== 'done') return;
    if (s === 'done') {
      const made = action.op === 'create' || action.op === 'replace' ? created.get(action.address)?.id : undefined;
      emit(made === undefined ? { type: 'done', action } : { type: 'done', action, liveId: made });
    }
    else if (s === 'failed') emit({ type: 'failed', action, error: errors.get(step)! });
    else emit({ type: 'skipped', action, because: cause ?? INTERRUPTED });
  };

  const settle = (step: Step, s: NodeState, cause?: string): void => {
    if (state.has(step)) return;
    state.set(step, s);
    if (s === 'skipped' && cause) because.set(step, cause);
    settled++;
    report(step, s, cause);
    const next = (dependents.get(step) ?? []).slice().sort((x, y) => rank.get(x)! - rank.get(y)!);
    for (const d of next) {
      if (state.has(d)) continue;
      if (s === 'done') {
        const left = waiting.get(d)! - 1;
        waiting.set(d, left);
        if (left === 0) start(d);
      } else {
        settle(d, 'skipped', s === 'failed' ? step.action.id : cause);
      }
    }
    if (settled === order.length) allSettled();
  };

  const start = (step: Step): void => {
    void limit(async () => {
      // The old half of a replace whose new half is made, with all it waits for done, still goes after an
      // interrupt: it finishes an action already half done, and leaving it would keep two live resources.
      if (opts.signal?.aborted && step.phase !== 'delete-old') {
        interrupted = true;
        settle(step, 'skipped', INTERRUPTED);
        return;
      }
      if (step.phase === 'run') emit({ type: 'start', action: step.action });
      try {
        await run(step);
        settle(step, 'done');
      } catch (err) {
        errors.set(step, errorOf(err));
        settle(step, 'failed');
      }
    });
  };

  if (order.length === 0) allSettled();
  for (const step of order) if (waiting.get(step) === 0) start(step);
  await finished;

  const results: ActionResult[] = plan.actions.map((a) => {
    const phases = graph.stepsOf(a);
    const failed = phases.find((p) => state.get(p) === 'failed');
    if (failed) return { actionId: a.id, status: 'failed', error: errors.get(failed)! };
    const skipped = phases.find((p) => state.get(p) === 'skipped');
    if (skipped) {
      const cause = because.get(skipped);
      return cause && cause !== INTERRUPTED
        ? { actionId: a.id, status: 'skipped', skippedBecause: cause }
        : { actionId: a.id, status: 'skipped' };
    }
    return { actionId: a.id, status: 'done' };
  });
  const ok = results.every((r) => r.status === 'done');
  const kept = keptOlds(plan, graph, created, (step) => {
    const s = state.get(step);
    const error = errors.get(step);
    return { state: s, detail: s === 'failed' && error ? errorText(error) : because.get(step) };
  }, opts);
  return { results, ok, ...(interrupted ? { interrupted } : {}), ...(kept.length > 0 ? { kept } : {}), created };
}

const errorText = (e: NonNullable<ActionResult['error']>): string =>
  [[e.status, e.errorCode].filter((p) => p !== undefined && p !== '').join(' '), e.message].filter(Boolean).join(': ');

/** The replaces whose new resource was made and whose old one is still live, each with why (kept-old.ts). */
function keptOlds(plan: Plan, graph: StepGraph, created: Map<string, LiveItem>, outcome: KeptContext['outcome'], opts: ExecutorOptions): KeptOld[] {
  const addressOf = new Map<string, string>();
  for (const a of plan.actions) if (a.liveId !== undefined) addressOf.set(a.liveId, a.address);
  const ctx: KeptContext = {
    kindOf: opts.kindOf,
    liveItem: opts.liveItem,
    nameOf: (id) => plan.names?.[id] ?? addressOf.get(id) ?? id,
    outcome,
    waitedFor: (old) => graph.prerequisites(old).filter((s) => s.action !== old.action),
  };
  const out: KeptOld[] = [];
  for (const a of plan.actions) {
    if (a.op !== 'replace') continue;
    const [made, old] = graph.stepsOf(a);
    const newId = created.get(a.address)?.id;
    if (outcome(made!).state !== 'done' || outcome(old!).state === 'done' || newId === undefined) continue;
    out.push(keptOld(a, old!, newId, ctx));
  }
  return out;
}
