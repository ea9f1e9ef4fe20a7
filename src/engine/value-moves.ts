// Values that move between resources in one plan: a hostport kept while its edge is renamed (delete A,
// create B) or moved between edges (update A drops it, update B adds it). The service lets such a value belong
// to one resource only, so the action giving it up must run first. Derived from the bodies and kind-agnostic:
// the caller passes the top-level lists of strings of marker kinds (natural-key kinds hold per-parent sets),
// and an ordering is only added where it cannot close a cycle; an unneeded one costs a little parallelism.
import type { Json, Obj } from '../kinds/resource-kind.ts';
import { OLD_PHASE } from './graph.ts';
import type { Action } from './plan-data.ts';

/** `field\0value` for each string of each top-level list of strings of a body. */
export function listValues(body: Obj | undefined): Set<string> {
  const out = new Set<string>();
  if (!body) return out;
  for (const [field, value] of Object.entries(body)) {
    if (!Array.isArray(value)) continue;
    for (const v of value as Json[]) if (typeof v === 'string') out.add(`${field}\u0000${v}`);
  }
  return out;
}

export interface ValueMoves {
  /** Values this action takes that its resource did not hold. */
  claims: ReadonlySet<string>;
  /** Values this action gives up. */
  releases: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

/** What one action claims and releases, from the live and desired bodies of its resource. */
export function valueMoves(op: Action['op'], live: Obj | undefined, desired: Obj | undefined): ValueMoves {
  if (op === 'create') return { claims: listValues(desired), releases: NONE };
  if (op === 'delete') return { claims: NONE, releases: listValues(live) };
  if (op !== 'update') return { claims: NONE, releases: NONE };
  const before = listValues(live);
  const after = listValues(desired);
  return { claims: new Set([...after].filter((v) => !before.has(v))), releases: new Set([...before].filter((v) => !after.has(v))) };
}

/** Make each claiming action wait for the actions releasing the same values. Mutates `dependsOn`. */
export function orderValueMoves(actions: Action[], movesOf: (a: Action) => ValueMoves | undefined): void {
  const releasers = new Map<string, Action[]>();
  for (const a of actions) {
    for (const v of movesOf(a)?.releases ?? []) {
      const list = releasers.get(v);
      if (list) list.push(a);
      else releasers.set(v, [a]);
    }
  }
  if (releasers.size === 0) return;
  const byId = new Map(actions.map((a) => [a.id, a]));
  for (const claimer of actions) {
    for (const v of movesOf(claimer)?.claims ?? []) {
      for (const releaser of releasers.get(v) ?? []) {
        if (releaser.address === claimer.address || claimer.dependsOn.includes(releaser.id)) continue;
        if (reaches(releaser.id, claimer.id, byId)) continue;
        claimer.dependsOn = [...claimer.dependsOn, releaser.id].sort();
      }
    }
  }
}

/** Whether `from` depends, directly or transitively, on `to` (replace old phases included). */
function reaches(from: string, to: string, byId: Map<string, Action>): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    const isOld = id.endsWith(OLD_PHASE);
    const a = byId.get(isOld ? id.slice(0, -OLD_PHASE.length) : id);
    if (!a) continue;
    if (isOld) stack.push(a.id, ...(a.deleteDependsOn ?? []));
    else stack.push(...a.dependsOn);
  }
  return false;
}
