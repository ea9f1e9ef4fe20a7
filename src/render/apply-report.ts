// What an apply prints: one line per finished action, and the closing summary with every failure.
// Pure text builders; apply-progress.ts decides where and how they are drawn.
import { HOSTPORT_IN_USE } from '../contract/hostport-availability.ts';
import type { Action, ActionOp, ApplyEvent, ApplyResult, Plan } from '../engine/plan-data.ts';
import { groupByAddress, type ResourceOp } from './wording.ts';
import { nameIdsIn, type IdNames } from './values.ts';

const DONE_VERB: Record<ActionOp, string> = {
  create: 'created',
  update: 'updated',
  replace: 'replaced',
  delete: 'deleted',
  'module-put': 'updated',
  'module-delete': 'updated',
};

const INFINITIVE: Record<ActionOp, string> = {
  create: 'create',
  update: 'update',
  replace: 'replace',
  delete: 'delete',
  'module-put': 'update',
  'module-delete': 'update',
};

const PENDING_VERB: Record<ActionOp, string> = {
  create: 'creating',
  update: 'updating',
  replace: 'replacing',
  delete: 'deleting',
  'module-put': 'updating',
  'module-delete': 'updating',
};

/** Actions that never started are named up to this many; the rest are counted (`and 230 more`). */
const NOT_STARTED_SHOWN = 20;

/** `TCPEdge/ssh`, or `TCPEdge/ssh: module backend put` for a module action; a natural-key item by its label. */
function actionLabel(action: Action): string {
  const name = action.label ?? action.address;
  if (action.op === 'module-put') return `${name}: module ${action.module} put`;
  if (action.op === 'module-delete') return `${name}: module ${action.module} delete`;
  if (action.releaseFor) return `${name}: release values${action.releaseFor.length > 0 ? ` for ${action.releaseFor.join(', ')}` : ''}`;
  return name;
}

/** The id a finished action produced (a create's or replace's new id) when the engine reports it, else the id acted on. */
function idOf(event: ApplyEvent): string | undefined {
  const reported = (event as { liveId?: unknown }).liveId;
  return typeof reported === 'string' ? reported : event.action.liveId;
}

export function pendingLine(action: Action): string {
  return `${PENDING_VERB[action.op]} ${actionLabel(action)}`;
}

/** The service's answer, with each id of a managed resource it mentions named (`TCPEdge/ssh (edgtcp_...)`). */
function formatError(error: { status?: number; errorCode?: string; message: string }, names?: IdNames): string {
  const head = [error.status, error.errorCode].filter((part) => part !== undefined && part !== '').join(' ');
  const message = nameIdsIn(error.message, names);
  return head ? `${head}: ${message}` : message;
}

/** A failed action as a reviewer finds it: its label and the document's `file:line`. */
function failedLabel(action: Action): string {
  return `${actionLabel(action)}${action.source ? ` (${action.source})` : ''}`;
}

/**
 * One plain line per event (`created TCPEdge/ssh (edgtcp_...)`). `start` gives none, and neither does an action
 * skipped for a reason other than a failed dependency (an interrupt): the summary counts those as not started.
 */
export function eventLine(event: ApplyEvent, names?: IdNames): string | undefined {
  switch (event.type) {
    case 'start':
      return undefined;
    case 'done': {
      const id = idOf(event);
      return `${DONE_VERB[event.action.op]} ${actionLabel(event.action)}${id ? ` (${id})` : ''}`;
    }
    case 'failed':
      return `failed to ${INFINITIVE[event.action.op]} ${failedLabel(event.action)}: ${formatError(event.error, names)}`;
    case 'skipped':
      // `because` is the failed action's id (`op:Kind/name`), or a word such as "interrupted".
      return event.because.includes(':') ? `skipped ${actionLabel(event.action)} (depends on failed ${event.because})` : undefined;
  }
}

/** Counts per address, as Plan.summary does: a create/replace/delete when that action ran, else an update when any ran. */
function doneCounts(plan: Plan, result: ApplyResult): Record<ResourceOp, number> {
  const done = new Set(result.results.filter((r) => r.status === 'done').map((r) => r.actionId));
  const counts = { create: 0, update: 0, replace: 0, delete: 0 };
  for (const group of groupByAddress(plan)) {
    const ran = group.op === 'update'
      ? group.actions.some((a) => done.has(a.id))
      : group.actions.some((a) => a.op === group.op && done.has(a.id));
    if (ran) counts[group.op] += 1;
  }
  return counts;
}

/** `names`: ids to name in failure messages (default: the plan's own names). */
export function applySummary(plan: Plan, result: ApplyResult, names: IdNames = plan.names ?? {}): string {
  const c = doneCounts(plan, result);
  const counts = `${c.create} created, ${c.update} updated, ${c.replace} replaced, ${c.delete} deleted`;
  const actionsById = new Map(plan.actions.map((a) => [a.id, a]));
  const labelOf = (id: string) => {
    const action = actionsById.get(id);
    return action ? `${action.op} ${actionLabel(action)}` : id;
  };
  const failed = result.results.filter((r) => r.status === 'failed');
  // Skipped for a failed dependency are listed with their cause; skipped with no cause (an interrupt) are
  // named under the count of actions that never started, the first NOT_STARTED_SHOWN of them.
  const skipped = result.results.filter((r) => r.status === 'skipped' && r.skippedBecause);
  const reported = new Set(result.results.filter((r) => r.status !== 'skipped' || r.skippedBecause).map((r) => r.actionId));
  const neverStarted = plan.actions.filter((a) => !reported.has(a.id));
  const notStarted = neverStarted.length;
  if (failed.length === 0 && skipped.length === 0 && notStarted === 0 && !result.interrupted) return `Apply complete: ${counts}.\n`;

  const why = [
    ...(result.interrupted ? ['interrupted'] : []),
    ...(failed.length > 0 ? [`${failed.length} action${failed.length === 1 ? '' : 's'} failed`] : []),
  ].join(', ') || 'incomplete';
  const lines = [`Apply failed: ${why}; ${counts}.`];
  for (const r of failed) {
    const action = actionsById.get(r.actionId);
    const label = action ? `${action.op} ${failedLabel(action)}` : r.actionId;
    lines.push(`  failed:  ${label}: ${formatError(r.error ?? { message: 'unknown error' }, names)}`);
  }
  for (const r of skipped) lines.push(`  skipped: ${labelOf(r.actionId)} (depends on ${r.skippedBecause})`);
  // Two live resources for one document: both ids and why, so nobody takes the old one for a leftover.
  for (const k of result.kept ?? []) {
    lines.push(`  kept:    ${k.address}: ${k.oldId} beside its replacement ${k.newId}, ${nameIdsIn(k.reason, names)}; the next plan deletes ${k.oldId}`);
  }
  if (notStarted > 0) {
    lines.push(`  not started: ${notStarted} action${notStarted === 1 ? '' : 's'}`);
    for (const a of neverStarted.slice(0, NOT_STARTED_SHOWN)) lines.push(`    ${labelOf(a.id)}`);
    if (notStarted > NOT_STARTED_SHOWN) lines.push(`    and ${notStarted - NOT_STARTED_SHOWN} more`);
  }
  const held = heldHostports(failed.map((r) => r.error));
  if (held.length > 0) {
    // A rerun meets the same holder: no list of this account shows it, so it cannot be released from here.
    lines.push(`${held.map((h) => `Hostport ${h}`).join(', ')} ${held.length === 1 ? 'is' : 'are'} held by another resource, outside this account or claimed since the plan was made; the same command fails again until ${held.length === 1 ? 'it is' : 'they are'} released there, or the manifests name another hostport.`);
  } else {
    lines.push('Run the same command again to converge once the cause is fixed.');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The hostports of failures the service refused because another resource holds them (the contract's
 * HOSTPORT_IN_USE); its message quotes the hostport: `hostports[0]: "1.tcp.example.com:20002" is already in use`.
 */
function heldHostports(errors: readonly ({ errorCode?: string; message: string } | undefined)[]): string[] {
  const held = new Set<string>();
  for (const error of errors) {
    if (error?.errorCode !== HOSTPORT_IN_USE) continue;
    held.add(/"([^"]+)"/.exec(error.message)?.[1] ?? 'named above');
  }
  return [...held];
}
