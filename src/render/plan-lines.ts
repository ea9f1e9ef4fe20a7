// The plan as a list of resource blocks and lines, independent of the output format: text.ts paints it
// for a terminal, markdown.ts turns it into a diff block, json.ts reads the grouping only.
import type { Action, FieldChange, Plan } from '../engine/plan-data.ts';
import { formatChange, formatPath, type IdNames } from './values.ts';

export type ResourceOp = 'create' | 'update' | 'replace' | 'delete';
export type Sign = '+' | '~' | '-/+' | '-';

/** Every action of one address, with the one operation a user reads for it. */
export interface ResourceGroup {
  address: string;
  /** What the header shows: the address, or a natural-key item's label (Action.label). */
  label: string;
  /** Plan.names: ids of managed resources are shown with their `Kind/name`. */
  names: IdNames;
  kind: string;
  name: string;
  op: ResourceOp;
  liveId?: string;
  reason?: string;
  /** For an adopted resource: the key that matched it (`hostport 1.tcp.example.com:20001`). */
  adopt?: string;
  /** For a renamed resource (`moved_from`): the address it had. */
  movedFrom?: string;
  actions: Action[];
}

export interface PlanLine {
  sign: Sign;
  /** 0 for a resource header, 1 for its fields and module lines, 2 for a module's fields. */
  depth: number;
  text: string;
  /** Shown dimmed after the text (the live id). */
  note?: string;
}

const OP_SIGN: Record<ResourceOp, Sign> = { create: '+', update: '~', replace: '-/+', delete: '-' };
const CHANGE_SIGN: Record<FieldChange['kind'], Sign> = { add: '+', replace: '~', remove: '-' };

/** create, replace and delete describe the whole resource; update and module actions all count as an update. */
function groupOp(actions: Action[]): ResourceOp {
  for (const op of ['delete', 'replace', 'create'] as const) if (actions.some((a) => a.op === op)) return op;
  return 'update';
}

/** Groups in the plan's own order (the order of each address's first action). */
export function groupByAddress(plan: Plan): ResourceGroup[] {
  const byAddress = new Map<string, Action[]>();
  for (const action of plan.actions) {
    const list = byAddress.get(action.address);
    if (list) list.push(action);
    else byAddress.set(action.address, [action]);
  }
  return [...byAddress.entries()].map(([address, actions]) => {
    const first = actions[0]!;
    const op = groupOp(actions);
    const main = actions.find((a) => a.op === op);
    return {
      address,
      label: actions.find((a) => a.label)?.label ?? address,
      names: plan.names ?? {},
      kind: first.kind,
      name: first.name,
      op,
      liveId: actions.find((a) => a.liveId)?.liveId,
      reason: main?.reason,
      adopt: actions.find((a) => a.adopt)?.adopt,
      movedFrom: actions.find((a) => a.movedFrom)?.movedFrom,
      actions,
    };
  });
}

/** The field changes of a module action; a module delete with none listed still shows the module going. */
export function moduleChanges(action: Action): FieldChange[] {
  if (action.op === 'module-delete' && action.changes.length === 0) {
    return [{ path: `/${action.module ?? ''}`, kind: 'remove' }];
  }
  return action.changes;
}

function changeLine(change: FieldChange, depth: number, names: IdNames): PlanLine {
  return { sign: CHANGE_SIGN[change.kind], depth, text: `${formatPath(change.path)}: ${formatChange(change, names)}` };
}

export function groupLines(group: ResourceGroup): PlanLine[] {
  const replace = group.op === 'replace' ? ` (replace: ${group.reason ?? 'a field cannot be updated'})` : '';
  const adopt = group.adopt ? ` (adopt: matched by ${group.adopt})` : '';
  const moved = group.movedFrom ? ` (moved from ${group.movedFrom})` : '';
  const header = `${group.label}${moved}${replace}${adopt}`;
  const lines: PlanLine[] = [{ sign: OP_SIGN[group.op], depth: 0, text: header, note: group.liveId }];
  for (const action of group.actions) {
    if (action.op === 'module-put') {
      lines.push({ sign: '~', depth: 1, text: `module ${action.module} (put)` });
      lines.push(...action.changes.map((c) => changeLine(c, 2, group.names)));
    } else if (action.releaseFor) {
      const forWhom = action.releaseFor.length > 0 ? action.releaseFor.join(', ') : 'its replacement';
      lines.push({ sign: '~', depth: 1, text: `first, release values for ${forWhom}` });
      lines.push(...action.changes.map((c) => changeLine(c, 2, group.names)));
    } else if (action.op === 'module-delete') {
      lines.push({ sign: '-', depth: 1, text: `module ${action.module} (delete)` });
      lines.push(...action.changes.map((c) => changeLine(c, 2, group.names)));
    } else {
      lines.push(...action.changes.map((c) => changeLine(c, 1, group.names)));
    }
  }
  return lines;
}

/** The line a destroy plan starts with, in every format. */
export function destroyHeadline(plan: Plan): string | undefined {
  if (!plan.destroy) return undefined;
  const n = plan.destroy.resources;
  return `This plan DESTROYS stack "${plan.stack}": it deletes every one of its ${n} resource${n === 1 ? '' : 's'}. apply runs it only with --destroy.`;
}

export function summaryLine(plan: Plan): string {
  if (plan.actions.length === 0) return 'No changes. Live state matches the manifests.';
  const s = plan.summary;
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete.`;
}
