// Delete safety that informs, then blocks: `plan` shows how many resources a plan deletes against the limits
// (`max_deletes`, default 10, and `max_deletes_per_kind` of edgeops.yaml); `apply` refuses a plan over any
// limit unless --allow-deletes is given, also when the plan is a saved one. A plan that deletes every resource
// of its stack is a destroy: refused without --destroy whatever the limits (a wrong path must not wipe a stack
// small enough to pass max_deletes), and with --destroy the limits do not apply.
import { UnsafePlanError } from '../errors.ts';
import type { ResourceKind } from '../kinds/resource-kind.ts';
import type { ProjectConfig } from '../manifest/document.ts';
import type { LiveState } from './live.ts';
import { indexManaged } from './ownership.ts';
import type { Plan } from './plan-data.ts';

export const DEFAULT_MAX_DELETES = 10;

/**
 * Marks the plan a destroy when it deletes every live resource the stack manages (and it manages any); the
 * over-the-limit warnings then go, as --destroy is what apply needs. Returns the plan, marked or not.
 */
export function markDestroy(plan: Plan, live: LiveState, kinds: readonly ResourceKind[], config: ProjectConfig): Plan {
  // Retiring is the destroy said in edgeops.yaml, reviewed as a change: not a destroy to pass --destroy for,
  // so the delete limits hold it as any plan.
  if (config.retire === true) {
    const { destroy: _, ...rest } = plan;
    return { ...rest, warnings: [`edgeops.yaml says retire: true: this plan deletes every resource of stack "${plan.stack}"${plan.summary.delete > 0 ? '' : ' (it manages none)'}.`, ...plan.warnings] };
  }
  const managed = indexManaged(kinds, live.byKind, plan.stack);
  const deleted = new Set(plan.actions.filter((a) => a.op === 'delete').map((a) => a.liveId));
  const ids = [...managed.byAddress.values()].flat().map((item) => item.id);
  if (ids.length === 0 || !ids.every((id) => deleted.has(id))) {
    const { destroy: _, ...rest } = plan;
    return rest;
  }
  const limitWarnings = new Set(deleteWarnings(plan, config));
  // The banner counts what the plan deletes, as its `N to delete` does: the stack's items without a marker of
  // their own (response headers, event sources) go with it too.
  return { ...plan, destroy: { resources: plan.summary.delete }, warnings: plan.warnings.filter((w) => !limitWarnings.has(w)) };
}

interface DeleteLimit {
  /** `undefined` for the overall limit, else the kind a per-kind limit is for. */
  kind?: string;
  deletes: number;
  max: number;
}

interface DeleteCheck {
  /** Resources the plan deletes (a replacement's old resource is not counted: it is replaced, not lost). */
  deletes: number;
  /** The overall limit, then each per-kind limit of a kind the plan deletes, by kind name. */
  limits: DeleteLimit[];
  exceeded: DeleteLimit[];
}

/** The one count of a plan's deletes against `max_deletes` and `max_deletes_per_kind`; every gate and line below reads it. */
function checkDeletes(plan: Plan, config: ProjectConfig): DeleteCheck {
  const byKind = new Map<string, number>();
  for (const a of plan.actions) if (a.op === 'delete') byKind.set(a.kind, (byKind.get(a.kind) ?? 0) + 1);
  const deletes = [...byKind.values()].reduce((sum, n) => sum + n, 0);
  const limits: DeleteLimit[] = [{ deletes, max: config.max_deletes ?? DEFAULT_MAX_DELETES }];
  for (const [kind, max] of Object.entries(config.max_deletes_per_kind ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const n = byKind.get(kind) ?? 0;
    if (n > 0) limits.push({ kind, deletes: n, max });
  }
  return { deletes, limits, exceeded: limits.filter((l) => l.deletes > l.max) };
}

const overLimit = (l: DeleteLimit): string =>
  l.kind
    ? `deletes ${l.deletes} ${l.kind} resources, more than max_deletes_per_kind.${l.kind} (${l.max})`
    : `deletes ${l.deletes} resources, more than max_deletes (${l.max})`;

/** The plan's warnings, one per limit exceeded: `This plan deletes 12 resources, more than max_deletes (10); ...`. */
export function deleteWarnings(plan: Plan, config: ProjectConfig): string[] {
  return checkDeletes(plan, config).exceeded.map((l) => `This plan ${overLimit(l)}; apply refuses it without --allow-deletes.`);
}

const describe = (l: DeleteLimit): string => (l.kind ? `${l.kind} ${l.deletes} of max ${l.max}` : `${l.deletes} of max ${l.max}`);

/**
 * The threshold status under a plan that deletes within its limits: `Deletes: 3 of max 10 (TCPEdge 1 of max 2),
 * within the limits.` Undefined when the plan deletes nothing, or exceeds a limit: then the plan's own warning
 * (deleteWarnings) says so, with the --allow-deletes hint.
 */
export function deleteStatusLine(plan: Plan, config: ProjectConfig): string | undefined {
  const check = checkDeletes(plan, config);
  if (plan.destroy || check.deletes === 0 || check.exceeded.length > 0) return undefined;
  const [overall, ...perKind] = check.limits;
  const kinds = perKind.length > 0 ? ` (${perKind.map(describe).join(', ')})` : '';
  return `Deletes: ${describe(overall!)}${kinds}, within the limits.`;
}

/**
 * Throws UnsafePlanError for a destroy without `destroy`, and naming every limit the plan exceeds unless deletes
 * are allowed (a destroy allowed by --destroy is not held to the limits).
 */
export function assertDeletesAllowed(plan: Plan, config: ProjectConfig, allow: { deletes: boolean; destroy: boolean }): void {
  if (plan.destroy) {
    if (allow.destroy) return;
    throw new UnsafePlanError(
      `refusing to apply this plan: it deletes every resource of stack "${plan.stack}" (${plan.destroy.resources}). ` +
        'If the paths are right and the stack is to go, pass --destroy (raising the delete limits does not allow a destroy); ' +
        'otherwise check the paths and the stack setting.',
    );
  }
  if (allow.deletes) return;
  const { exceeded } = checkDeletes(plan, config);
  if (exceeded.length === 0) return;
  const reasons = exceeded.map((l) => `it ${overLimit(l)}`);
  throw new UnsafePlanError(
    `refusing to apply this plan: ${reasons.join('; ')}. Review the deletes and pass --allow-deletes to apply it anyway ` +
      `(or raise the limit in edgeops.yaml).`,
  );
}
