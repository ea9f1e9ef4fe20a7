// The plan side of adoption: every adopted resource gets an update that writes the marker (plus any field
// differences the planner found), annotated with the key that matched; and, without --adopt, a create that
// collides with an existing resource (the same hostport, or any adoptable match) is reported with the hint.
import type { LiveItem, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import type { Adoption } from './adopt.ts';
import { adoptLive, isUnmarked, itemsByKey } from './adopt.ts';
import { StepGraph } from './graph.ts';
import type { LiveState } from './live.ts';
import type { Action, Plan } from './plan-data.ts';
import { uniqueValues } from './value-moves.ts';
import { buildPlan, summarize } from './plan.ts';
import type { Steps } from '../pace.ts';
import type { PlanInput } from './plan.ts';

/** Mutates the plan: each adoption's update carries metadata (so the executor writes the marker) and `adopt`. */
function finishAdoptions(plan: Plan, adoptions: readonly Adoption[]): Plan {
  for (const adoption of adoptions) {
    const own = plan.actions.filter((a) => a.address === adoption.address);
    // A replace creates the new resource with the marker; the adopted one is deleted as the old copy.
    const main = own.find((a) => a.op === 'update') ?? own.find((a) => a.op === 'replace');
    if (main) {
      main.adopt = adoption.matchedBy;
      if (main.op === 'update' && main.body && !('metadata' in main.body)) main.body = { ...main.body, metadata: main.desired?.metadata ?? {} };
      continue;
    }
    const desired = own[0]?.desired ?? adoption.desired;
    const [kind, ...rest] = adoption.address.split('/');
    insertByLevel(plan, {
      id: `update:${adoption.address}`,
      op: 'update',
      kind: kind!,
      name: rest.join('/'),
      address: adoption.address,
      liveId: adoption.liveId,
      body: { metadata: desired.metadata ?? {} },
      desired,
      changes: [],
      dependsOn: [],
      adopt: adoption.matchedBy,
    });
  }
  plan.summary = summarize(plan.actions);
  return plan;
}

/** An action with no prerequisites goes with the other level-0 actions, in address order (the plan's order). */
function insertByLevel(plan: Plan, action: Action): void {
  const levels = new StepGraph(plan.actions).levels();
  const at = plan.actions.findIndex((a) => (levels.get(a.id) ?? 0) > 0 || a.address >= action.address);
  if (at < 0) plan.actions.push(action);
  else plan.actions.splice(at, 0, action);
}

/**
 * Creates that collide with an unmarked live resource by a key the service does not keep unique (a name, a
 * description): it is adoptable, and the warning carries the --adopt hint (left out when --adopt already ran:
 * its own warnings say why a match was not adopted). A value one resource may hold at a time (a hostport)
 * held by a resource of no stack or of another is a plan error instead (plan-checks.ts): apply would fail.
 */
const sharesUnique = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].some((v) => b.has(v));

function collisionWarnings(kinds: readonly ResourceKind[], plan: Plan, live: LiveState, stack: string, adopt: boolean): string[] {
  const warnings: string[] = [];
  if (adopt) return warnings;
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const indexes = new Map<string, Map<string, LiveItem[]>>();
  for (const action of plan.actions) {
    const kind = kindOf.get(action.kind);
    if (action.op !== 'create' || !kind?.adoptKeys || kind.identity !== 'marker' || !action.body) continue;
    let index = indexes.get(kind.kind);
    if (!index) indexes.set(kind.kind, (index = itemsByKey(kind, (live.byKind.get(kind.kind) ?? []).filter(isUnmarked))));
    const seen = new Set<string>();
    const claims = uniqueValues(kind, action.body);
    for (const key of kind.adoptKeys(action.body, action.name)) {
      for (const item of index.get(key) ?? []) {
        if (seen.has(item.id) || sharesUnique(claims, uniqueValues(kind, kind.fromLive(item.raw)))) continue;
        seen.add(item.id);
        warnings.push(`${action.address} would be created, but the unmanaged ${kind.kind} ${item.id} has the same ${key}: run plan/apply with --adopt to bring it under management instead`);
      }
    }
  }
  return warnings;
}

interface AdoptingPlanInput {
  kinds: readonly ResourceKind[];
  desired: DesiredState;
  live: LiveState;
  stack: string;
  adopt: boolean;
  prepared?: PlanInput['prepared'];
}

/**
 * buildPlan with adoption around it, a step per document (pace.ts): with `adopt`, matched unmanaged items are
 * planned as this stack's (and the returned live state holds them so, for the executor); either way, colliding
 * creates are warned about.
 */
export function* planWithAdoption(input: AdoptingPlanInput): Steps<{ plan: Plan; live: LiveState }> {
  const outcome = input.adopt ? adoptLive(input.kinds, input.desired, input.live, input.stack) : undefined;
  const live = outcome?.live ?? input.live;
  // Adopted items change which documents have live ids: prepared bodies hold none, so they stay valid.
  const plan = yield* buildPlan({ kinds: input.kinds, desired: input.desired, live, stack: input.stack, prepared: input.prepared });
  if (outcome) finishAdoptions(plan, outcome.adoptions);
  plan.warnings.push(...(outcome?.warnings ?? []), ...collisionWarnings(input.kinds, plan, live, input.stack, input.adopt));
  return { plan, live };
}
