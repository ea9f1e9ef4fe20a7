// The dependency graph, derived from declared references only (never a hand-kept kind order).
// - create/update/module-put/replace of X wait for the create (or replace) of every resource X's desired body
//   still references as a PendingRef: its id only exists once that action ran;
// - delete of Y, and the old-resource delete of a replace of Y, wait for every action of resources whose LIVE
//   body references Y (they must stop referencing it first; children are deleted first the same way).
// A replace runs in two phases: its id is the create of the new resource, `<id>#old` the delete of the old one.
import { EdgeopsError } from '../errors.ts';
import type { Action } from './plan-data.ts';
import type { RefLinks } from './ordering.ts';
import type { ValueMoves } from './value-moves.ts';

/** What the graph needs to know about the resource behind one action. */
export interface ActionRefs {
  /** Addresses the desired body still references as PendingRef. */
  pending: readonly string[];
  /** Ids the live body references, with the kinds each reference may point at. */
  liveRefs: readonly { id: string; kinds: readonly string[] }[];
  /** Account-unique values the action takes or gives up (see value-moves.ts). */
  moves?: ValueMoves;
  /** References the action sets and drops, and the resource's parents (see ordering.ts). */
  links?: RefLinks;
}

export const OLD_PHASE = '#old';
export const oldPhaseId = (actionId: string): string => `${actionId}${OLD_PHASE}`;

const CREATES_FIRST = new Set(['create', 'update', 'module-put', 'replace']);

/** Fill `dependsOn` (and `deleteDependsOn` of replaces) of every action. Mutates and returns the actions. */
export function linkActions(actions: Action[], refsOf: (action: Action) => ActionRefs): Action[] {
  const creator = new Map<string, string>();
  for (const a of actions) if (a.op === 'create' || a.op === 'replace') creator.set(a.address, a.id);

  // `${kind}\0${id}` -> actions whose resource's live body references that id.
  const referrers = new Map<string, Action[]>();
  for (const a of actions) {
    for (const ref of refsOf(a).liveRefs) {
      for (const kind of ref.kinds) {
        const key = `${kind}\u0000${ref.id}`;
        const list = referrers.get(key);
        if (list) list.push(a);
        else referrers.set(key, [a]);
      }
    }
  }

  for (const a of actions) {
    const deps = new Set<string>();
    if (CREATES_FIRST.has(a.op)) {
      for (const target of refsOf(a).pending) {
        const id = creator.get(target);
        if (!id) throw new EdgeopsError('E_PLAN', `${a.address} references ${target}, which is neither live nor created by this plan`);
        deps.add(id);
      }
    }
    if (a.op === 'delete' || a.op === 'replace') {
      const before = new Set<string>();
      for (const b of referrers.get(`${a.kind}\u0000${a.liveId}`) ?? []) {
        if (b.address === a.address) continue;
        before.add(b.op === 'replace' ? oldPhaseId(b.id) : b.id);
      }
      if (a.op === 'delete') for (const id of before) deps.add(id);
      else a.deleteDependsOn = [...before].sort();
    }
    deps.delete(a.id);
    a.dependsOn = [...deps].sort();
  }
  return actions;
}

/** Every node of the execution graph (actions, plus the old-delete phase of each replace) with its prerequisites. */
export function executionNodes(actions: readonly Action[]): Map<string, string[]> {
  const nodes = new Map<string, string[]>();
  for (const a of actions) {
    nodes.set(a.id, [...a.dependsOn]);
    if (a.op === 'replace') nodes.set(oldPhaseId(a.id), [a.id, ...(a.deleteDependsOn ?? [])]);
  }
  for (const [id, deps] of nodes) {
    for (const dep of deps) if (!nodes.has(dep)) throw new EdgeopsError('E_PLAN', `action ${id} depends on unknown action ${dep}`);
  }
  return nodes;
}

/**
 * The dependency level of each node (0 = no prerequisites; otherwise 1 + the highest prerequisite level).
 * Throws when the graph has a cycle, naming the actions in it.
 */
export function nodeLevels(nodes: Map<string, string[]>): Map<string, number> {
  const level = new Map<string, number>();
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): number => {
    const known = level.get(id);
    if (known !== undefined) return known;
    if (state.get(id) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(id)), id];
      throw new EdgeopsError('E_PLAN_CYCLE', `dependency cycle between actions: ${cycle.join(' -> ')}`);
    }
    state.set(id, 'visiting');
    path.push(id);
    let l = 0;
    for (const dep of nodes.get(id) ?? []) l = Math.max(l, visit(dep, path) + 1);
    path.pop();
    state.set(id, 'done');
    level.set(id, l);
    return l;
  };
  for (const id of nodes.keys()) visit(id, []);
  return level;
}

/** Whether node `from` depends, directly or transitively, on node `to` (replace old phases included). */
export function reaches(from: string, to: string, byId: ReadonlyMap<string, Action>): boolean {
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
