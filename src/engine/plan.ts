// Build the plan from desired and live state. Pure: the actions of every resource in scope, their dependency
// links, a deterministic order (dependency level, then address), the summary and the warnings.
import { ManifestError } from '../errors.ts';
import type { ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { naturalCompare } from '../natural-order.ts';
import { attachmentWarning, authoritativeForChildren, childPrunes, findAttachments, keptAttachments } from './attachments.ts';
import { linkActions, StepGraph } from './graph.ts';
import type { LiveState } from './live.ts';
import type { Action, Plan, PlanSummary } from './plan-data.ts';
import { resourceActionSteps } from './resource-actions.ts';
import type { Steps } from '../pace.ts';
import type { PreparedResource } from './resource-actions.ts';
import { deleteWarnings } from './safety.ts';
import { orderForSafety } from './ordering.ts';
import { orderValueMoves } from './value-moves.ts';
import { renameHints } from './rename-hints.ts';

export interface PlanInput {
  kinds: readonly ResourceKind[];
  desired: DesiredState;
  live: LiveState;
  stack: string;
  /** prepareDesired's result when already computed (computePlan makes it while the lists are in flight). */
  prepared?: readonly PreparedResource[];
}

const OP_RANK: Record<Action['op'], number> = { delete: 0, replace: 1, create: 2, update: 3, 'module-put': 4, 'module-delete': 5 };

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The plan, a step per document (pace.ts): runAll makes it in one go, runPaced with the event loop's turns. */
export function* buildPlan(input: PlanInput): Steps<Plan> {
  const { actions, refs, warnings, issues } = yield* resourceActionSteps(input.kinds, input.desired, input.live, input.stack, input.prepared);
  if (issues.length > 0) throw new ManifestError(issues);
  const attached = findAttachments(input.kinds, input.live, input.stack);
  for (const prune of authoritativeForChildren(input.desired.config) ? childPrunes(input.kinds, input.live, attached) : []) {
    actions.push(prune.action);
    refs.set(prune.action.id, prune.refs);
  }
  linkActions(actions, (a) => refs.get(a.id) ?? { pending: [], liveRefs: [] });
  const kinds = new Map(input.kinds.map((k) => [k.kind, k]));
  const putFirst = (a: Action): boolean => a.module !== undefined && kinds.get(a.kind)?.modulePutFirst?.(a.module, a.body ?? {}) === true;
  orderForSafety(actions, (a) => refs.get(a.id)?.links, (a) => refs.get(a.id)?.moves, putFirst);
  actions.push(...orderValueMoves(actions, (a) => refs.get(a.id)?.moves));
  const levels = new StepGraph(actions).levels();
  actions.sort((a, b) => levels.get(a.id)! - levels.get(b.id)! || naturalCompare(a.address, b.address) || OP_RANK[a.op] - OP_RANK[b.op] || cmp(a.id, b.id));
  const plan: Plan = { stack: input.stack, actions, summary: summarize(actions), warnings };
  const renames = renameHints(actions, kinds);
  if (renames.length > 0) plan.renames = renames;
  const kept = keptAttachments(attached, actions);
  if (kept.length > 0) plan.attachments = kept;
  warnings.push(...kept.map(attachmentWarning), ...deleteWarnings(plan, input.desired.config));
  return plan;
}

/** Per address: create, replace and delete count once each; update, module-put and module-delete once as an update. */
export function summarize(actions: readonly Action[]): PlanSummary {
  const seen = new Set<string>();
  const summary: PlanSummary = { create: 0, update: 0, replace: 0, delete: 0 };
  for (const a of actions) {
    if (a.releaseFor) continue; // a release step is part of its resource's own action
    const bucket = a.op === 'module-put' || a.op === 'module-delete' ? 'update' : a.op;
    const key = `${bucket}\u0000${a.address}`;
    if (seen.has(key)) continue;
    seen.add(key);
    summary[bucket]++;
  }
  return summary;
}
