// `apply --plan FILE`: is the saved plan still the plan to run? Checked against the live state and the manifests
// read again now (a fresh plan of them), in this order, each refusal a StalePlanError:
// 1. every live object an action touches is unchanged (its fingerprint), and nothing carries a create's
//    identity yet; changes to anything else in the account do not matter;
// 2. every secret value the manifests give now has the saved keyed fingerprint (the refusal names the field);
// 3. for the addresses the plan touches, the fresh plan's actions mean the same as the saved ones (otherwise the
//    manifests changed, or a resource they reference did, and the saved actions are not what they ask for).
// Then the saved actions are returned with their secret values put back: exactly the saved plan is applied.
import { StalePlanError } from '../errors.ts';
import type { Json, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import { realItem } from './adopt.ts';
import { secretFingerprint } from './fingerprint.ts';
import { liveIndex, liveState, managedBy, type LiveState } from './live.ts';
import { canonicalJson } from '../kinds/marker.ts';
import type { Action, Plan } from './plan-data.ts';
import { actionMeaning, isSecretPlaceholder, sanitizeAction } from './plan-meaning.ts';
import type { SavedPlan } from './saved-plan.ts';
import { fingerprintOf, secretsOfKinds } from './saved-plan.ts';

interface FreshPlan {
  plan: Plan;
  live: LiveState;
}

/** The live state as fetched (adopted copies back to the fetched items). */
function asFetched(live: LiveState, kinds: readonly ResourceKind[]): LiveState {
  return liveState(kinds, new Map([...live.byKind].map(([kind, items]) => [kind, items.map(realItem)])));
}

function staleObjects(saved: SavedPlan, live: LiveState, kinds: readonly ResourceKind[]): string[] {
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const find = liveIndex(live);
  const stale: string[] = [];
  for (const t of saved.touched) {
    const kind = kindOf.get(t.kind);
    const item = find(t.kind, t.id);
    if (!kind || !item) stale.push(`${t.address} (${t.id}) was deleted`);
    else if (fingerprintOf(kind, item) !== t.fingerprint) stale.push(`${t.address} (${t.id}) changed`);
  }
  const managed = managedBy(live, saved.stack);
  for (const a of saved.absent) {
    if (a.key !== undefined) {
      if (find(a.kind, a.key)) stale.push(`${a.address} (${a.key}) now exists`);
      continue;
    }
    const copies = managed.byAddress.get(a.address);
    if (copies && copies.length > 0) stale.push(`${a.address} now exists (${copies.map((c) => c.id).join(', ')})`);
  }
  return stale;
}

/** Secret fields whose manifest value does not have the saved fingerprint, as `Kind/name: field`. */
function secretMismatches(saved: SavedPlan, fresh: Map<string, Action>, key: Buffer): string[] {
  const out = new Set<string>();
  for (const a of saved.plan.actions) {
    for (const part of ['body', 'desired'] as const) {
      for (const [field, value] of Object.entries(a[part] ?? {})) {
        if (!isSecretPlaceholder(value)) continue;
        const now = fresh.get(a.id)?.[part]?.[field];
        if (now === undefined || now === null || secretFingerprint(key, a.address, field, now) !== value.$secret) out.add(`${a.address}: ${field}`);
      }
    }
  }
  return [...out].sort();
}

function restoreSecrets(body: Obj | undefined, fresh: Obj | undefined): Obj | undefined {
  if (!body) return body;
  let out = body;
  for (const [field, value] of Object.entries(body)) {
    if (!isSecretPlaceholder(value)) continue;
    if (out === body) out = { ...body };
    out[field] = fresh![field] as Json;
  }
  return out;
}

const byAddress = (actions: readonly Action[]): Map<string, Action[]> => {
  const map = new Map<string, Action[]>();
  for (const a of actions) map.set(a.address, [...(map.get(a.address) ?? []), a]);
  return map;
};

/** The saved plan, checked and with its secret values back; throws StalePlanError when it must not run. */
export function checkSavedPlan(saved: SavedPlan, fresh: FreshPlan, kinds: readonly ResourceKind[], fileKey: Buffer): Plan {
  // A targeted plan applies only as targeted: the fresh plan it is checked against must have the same targets.
  const targetsOf = (plan: Plan): string => (plan.targets ? `--target ${plan.targets.addresses.join(', ')}` : 'no --target');
  if (targetsOf(saved.plan) !== targetsOf(fresh.plan)) {
    throw new StalePlanError(`the saved plan was made with ${targetsOf(saved.plan)}, but this apply plans with ${targetsOf(fresh.plan)}; apply it with its own targets, or make a new plan`);
  }
  const stale = staleObjects(saved, asFetched(fresh.live, kinds), kinds);
  if (stale.length > 0) {
    throw new StalePlanError(`the saved plan is stale: objects it acts on changed since it was made:\n${stale.map((s) => `  ${s}`).join('\n')}\nMake a new plan.`);
  }

  const freshById = new Map(fresh.plan.actions.map((a) => [a.id, a]));
  const secrets = secretMismatches(saved, freshById, fileKey);
  if (secrets.length > 0) {
    throw new StalePlanError(
      `the manifests' secret values do not match the saved plan's fingerprints:\n${secrets.map((s) => `  ${s}`).join('\n')}\n` +
        'Give the same secrets as when the plan was made, or make a new plan.',
    );
  }

  const secretsOf = secretsOfKinds(kinds);
  const meaning = (actions: readonly Action[]): string =>
    canonicalJson([...actions].sort((a, b) => (a.id < b.id ? -1 : 1)).map((a) => actionMeaning(sanitizeAction(a, secretsOf, fileKey))));
  const freshByAddress = byAddress(fresh.plan.actions);
  const differing = [...byAddress(saved.plan.actions)]
    .filter(([address, actions]) => meaning(actions) !== meaning(freshByAddress.get(address) ?? []))
    .map(([address]) => address)
    .sort();
  if (differing.length > 0) {
    throw new StalePlanError(
      `the saved plan no longer matches the manifests and the live state for:\n${differing.map((a) => `  ${a}`).join('\n')}\n` +
        'The manifests changed since the plan was made, or a resource they reference did. Make a new plan.',
    );
  }

  const actions = saved.plan.actions.map((a) => {
    const now = freshById.get(a.id)!;
    const out: Action = { ...a };
    const body = restoreSecrets(a.body, now.body);
    const desired = restoreSecrets(a.desired, now.desired);
    if (body) out.body = body;
    if (desired) out.desired = desired;
    return out;
  });
  return { ...saved.plan, actions };
}
