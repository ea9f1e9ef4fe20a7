// The actions of every resource in scope: each document (matched to its live item by marker or natural key,
// in reference order so already-live ids can be substituted) and each managed live item no document names.
// Pure; the dependency links between the actions are added afterwards by graph.ts.
import { isObj } from '../contract/json.ts';
import type { ManifestIssue } from '../errors.ts';
import { dependencyOrder } from '../graph.ts';
import { runAll, type Steps } from '../pace.ts';
import type { LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredResource, DesiredState } from '../manifest/document.ts';
import { changeActions, comparable, createAction, deleteAction, fieldChanges, liveBody } from './diff.ts';
import type { GraphRefs } from './graph.ts';
import { managedBy, type LiveState } from './live.ts';
import { metadataProblem } from '../kinds/marker.ts';
import { addressKind, markerOf, naturalParentId } from './ownership.ts';
import type { ManagedIndex } from './ownership.ts';
import type { Action } from './plan-data.ts';
import { hasPendingRef, pendingTargets, pointerSegments, refValues } from '../kinds/refs.ts';
import { NO_IDS, requestBody } from '../kinds/sent-body.ts';
import { refLinks } from './ordering.ts';
import type { RefLinks } from './ordering.ts';
import { valueMoves } from './value-moves.ts';
import type { ValueMoves } from './value-moves.ts';

/** What the plan's orderings need to know about the resource behind one action. */
export interface ActionRefs extends GraphRefs {
  /** Account-unique values the action takes or gives up (see value-moves.ts). */
  moves?: ValueMoves;
  /** References the action sets and drops, and the resource's parents (see ordering.ts). */
  links?: RefLinks;
}

interface ResourceActions {
  actions: Action[];
  /** What the graph needs about the resource behind each action, by action id. */
  refs: Map<string, ActionRefs>;
  warnings: string[];
  issues: ManifestIssue[];
}

const NO_REFS: ActionRefs = { pending: [], liveRefs: [] };

export function liveRefsOf(kind: ResourceKind, body: Obj): ActionRefs['liveRefs'] {
  const out: { id: string; kinds: readonly string[] }[] = [];
  // Indexed: this runs for every live item and document, mostly unoptimized, where a for-of allocates per step.
  for (let i = 0; i < kind.refs.length; i++) {
    const ref = kind.refs[i]!;
    const values = refValues(body, ref);
    for (let j = 0; j < values.length; j++) if (typeof values[j] === 'string') out.push({ id: values[j] as string, kinds: ref.kinds });
  }
  return out;
}

/** Desired resources ordered so each comes after the ones it references (a cycle is rejected by the resolver). */
function resourcesReferencedFirst(resources: readonly DesiredResource[]): DesiredResource[] {
  const byAddress = new Map(resources.map((r) => [r.address, r]));
  const referenced = (r: DesiredResource): DesiredResource[] =>
    (r.dependsOn.length > 1 ? [...r.dependsOn].sort() : r.dependsOn).flatMap((dep) => byAddress.get(dep) ?? []);
  return [...dependencyOrder([...resources].sort((a, b) => (a.address < b.address ? -1 : 1)), referenced)];
}

/**
 * Of several live copies carrying one marker (a create whose answer was lost, or a replace whose old delete
 * failed), keep the one closest to the desired body: no replace needed, then fewest changes, then the oldest.
 */
function closestCopy(kind: ResourceKind, copies: readonly LiveItem[], desired: Obj): LiveItem {
  const cost = (item: LiveItem): number => {
    const changes = fieldChanges(kind, comparable(kind, liveBody(kind, item)), comparable(kind, desired));
    const replace = changes.some((c) => kind.immutable.includes(pointerSegments(c.path)[0]!));
    return (replace ? 1_000_000 : 0) + changes.length;
  };
  let best = copies[0]!;
  let bestCost = cost(best);
  for (const item of copies.slice(1)) {
    const c = cost(item);
    if (c < bestCost) [best, bestCost] = [item, c];
  }
  return best;
}

/** Unique-value moves of the fields each kind declares unique. */
function movesOf(kind: ResourceKind, op: Action['op'], live: Obj | undefined, desired: Obj | undefined): ValueMoves | undefined {
  return valueMoves(kind, op, live, desired);
}

function metadataIssue(r: DesiredResource, stack: string): ManifestIssue | undefined {
  const meta = r.spec.metadata;
  const user = isObj(meta) ? meta : undefined;
  const problem = metadataProblem(user ?? {}, { stack, name: r.address });
  return problem ? { pos: r.pos, address: r.address, pointer: problem.field, message: problem.message } : undefined;
}

/**
 * Optional warm-up while other lists are still being fetched: parse every item's marker and normalize the
 * items this stack manages (both memoized per raw object, so the plan reuses them).
 */
export function prepareLive(kind: ResourceKind, items: readonly LiveItem[], stack: string): void {
  if (kind.identity !== 'marker') return;
  for (const item of items) if (markerOf(kind, item)?.stack === stack) liveBody(kind, item);
}

/** What a plan needs of one document that does not depend on live state (see prepareDesired). */
export interface PreparedResource {
  resource: DesiredResource;
  kind?: ResourceKind;
  /** Unknown kind, or metadata too large with the marker. */
  issue?: ManifestIssue;
  /** The desired body, when the document references nothing (no live id can change it). */
  body?: Obj;
}

/**
 * The live-independent half of planning, a step per document (pace.ts): documents in reference order, their
 * kinds, their metadata checks and the bodies of documents without references. computePlan runs it paced while
 * the live lists are in flight, so each answered page sends the request for the next one at once.
 */
export function* prepareDesiredSteps(kinds: readonly ResourceKind[], desired: DesiredState, stack: string): Steps<PreparedResource[]> {
  const prepare = preparer(kinds, stack);
  const out: PreparedResource[] = [];
  for (const r of resourcesReferencedFirst(desired.resources)) {
    yield;
    out.push(prepare(r));
  }
  return out;
}

function preparer(kinds: readonly ResourceKind[], stack: string): (r: DesiredResource) => PreparedResource {
  const kindByName = new Map(kinds.map((k) => [k.kind, k]));
  return (r) => {
    const kind = kindByName.get(r.kind);
    if (!kind) return { resource: r, issue: { pos: r.pos, address: r.address, message: `unknown kind ${r.kind}` } };
    const issue = kind.identity === 'marker' ? metadataIssue(r, stack) : undefined;
    const body = hasPendingRef(r.spec) ? undefined : requestBody(kind, r.spec, NO_IDS);
    return { resource: r, kind, ...(issue ? { issue } : {}), ...(body ? { body } : {}) };
  };
}

export function resourceActions(
  kinds: readonly ResourceKind[],
  desired: DesiredState,
  live: LiveState,
  stack: string,
  prepared?: readonly PreparedResource[],
): ResourceActions {
  return runAll(resourceActionSteps(kinds, desired, live, stack, prepared));
}

/** resourceActions, a step per document (pace.ts). */
export function* resourceActionSteps(
  kinds: readonly ResourceKind[],
  desired: DesiredState,
  live: LiveState,
  stack: string,
  prepared?: readonly PreparedResource[],
): Steps<ResourceActions> {
  const out: ResourceActions = { actions: [], refs: new Map(), warnings: [], issues: [] };
  const add = (list: Action[], info: ActionRefs): void => {
    for (const a of list) {
      out.actions.push(a);
      out.refs.set(a.id, info);
    }
  };
  const liveOf = (kind: ResourceKind): LiveItem[] => live.byKind.get(kind.kind) ?? [];
  const managed = managedBy(live, stack);
  const byKey = new Map<string, Map<string, LiveItem>>();
  const naturalItem = (kind: ResourceKind, key: string): LiveItem | undefined => {
    let index = byKey.get(kind.kind);
    if (!index) byKey.set(kind.kind, (index = new Map(liveOf(kind).map((i) => [i.id, i]))));
    return index.get(key);
  };
  const known = new Map<string, string>(); // address -> live id that stays valid through this plan
  const claimed = new Map<string, Map<string, string>>(); // natural kind -> key -> address
  const kept = new Map<string, LiveItem>(); // address -> the live copy a document is matched to

  for (const { resource: r, kind, issue, body: readyBody } of prepared ?? (yield* prepareDesiredSteps(kinds, desired, stack))) {
    yield;
    if (issue) out.issues.push(issue);
    if (!kind) continue;
    const body = readyBody ?? requestBody(kind, r.spec, (address) => known.get(address));
    let item: LiveItem | undefined;
    let movedFrom: string | undefined;
    if (kind.identity === 'marker') {
      let copies = managed.byAddress.get(r.address) ?? [];
      // A rename (`moved_from`): no resource has the new name yet, so the one with an old name is kept.
      for (const old of copies.length === 0 ? r.movedFrom ?? [] : []) {
        const found = managed.byAddress.get(old) ?? [];
        if (found.length === 0) continue;
        copies = found;
        movedFrom = old;
        break;
      }
      item = copies.length > 1 ? closestCopy(kind, copies, body) : copies[0];
      if (item) kept.set(movedFrom ?? r.address, item);
      if (copies.length > 1) {
        const extra = copies.filter((c) => c !== item).map((c) => c.id);
        out.warnings.push(`${copies.length} live resources carry the marker of ${r.address}; keeping ${item!.id}, deleting ${extra.join(', ')}`);
      }
    } else if (!hasPendingRef(body) && kind.naturalKey) {
      // A key with a pending parent id cannot match anything live: that document is a create.
      const key = kind.naturalKey(body);
      const owners = claimed.get(kind.kind) ?? new Map<string, string>();
      claimed.set(kind.kind, owners);
      const other = owners.get(key);
      if (other) out.issues.push({ pos: r.pos, address: r.address, message: `manages the same ${kind.kind} as ${other} (${key})` });
      owners.set(key, r.address);
      item = naturalItem(kind, key);
    }
    const target = { kind, name: r.name, address: r.address };
    const pending = pendingTargets(body);
    if (!item) {
      const create = createAction(target, body);
      add([create], { pending, liveRefs: [], moves: movesOf(kind, create.op, undefined, body), links: refLinks(kind, create, undefined) });
      continue;
    }
    const shape = liveBody(kind, item);
    const liveRefs = liveRefsOf(kind, shape);
    const planned = changeActions(target, item, shape, body);
    if (movedFrom) renamed(planned, target, item, body, movedFrom);
    for (const a of planned) add([a], { pending, liveRefs, moves: movesOf(kind, a.op, shape, body), links: refLinks(kind, a, shape) });
    if (!planned.some((a) => a.op === 'replace')) known.set(r.address, item.id);
  }

  addOrphans(kinds, managed, kept, claimed, liveOf, add);
  return out;
}

/**
 * The actions of a renamed resource: its update also sends metadata, so the executor writes the marker with the
 * new name (an update is added when nothing else changed); the plan shows the old address. Mutates `planned`.
 */
function renamed(planned: Action[], t: { kind: ResourceKind; name: string; address: string }, item: LiveItem, desired: Obj, movedFrom: string): void {
  const main = planned.find((a) => a.op === 'update') ?? planned.find((a) => a.op === 'replace');
  if (main) {
    main.movedFrom = movedFrom;
    if (main.op === 'update' && main.body && !('metadata' in main.body)) main.body = { ...main.body, metadata: desired.metadata ?? {} };
    return;
  }
  planned.unshift({
    id: `update:${t.address}`,
    op: 'update',
    kind: t.kind.kind,
    name: t.name,
    address: t.address,
    liveId: item.id,
    body: { metadata: desired.metadata ?? {} },
    desired,
    changes: [],
    movedFrom,
    dependsOn: [],
  });
}

/** Deletes for managed live items without a document, extra copies of documented ones, and natural-key items
 *  whose parent this stack manages but no document names. */
function addOrphans(
  kinds: readonly ResourceKind[],
  managed: ManagedIndex,
  kept: Map<string, LiveItem>,
  claimed: Map<string, Map<string, string>>,
  liveOf: (kind: ResourceKind) => LiveItem[],
  add: (list: Action[], info: ActionRefs) => void,
): void {
  const kindByName = new Map(kinds.map((k) => [k.kind, k]));
  // Only addresses with a copy to delete are sorted: in a plan with little to do, that is few of them.
  const orphaned: [string, LiveItem[]][] = [];
  for (const entry of managed.byAddress) {
    if (kindByName.has(addressKind(entry[0])) && entry[1].some((item) => item !== kept.get(entry[0]))) orphaned.push(entry);
  }
  for (const [address, copies] of orphaned.sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const kind = kindByName.get(addressKind(address))!;
    const keep = kept.get(address);
    copies.forEach((item, at) => {
      if (item === keep) return;
      const target = { kind, name: address.slice(address.indexOf('/') + 1), address };
      const shape = liveBody(kind, item);
      const del = deleteAction(target, item, at === 0 && !keep ? '' : `@${item.id}`);
      add([del], { ...NO_REFS, liveRefs: liveRefsOf(kind, shape), moves: movesOf(kind, 'delete', shape, undefined), links: refLinks(kind, del, shape) });
    });
  }
  for (const kind of kinds.filter((k) => k.identity === 'natural')) {
    const owned = claimed.get(kind.kind) ?? new Map<string, string>();
    for (const item of liveOf(kind)) {
      if (owned.has(item.id)) continue;
      const shape = kind.fromLive(item.raw);
      const parent = naturalParentId(kind, shape);
      if (parent === undefined || !managed.managedIds.has(parent)) continue;
      const del = deleteAction({ kind, name: item.id, address: `${kind.kind}/${item.id}` }, item);
      add([del], { ...NO_REFS, liveRefs: liveRefsOf(kind, shape), links: refLinks(kind, del, shape) });
    }
  }
}
