// The plan as JSON for machines. The structure is a contract (documented in README.md, "JSON plan format"):
// fields are only ever added, and format_version changes if one is removed or changes meaning.
import type { Json } from '../kinds/resource-kind.ts';
import type { Action, FieldChange, Plan, PlanSummary } from '../engine/plan-data.ts';
import { groupByAddress, moduleChanges, type ResourceOp } from './plan-lines.ts';

export interface JsonChange {
  /** JSON pointer in the request shape, e.g. `/backend/backend_id`. */
  path: string;
  op: 'add' | 'remove' | 'replace';
  /** null when absent, sensitive, or for an add. */
  old: Json;
  /** null when absent, sensitive, or for a remove. A reference to a resource this plan creates is `{"$ref": "Kind/name"}` (and known_after_apply is true). */
  new: Json;
  sensitive: boolean;
  known_after_apply: boolean;
}

export interface JsonModuleAction {
  module: string;
  op: 'put' | 'delete';
}

export interface JsonResource {
  address: string;
  kind: string;
  name: string;
  action: ResourceOp;
  /** The live id acted on (the old id for a replace); null for a create. */
  live_id: string | null;
  /** Why a replace is needed; null for other actions. */
  reason: string | null;
  /** Edge modules replaced whole (put) or removed (delete); their field changes are in `changes` too. */
  modules: JsonModuleAction[];
  changes: JsonChange[];
  /** Only on an adopted resource (`--adopt`): the key that matched the live resource, e.g. `hostport 1.tcp.example.com:20001`. */
  adopt?: string;
  /** Only on a renamed resource (`moved_from`): the address whose live resource it keeps. */
  moved_from?: string;
  /** Only when the resource first gives up unique values (hostports) that other resources then claim. */
  release_first?: { for: string[]; changes: JsonChange[] };
}

export interface JsonPlan {
  format_version: 1;
  stack: string;
  summary: PlanSummary;
  resources: JsonResource[];
  warnings: string[];
  /** Only when the command computed it: the plan's checksum, for `apply --checksum`. */
  checksum?: string;
}

export interface JsonExtras {
  checksum?: string;
}

function jsonChange(change: FieldChange): JsonChange {
  const hidden = change.sensitive === true;
  return {
    path: change.path,
    op: change.kind,
    old: hidden || change.kind === 'add' ? null : change.old ?? null,
    new: hidden || change.kind === 'remove' ? null : change.new ?? null,
    sensitive: hidden,
    known_after_apply: change.knownAfterApply === true,
  };
}

function actionChanges(action: Action): FieldChange[] {
  return action.op === 'module-put' || action.op === 'module-delete' ? moduleChanges(action) : action.changes;
}

function releaseFirst(actions: readonly Action[]): Pick<JsonResource, 'release_first'> {
  const step = actions.find((a) => a.releaseFor);
  return step ? { release_first: { for: step.releaseFor!, changes: step.changes.map(jsonChange) } } : {};
}

export function planToJson(plan: Plan, extras: JsonExtras = {}): JsonPlan {
  const json: JsonPlan = {
    format_version: 1,
    stack: plan.stack,
    summary: { ...plan.summary },
    resources: groupByAddress(plan).map((group) => ({
      address: group.address,
      kind: group.kind,
      name: group.name,
      action: group.op,
      live_id: group.liveId ?? null,
      reason: group.op === 'replace' ? group.reason ?? null : null,
      modules: group.actions
        .filter((a) => a.op === 'module-put' || a.op === 'module-delete')
        .map((a) => ({ module: a.module ?? '', op: a.op === 'module-put' ? 'put' as const : 'delete' as const })),
      changes: group.actions.filter((a) => !a.releaseFor).flatMap(actionChanges).map(jsonChange),
      ...(group.adopt ? { adopt: group.adopt } : {}),
      ...(group.movedFrom ? { moved_from: group.movedFrom } : {}),
      ...releaseFirst(group.actions),
    })),
    warnings: [...plan.warnings],
  };
  if (extras.checksum) json.checksum = extras.checksum;
  return json;
}

export function renderPlanJson(plan: Plan, extras: JsonExtras = {}): string {
  return `${JSON.stringify(planToJson(plan, extras), null, 2)}\n`;
}
