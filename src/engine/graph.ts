// The dependency graph, derived from declared references only (never a hand-kept kind order).
// - create/update/module-put/replace of X wait for the create (or replace) of every resource X's desired body
//   still references as a PendingRef: its id only exists once that action ran;
// - delete of Y, and the old-resource delete of a replace of Y, wait for every action of resources whose LIVE
//   body references Y (they must stop referencing it first; children are deleted first the same way).
// The graph's nodes are steps: one per action, and a second for a replace, which runs in two phases (create
// the new resource, then delete the old one). A step's phase is data; only stepId spells a step as the plan
// stores it in `dependsOn` (`<id>#old` for the old-resource delete), and steps are looked up by that id.
import { EdgeopsError } from '../errors.ts';
import { dependencyOrder, reaches } from '../graph.ts';
import type { Action } from './plan-data.ts';

/** What linking needs to know about the resource behind one action. */
export interface GraphRefs {
  /** Addresses the desired body still references as PendingRef. */
  pending: readonly string[];
  /** Ids the live body references, with the kinds each reference may point at. */
  liveRefs: readonly { id: string; kinds: readonly string[] }[];
}

/** `run`: the action itself (a replace: creating the new resource); `delete-old`: a replace deleting the old one. */
type Phase = 'run' | 'delete-old';

export interface Step {
  action: Action;
  phase: Phase;
}

/** The id under which a plan's `dependsOn` names a step. */
export function stepId(action: Action, phase: Phase = 'run'): string {
  return phase === 'delete-old' ? `${action.id}#old` : action.id;
}

/** The id of the step that removes an action's live resource: a replace's old-resource delete, else the action. */
export const removalStepId = (a: Action): string => stepId(a, a.op === 'replace' ? 'delete-old' : 'run');

const CREATES_FIRST = new Set(['create', 'update', 'module-put', 'replace']);

/** Fill `dependsOn` (and `deleteDependsOn` of replaces) of every action. Mutates and returns the actions. */
export function linkActions(actions: Action[], refsOf: (action: Action) => GraphRefs): Action[] {
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
        before.add(removalStepId(b));
      }
      if (a.op === 'delete') for (const id of before) deps.add(id);
      else a.deleteDependsOn = [...before].sort();
    }
    deps.delete(a.id);
    a.dependsOn = [...deps].sort();
  }
  return actions;
}

/**
 * The execution steps of a plan's actions. Prerequisites are read from the actions when asked, so orderings
 * that add to `dependsOn` while they walk see their own additions; an action added later is registered by add().
 */
export class StepGraph {
  private readonly byId = new Map<string, Step>();

  constructor(actions: Iterable<Action> = []) {
    for (const a of actions) this.add(a);
  }

  /** Register an action's steps (a replace has two). */
  add(action: Action): void {
    this.byId.set(stepId(action), { action, phase: 'run' });
    if (action.op === 'replace') this.byId.set(stepId(action, 'delete-old'), { action, phase: 'delete-old' });
  }

  /** Every step, in the order the actions were added (each action's run step before its old-resource delete). */
  steps(): Step[] {
    return [...this.byId.values()];
  }

  /** The step a `dependsOn` id names. */
  step(id: string): Step | undefined {
    return this.byId.get(id);
  }

  /** The steps of one action, in the order they run. */
  stepsOf(action: Action): Step[] {
    const run = this.byId.get(stepId(action))!;
    return action.op === 'replace' ? [run, this.byId.get(stepId(action, 'delete-old'))!] : [run];
  }

  /** The ids a step waits for: an action's `dependsOn`; an old-resource delete waits for its own create too. */
  prerequisiteIds(step: Step): string[] {
    const a = step.action;
    return step.phase === 'delete-old' ? [a.id, ...(a.deleteDependsOn ?? [])] : [...a.dependsOn];
  }

  /** The steps a step waits for; throws for an id that names no step. */
  prerequisites(step: Step): Step[] {
    return this.prerequisiteIds(step).map((id) => {
      const dep = this.byId.get(id);
      if (!dep) throw new EdgeopsError('E_PLAN', `action ${stepId(step.action, step.phase)} depends on unknown action ${id}`);
      return dep;
    });
  }

  /** Whether the step named `from` waits, directly or transitively, for the one named `to` (an unknown id waits for nothing). */
  reaches(from: string, to: string): boolean {
    return reaches(from, to, (id) => {
      const step = this.byId.get(id);
      return step ? this.prerequisiteIds(step) : [];
    });
  }

  /**
   * The dependency level of each step by id (0 = no prerequisites; otherwise 1 + the highest prerequisite
   * level). Throws when the graph has a cycle, naming the actions in it, or a prerequisite names no step.
   */
  levels(): Map<string, number> {
    const steps = this.steps();
    for (const s of steps) this.prerequisites(s);
    const onCycle = (cycle: Step[]): never => {
      const ids = cycle.map((s) => stepId(s.action, s.phase));
      throw new EdgeopsError('E_PLAN_CYCLE', `dependency cycle between actions: ${[...ids, ids[0]].join(' -> ')}`);
    };
    const level = new Map<Step, number>();
    for (const s of dependencyOrder(steps, (x) => this.prerequisites(x), onCycle)) {
      level.set(s, this.prerequisites(s).reduce((l, dep) => Math.max(l, level.get(dep)! + 1), 0));
    }
    return new Map(steps.map((s) => [stepId(s.action, s.phase), level.get(s)!]));
  }
}
