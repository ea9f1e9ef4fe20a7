// Why a replace's old resource is still live beside its replacement after a run. The executor deletes an old
// half as soon as nothing that still needs it waits on it; what is left is where keeping it was the safe
// choice (its removal waits on something that did not happen), or where its delete failed or never started.
// Each is reported with both ids and the reason, so a reviewer knows why one document has two live resources
// until the next run, whose plan deletes the old one.
import type { LiveItem, ResourceKind } from '../kinds/resource-kind.ts';
import { liveBody } from './diff.ts';
import type { Step } from './graph.ts';
import { refLinks } from './ordering.ts';
import type { Action, KeptOld } from './plan-data.ts';
import { liveRefsOf } from './resource-actions.ts';

/** How one step of the run ended, as the executor knows it. */
interface StepOutcome {
  state: 'done' | 'failed' | 'skipped' | undefined;
  /** A failed step's error text; a skipped step's cause (a failed action's id, or `interrupted`). */
  detail?: string;
}

export interface KeptContext {
  kindOf: (kind: string) => ResourceKind | undefined;
  liveItem: (kind: string, id: string) => LiveItem | undefined;
  /** `Kind/name` of live ids, for naming a parent (the plan's names, and the plan's own actions). */
  nameOf: (id: string) => string;
  outcome: (step: Step) => StepOutcome;
  /** The steps an old half waited for, besides its own create. */
  waitedFor: (old: Step) => Step[];
}

/** What a prerequisite that did not complete says: `<address> did not run: it depends on failed <action id>`. */
function notDone(step: Step, ctx: KeptContext): string {
  const { state, detail } = ctx.outcome(step);
  const who = step.action.label ?? step.action.address;
  if (state === 'failed') return `${who} failed${detail ? `: ${detail}` : ''}`;
  if (detail && detail.includes(':')) return `${who} did not run: it depends on failed ${detail}`;
  return `${who} did not run: the run was interrupted`;
}

/** Why the old half of replace `a` (new id `newId`) is still live, given how its own delete ended. */
export function keptOld(a: Action, old: Step, newId: string, ctx: KeptContext): KeptOld {
  const base = { address: a.address, oldId: a.liveId ?? '', newId };
  const own = ctx.outcome(old);
  if (own.state === 'failed') return { ...base, reason: `its delete failed${own.detail ? `: ${own.detail}` : ''}` };
  const waiting = ctx.waitedFor(old).find((s) => ctx.outcome(s).state !== 'done');
  if (!waiting) return { ...base, reason: 'the run was interrupted before its delete started' };
  return { ...base, reason: `${heldBy(a, waiting, ctx)} (${notDone(waiting, ctx)})` };
}

/** Which ordering held the old half back and what it protects (see ordering.ts and graph.ts). */
function heldBy(a: Action, waiting: Step, ctx: KeptContext): string {
  const w = waiting.action;
  const who = w.label ?? w.address;
  const kind = ctx.kindOf(a.kind);
  const item = a.liveId === undefined ? undefined : ctx.liveItem(a.kind, a.liveId);
  const parents = kind && item ? refLinks(kind, a, liveBody(kind, item)).liveParents.flatMap((t) => (t.id === undefined ? [] : [ctx.nameOf(t.id)])) : [];
  const parent = parents.length > 0 ? parents.join(', ') : 'its parent';
  const noun = kind?.partNoun ?? 'parts';
  if (waiting.phase === 'run' && (w.op === 'create' || w.op === 'replace')) {
    return `kept until ${who} exists: removing it first would leave ${parent} with fewer ${noun} than both before and after`;
  }
  const wKind = ctx.kindOf(w.kind);
  const wItem = w.liveId === undefined ? undefined : ctx.liveItem(w.kind, w.liveId);
  const refersToOld = wKind && wItem ? liveRefsOf(wKind, liveBody(wKind, wItem)).some((r) => r.id === a.liveId) : false;
  if (refersToOld) return `kept until ${who} stops referencing it: the service deletes nothing still referenced`;
  return `kept until ${who} leaves ${parent}: removing it first would take one of ${parent}'s ${noun} away while ${who} still uses it`;
}
