// No weaker state in between: the order of a plan's actions never exposes live configuration less restrictive
// than both the old and the new state. graph.ts orders what the service requires (an id exists before it is
// used; a resource is unreferenced before it goes); this adds what safety requires, derived from declared refs:
// - build before pointing: an action that makes a resource reference X waits until X is complete, i.e. every
//   action of X and of X's parts (resources whose reference to X the service cannot change: an IP policy's
//   rules, an edge's routes) has run, so nothing points at a policy whose rules are still being made (of a
//   replace, its new half: an old rule still there only restricts more);
// - detach before dismantling: deleting a part of X waits for every action that stops a resource referencing X
//   (an edge leaves the old policy before that policy's rules go): X shrinks, and whoever is still on X and
//   leaving it would meet a rule set smaller than where it started;
// - add before removing: a part of X is deleted only after X's new parts are made (a rule set changes through a
//   superset of the old and new sets, never through a subset of both).
// - restrict before exposing: within one resource, module changes (a new restriction) are made before an
//   update adds unique values (a hostport starts being served), and a module is removed only after an update
//   that gives values up (a hostport no longer served does not lose its restriction first).
// Detach before dismantling and add before removing do not hold the old half of a replace whose replacement is
// made in the very same X (a rule whose action changes): by the time the old one goes, X holds its successor,
// so X never shrinks and no holder of X is exposed. Holding it would only keep two live resources for one
// document whenever an unrelated action failed (an edge skipped because the policy it moves to is incomplete
// held the old rules of the policy it leaves). A part moving to another parent still waits: its old parent
// does shrink, and the run's summary names it when it is kept (kept-old.ts).
// An ordering is added only where it cannot close a cycle.
import type { Obj, ResourceKind } from '../kinds/resource-kind.ts';
import { removalStepId, stepId, StepGraph } from './graph.ts';
import type { Action } from './plan-data.ts';
import type { ValueMoves } from './value-moves.ts';
import { isPendingRef, pointerSegments, refValues } from '../kinds/refs.ts';

/** A referenced resource: by address (created by this plan) or by live id with the kinds it may be. */
interface RefTarget {
  address?: string;
  id?: string;
  kinds?: readonly string[];
}

export interface RefLinks {
  /** What this action makes its resource reference that the live resource did not. */
  points: RefTarget[];
  /** What this action makes its resource stop referencing (a delete: everything it referenced). */
  drops: RefTarget[];
  /** The resources this one is a part of (references the service cannot change), once the action ran. */
  parents: RefTarget[];
  /** The same for the live resource (a replace moves a part: its old phase leaves the live parent). */
  liveParents: RefTarget[];
}

const keyOf = (t: RefTarget): string => (t.address !== undefined ? `@${t.address}` : `#${t.id}`);

function targetsIn(kind: ResourceKind, body: Obj | undefined, onlyParents = false): RefTarget[] {
  const out: RefTarget[] = [];
  if (!body) return out;
  for (const ref of kind.refs) {
    if (onlyParents && !kind.immutable.includes(pointerSegments(ref.pointer)[0]!)) continue;
    for (const v of refValues(body, ref)) {
      if (isPendingRef(v)) out.push({ address: v.$ref });
      else if (typeof v === 'string') out.push({ id: v, kinds: ref.kinds });
    }
  }
  return out;
}

/** The part of a body one action writes: a module action writes only its module. */
function written(a: Action, body: Obj | undefined): Obj | undefined {
  if (!body) return undefined;
  if (a.op === 'module-put' || a.op === 'module-delete') {
    const m = a.module ?? '';
    return a.op === 'module-put' && body === a.body ? { [m]: body as Obj[string] } : m in body ? { [m]: body[m]! } : {};
  }
  if (a.op === 'update') return Object.fromEntries(Object.keys(a.body ?? {}).filter((f) => f in body).map((f) => [f, body[f]!]));
  return body;
}

/** The reference changes of one action of a resource of `kind` whose live body is `live` (absent: a create). */
export function refLinks(kind: ResourceKind, a: Action, live: Obj | undefined): RefLinks {
  const before = targetsIn(kind, a.op === 'create' ? undefined : written(a, live));
  const after = a.op === 'delete' || a.op === 'module-delete' ? [] : targetsIn(kind, written(a, a.op === 'module-put' ? a.body : a.op === 'update' ? a.desired : a.body));
  const had = new Set(before.map(keyOf));
  const has = new Set(after.map(keyOf));
  const parents = a.op === 'delete' ? [] : targetsIn(kind, a.desired ?? a.body, true);
  const liveParents = targetsIn(kind, live, true);
  return { points: after.filter((t) => !had.has(keyOf(t))), drops: before.filter((t) => !has.has(keyOf(t))), parents, liveParents };
}

/**
 * Whether a replace's new resource is a part of the same live parent `x` as its old one: then the old one's
 * removal takes nothing from x that its successor has not already brought. Only the same live id counts: a
 * parent that is itself replaced (a pending ref) is a different resource.
 */
function swappedWithin(links: RefLinks, x: string, resolve: (t: RefTarget) => string): boolean {
  const sameLive = (t: RefTarget): boolean => t.id !== undefined && resolve(t) === x;
  return links.liveParents.some(sameLive) && links.parents.some((p) => sameLive(p) && links.liveParents.some((l) => l.id === p.id));
}

/** Add the safety orderings above to `dependsOn` / `deleteDependsOn`. */
export function orderForSafety(
  actions: Action[],
  linksOf: (a: Action) => RefLinks | undefined,
  movesOf: (a: Action) => ValueMoves | undefined,
  putFirst: (a: Action) => boolean = () => false,
): void {
  const byLiveId = new Map<string, string>(); // `${kind}\0${id}` -> address
  const byAddress = new Map<string, Action[]>();
  for (const a of actions) {
    if (a.liveId !== undefined) byLiveId.set(`${a.kind}\u0000${a.liveId}`, a.address);
    const list = byAddress.get(a.address);
    if (list) list.push(a);
    else byAddress.set(a.address, [a]);
  }
  // A resource with actions is known by its address; one without (unchanged, or not managed) by its id.
  const resolve = (t: RefTarget): string => {
    if (t.address !== undefined) return t.address;
    for (const k of t.kinds ?? []) {
      const found = byLiveId.get(`${k}\u0000${t.id}`);
      if (found) return found;
    }
    return `#${t.id}`;
  };
  const addresses = (ts: readonly RefTarget[]): string[] => [...new Set(ts.map(resolve))];

  const parentsOf = new Map<Action, string[]>();
  const liveParentsOf = new Map<Action, string[]>();
  const partsOf = new Map<string, Action[]>(); // parent -> actions of its parts, before or after
  const droppers = new Map<string, Action[]>(); // address -> actions that stop referencing it
  for (const a of actions) {
    const links = linksOf(a);
    if (!links) continue;
    const parents = addresses(links.parents);
    const liveParents = addresses(links.liveParents);
    parentsOf.set(a, parents);
    liveParentsOf.set(a, liveParents);
    for (const p of new Set([...parents, ...liveParents])) partsOf.set(p, [...(partsOf.get(p) ?? []), a]);
    for (const d of addresses(links.drops)) droppers.set(d, [...(droppers.get(d) ?? []), a]);
  }
  const graph = new StepGraph(actions);
  /** `waiter` (an action id, or a replace's old phase) waits for node `dep` unless that would close a cycle. */
  const wait = (waiter: Action, old: boolean, dep: string): void => {
    const list = old ? waiter.deleteDependsOn ?? [] : waiter.dependsOn;
    const self = stepId(waiter, old ? 'delete-old' : 'run');
    if (dep === self || list.includes(dep) || graph.reaches(dep, self)) return;
    if (old) waiter.deleteDependsOn = [...list, dep].sort();
    else waiter.dependsOn = [...list, dep].sort();
  };
  const removes = (a: Action): boolean => a.op === 'delete' || a.op === 'replace';

  for (const a of actions) {
    const links = linksOf(a);
    if (!links || a.op === 'delete' || a.op === 'module-delete') continue;
    const own = parentsOf.get(a) ?? [];
    // Build before pointing.
    for (const x of addresses(links.points)) {
      if (x === a.address || own.includes(x)) continue;
      for (const b of [...(byAddress.get(x) ?? []), ...(partsOf.get(x) ?? [])]) if (b.address !== a.address) wait(a, false, b.id);
    }
  }
  for (const d of actions) {
    if (!removes(d)) continue;
    const old = d.op === 'replace';
    const links = linksOf(d);
    for (const x of liveParentsOf.get(d) ?? []) {
      if (old && links && swappedWithin(links, x, resolve)) continue;
      // Detach before dismantling: whoever leaves X does so before X loses a part.
      for (const r of droppers.get(x) ?? []) {
        if (r.address === d.address || (liveParentsOf.get(r) ?? []).includes(x)) continue;
        wait(d, old, removalStepId(r));
      }
      // Add before removing: X's new parts exist before an old one goes.
      for (const c of partsOf.get(x) ?? []) {
        if (c.address !== d.address && (c.op === 'create' || c.op === 'replace') && (parentsOf.get(c) ?? []).includes(x)) wait(d, old, c.id);
      }
    }
  }
  // Restrict before exposing.
  for (const a of actions) {
    if (a.op !== 'update') continue;
    const moves = movesOf(a);
    if (!moves) continue;
    for (const m of byAddress.get(a.address) ?? []) {
      if (m.op === 'module-put' && moves.claims.size > 0) wait(a, false, m.id);
      if (m.op === 'module-delete' && moves.releases.size > 0) wait(m, false, a.id);
    }
  }
  // A module removed and another put on one resource: the removal first, as the service checks the modules
  // together (a TLS edge's upstream termination allows no mutual TLS).
  // For the same reason, a module put the kind declares widening (ResourceKind.modulePutFirst) runs before the
  // resource's other module puts.
  for (const m of actions) {
    if (m.op !== 'module-put') continue;
    for (const d of byAddress.get(m.address) ?? []) if (d.op === 'module-delete') wait(m, false, d.id);
    if (!putFirst(m)) continue;
    for (const p of byAddress.get(m.address) ?? []) if (p.op === 'module-put' && p !== m) wait(p, false, m.id);
  }
}
