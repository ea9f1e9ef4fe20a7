// Values that move between resources in one plan: a hostport kept while its edge is renamed (delete A,
// create B), moved between edges (update A drops it, update B adds it), swapped or rotated among edges.
// The service lets such a value belong to one resource only (the kinds declare which fields: `unique`), so
// the action giving it up must run first. Where that order would close a cycle (a swap: A waits for B which
// waits for A), the giver is split: a release step, shown in the plan, first updates it to keep only the
// values it keeps anyway; the claimers wait for that step and its own action runs after it.
import type { Json, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import { removalStepId, StepGraph } from './graph.ts';
import type { Action, FieldChange } from './plan-data.ts';

/** `scope\0key` of each unique value a body holds. */
export function uniqueValues(kind: ResourceKind, body: Obj | undefined): Set<string> {
  const out = new Set<string>();
  if (!body || !kind.unique) return out;
  for (const u of kind.unique) {
    const list = body[u.field];
    if (!Array.isArray(list)) continue;
    for (const v of list as Json[]) if (typeof v === 'string') out.add(`${u.scope}\u0000${u.key(v)}`);
  }
  return out;
}

export interface ValueMoves {
  /** Values this action takes that its resource did not hold (a replace: every value of the new resource). */
  claims: ReadonlySet<string>;
  /** Values this action gives up (a replace: its old phase gives up every value of the old resource). */
  releases: ReadonlySet<string>;
  /** The release step's body and full desired body: the live body without the released values. */
  release?: () => { body: Obj; desired: Obj; changes: FieldChange[] };
}

const NONE: ReadonlySet<string> = new Set();

/** What one action claims and releases, from the live and desired bodies of its resource. */
export function valueMoves(kind: ResourceKind, op: Action['op'], live: Obj | undefined, desired: Obj | undefined): ValueMoves | undefined {
  if (!kind.unique || kind.unique.length === 0) return undefined;
  if (op === 'module-put' || op === 'module-delete') return undefined;
  const before = op === 'create' ? NONE : uniqueValues(kind, live);
  const after = op === 'delete' ? NONE : uniqueValues(kind, desired);
  const claims = op === 'replace' ? after : new Set([...after].filter((v) => !before.has(v)));
  const releases = op === 'replace' ? before : new Set([...before].filter((v) => !after.has(v)));
  if (claims.size === 0 && releases.size === 0) return undefined;
  const moves: ValueMoves = { claims, releases };
  if (releases.size > 0 && live) moves.release = () => releaseBody(kind, live, releases);
  return moves;
}

function releaseBody(kind: ResourceKind, live: Obj, releases: ReadonlySet<string>): { body: Obj; desired: Obj; changes: FieldChange[] } {
  const body: Obj = {};
  const changes: FieldChange[] = [];
  for (const u of kind.unique ?? []) {
    const list = live[u.field];
    if (!Array.isArray(list)) continue;
    const kept = list.filter((v) => typeof v !== 'string' || !releases.has(`${u.scope}\u0000${u.key(v)}`));
    if (kept.length === list.length) continue;
    body[u.field] = kept;
    changes.push({ path: `/${u.field}`, kind: 'replace', old: list, new: kept });
  }
  return { body, desired: { ...live, ...body }, changes };
}

/**
 * Make each claiming action wait for the actions releasing the same values, adding release steps where an
 * order alone would close a cycle. Mutates `dependsOn` (and `deleteDependsOn`); returns the release steps to
 * add to the plan.
 */
export function orderValueMoves(actions: Action[], movesOf: (a: Action) => ValueMoves | undefined): Action[] {
  const releasers = new Map<string, Action[]>();
  for (const a of actions) {
    for (const v of movesOf(a)?.releases ?? []) {
      const list = releasers.get(v);
      if (list) list.push(a);
      else releasers.set(v, [a]);
    }
  }
  if (releasers.size === 0) return [];
  const graph = new StepGraph(actions);
  const steps = new Map<string, Action>(); // releaser id -> its release step
  const stepOf = (releaser: Action): Action => {
    let step = steps.get(releaser.id);
    if (step) return step;
    const { body, desired, changes } = movesOf(releaser)!.release!();
    step = {
      id: `release:${releaser.id.slice(releaser.id.indexOf(':') + 1)}`,
      op: 'update',
      kind: releaser.kind,
      name: releaser.name,
      address: releaser.address,
      liveId: releaser.liveId,
      body,
      desired,
      changes,
      releaseFor: [],
      dependsOn: [],
    };
    steps.set(releaser.id, step);
    graph.add(step);
    // The releaser's own request comes after its release step (a replace: the old resource's delete).
    if (releaser.op === 'replace') releaser.deleteDependsOn = [...(releaser.deleteDependsOn ?? []), step.id].sort();
    else releaser.dependsOn = [...releaser.dependsOn, step.id].sort();
    return step;
  };
  const waitFor = (claimer: Action, id: string): void => {
    if (!claimer.dependsOn.includes(id)) claimer.dependsOn = [...claimer.dependsOn, id].sort();
  };

  for (const claimer of actions) {
    for (const v of [...(movesOf(claimer)?.claims ?? [])].sort()) {
      for (const releaser of releasers.get(v) ?? []) {
        if (releaser === claimer && claimer.op !== 'replace') continue;
        const existing = steps.get(releaser.id);
        if (existing) {
          waitFor(claimer, existing.id);
          addFor(existing, claimer.address);
          continue;
        }
        const node = removalStepId(releaser);
        // A replace's new resource cannot wait for its own old one's delete (that waits for it): release first.
        if (releaser !== claimer && !graph.reaches(node, claimer.id)) {
          waitFor(claimer, node);
          continue;
        }
        const step = stepOf(releaser);
        waitFor(claimer, step.id);
        addFor(step, claimer.address);
      }
    }
  }
  return [...steps.values()];
}

function addFor(step: Action, address: string): void {
  if (step.address !== address && !step.releaseFor!.includes(address)) step.releaseFor = [...step.releaseFor!, address].sort();
}
