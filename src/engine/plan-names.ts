// What a reviewer reads instead of ids: after planning, every live id the plan shows (in a change's values, as
// the id an action acts on, as a natural-key item's parent) that belongs to a managed resource gets its
// `Kind/name`; a natural-key item without a document gets a label by its parent's name; and each action of a
// document gets the document's `file:line`, for apply failures. Display only: ids, addresses and the
// checksum are unchanged.
import type { Json, LiveItem, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import type { LiveState } from './live.ts';
import { liveMetadata, naturalParentId } from './ownership.ts';
import type { Plan } from './plan-data.ts';

interface NamingInput {
  kinds: readonly ResourceKind[];
  live: LiveState;
  desired: DesiredState;
}

/** Every string in a JSON value. */
function strings(value: Json | undefined, out: Set<string>): void {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
}

/** `Kind/name` of a marked live item; another stack's resource says whose it is. */
function markedName(item: LiveItem, stack: string): string | undefined {
  const marker = liveMetadata(item).marker;
  if (!marker) return undefined;
  return marker.stack === stack ? marker.name : `${marker.name} of stack "${marker.stack}"`;
}

/**
 * `Kind/name` of every marked live item by id: what an apply failure's message may mention (a resource in the
 * way, a referrer), whether or not the plan shows it.
 */
export function liveNames(live: LiveState, kinds: readonly ResourceKind[], stack: string): Map<string, string> {
  const marked = new Map<string, string>();
  for (const kind of kinds) {
    if (kind.identity !== 'marker') continue;
    for (const item of live.byKind.get(kind.kind) ?? []) {
      const name = markedName(item, stack);
      if (name) marked.set(item.id, name);
    }
  }
  return marked;
}

/** The plan with `names`, natural-key labels and document positions; the input plan is not changed. */
export function namePlan(plan: Plan, input: NamingInput): Plan {
  const marked = liveNames(input.live, input.kinds, plan.stack);
  const kindOf = new Map(input.kinds.map((k) => [k.kind, k]));
  const naturalItems = new Map<string, LiveItem>();
  for (const kind of input.kinds) {
    if (kind.identity === 'natural') for (const item of input.live.byKind.get(kind.kind) ?? []) naturalItems.set(`${kind.kind}\u0000${item.id}`, item);
  }
  const sources = new Map(input.desired.resources.map((r) => [r.address, `${r.pos.file}:${r.pos.line}`]));
  const made = new Map(input.desired.resources.flatMap((r) => (r.sources ? [[r.address, r.sources] as const] : [])));

  const shown = new Set<string>();
  const actions = plan.actions.map((action) => {
    for (const c of action.changes) {
      strings(c.old, shown);
      strings(c.new, shown);
    }
    if (action.liveId) shown.add(action.liveId);
    const out = { ...action };
    const source = sources.get(action.address);
    if (source) out.source = source;
    const from = made.get(action.address);
    if (from) out.sources = [...from];
    const kind = kindOf.get(action.kind);
    const item = action.liveId ? naturalItems.get(`${action.kind}\u0000${action.liveId}`) : undefined;
    if (kind && item && !source) {
      const parent = naturalParentId(kind, kind.fromLive(item.raw));
      const parentName = parent === undefined ? undefined : marked.get(parent);
      if (parentName) out.label = `${action.kind} of ${parentName}`;
    }
    return out;
  });
  const names: Record<string, string> = {};
  for (const id of [...shown].sort()) {
    const name = marked.get(id);
    if (name) names[id] = name;
  }
  return { ...plan, actions, names };
}
