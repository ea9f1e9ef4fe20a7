// Unique values (hostports) held outside the caller's account: the service keeps them unique across all
// accounts, but no list of this account shows the holder, so without asking, a plan would create the rest of
// a stack and then meet the refusal on the one write that claims such a value. The service is asked only about
// values the plan would newly claim (no live item of the account holds them), and only when there are some;
// its answer says where a value is held, never by what.
import { escapeSegment } from '../contract/json.ts';
import { sourceValuePos } from '../manifest/pointer.ts';
import type { Api, ResourceKind, UniqueField } from '../kinds/resource-kind.ts';
import type { DesiredResource, DesiredState } from '../manifest/document.ts';
import type { LiveState } from './live.ts';
import type { PlanError } from './plan-checks.ts';
import { uniqueValues } from './value-moves.ts';

interface Claim {
  r: DesiredResource;
  pointer: string;
  value: string;
}

/** The values each unique field with an availability question would newly claim, by field. */
function newClaims(kinds: readonly ResourceKind[], desired: DesiredState, live: LiveState): Map<UniqueField, Claim[]> {
  const held = new Set<string>();
  for (const kind of kinds) {
    if (!kind.unique?.length) continue;
    for (const item of live.byKind.get(kind.kind) ?? []) for (const key of uniqueValues(kind, item.raw)) held.add(key);
  }
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  const claims = new Map<UniqueField, Claim[]>();
  for (const r of desired.resources) {
    for (const u of byName.get(r.kind)?.unique ?? []) {
      const list = r.spec[u.field];
      if (!u.availability || !Array.isArray(list)) continue;
      list.forEach((value, i) => {
        if (typeof value !== 'string' || held.has(`${u.scope}\u0000${u.key(value)}`)) return;
        let found = claims.get(u);
        if (!found) claims.set(u, (found = []));
        found.push({ r, pointer: `/${escapeSegment(u.field)}/${i}`, value });
      });
    }
  }
  return claims;
}

/** Plan errors for the values the plan would claim that the service says are held outside this account. */
export async function outsideClaimErrors(kinds: readonly ResourceKind[], desired: DesiredState, live: LiveState, api: Api): Promise<PlanError[]> {
  const errors: PlanError[] = [];
  for (const [u, claims] of newClaims(kinds, desired, live)) {
    const answer = await u.availability!(api, [...new Set(claims.map((c) => c.value))]);
    if (!answer) continue; // a service that cannot say: the write still meets the refusal
    for (const { r, pointer, value } of claims) {
      if (answer.get(value) !== 'held_outside_account') continue;
      errors.push({
        pos: sourceValuePos(r, pointer),
        address: r.address,
        message: `${u.scope} ${value} is held outside this account; the service lets one resource hold it at a time: pick another ${u.scope}, or have it released where it is held`,
      });
    }
  }
  return errors;
}
