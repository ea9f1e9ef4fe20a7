// What a plan means, as data that can be hashed and compared: every action's operation, address, live id,
// bodies and field changes, with each secret value replaced by its keyed fingerprint. No timestamps and no
// dependency links (those are derived). The plan checksum is the SHA-256 of it; saved plans store actions in
// this sanitized form and are compared with a fresh plan through it.
import type { Json, Obj } from '../kinds/resource-kind.ts';
import { secretFingerprint, sha256 } from './fingerprint.ts';
import { canonicalJson } from '../kinds/marker.ts';
import type { Action, FieldChange, Plan } from './plan-data.ts';

/** Where a secret value stood in a body: `{"$secret": "hmac-sha256:..."}`. */
interface SecretPlaceholder {
  $secret: string;
}

export function isSecretPlaceholder(value: unknown): value is SecretPlaceholder {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$secret' && typeof (value as SecretPlaceholder).$secret === 'string';
}

export type SecretsOf = (kind: string) => readonly string[];

function sanitizeBody(body: Obj | undefined, secrets: readonly string[], address: string, key: Buffer): Obj | undefined {
  if (!body) return undefined;
  let out = body;
  for (const field of secrets) {
    const value = body[field];
    if (value === undefined || value === null || isSecretPlaceholder(value)) continue;
    if (out === body) out = { ...body };
    out[field] = { $secret: secretFingerprint(key, address, field, value) };
  }
  return out;
}

function sanitizeChange(change: FieldChange): FieldChange {
  if (!change.sensitive) return change;
  // The engine never puts values on a sensitive change; dropping them here keeps that true in every file.
  const { old: _old, new: _new, ...rest } = change;
  return rest;
}

/** The action with secret values of its kind's secret fields replaced by keyed fingerprints. */
export function sanitizeAction(action: Action, secretsOf: SecretsOf, key: Buffer): Action {
  const secrets = secretsOf(action.kind);
  const out: Action = { ...action, changes: action.changes.map(sanitizeChange) };
  const body = sanitizeBody(action.body, secrets, action.address, key);
  const desired = sanitizeBody(action.desired, secrets, action.address, key);
  if (body) out.body = body;
  if (desired) out.desired = desired;
  return out;
}

/** JSON without undefined members (canonicalJson expects plain JSON). */
function plain(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

/** One action's meaning (already sanitized). */
export function actionMeaning(a: Action): Json {
  return plain({
    id: a.id,
    op: a.op,
    kind: a.kind,
    address: a.address,
    live_id: a.liveId ?? null,
    module: a.module ?? null,
    reason: a.reason ?? null,
    adopt: a.adopt ?? null,
    body: a.body ?? null,
    desired: a.desired ?? null,
    changes: a.changes,
    // Only when set, so that plans without renames or release steps keep their checksums.
    ...(a.movedFrom ? { moved_from: a.movedFrom } : {}),
    ...(a.releaseFor ? { release_for: a.releaseFor } : {}),
  });
}

/** The checksum of a plan: stable across runs for the same actions, addresses, changes and secrets. */
export function planChecksum(plan: Plan, secretsOf: SecretsOf, key: Buffer): string {
  const actions = [...plan.actions]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((a) => actionMeaning(sanitizeAction(a, secretsOf, key)));
  // A targeted plan's targets are part of what is approved: two target lists never share a checksum, even where
  // they select the same actions. Only when set, so that untargeted plans keep their checksums.
  const meaning: Obj = { format: 'edgeops-plan-checksum', version: 1, stack: plan.stack, actions };
  if (plan.targets) meaning.targets = [...plan.targets.addresses];
  // The policy set is part of what is approved: a plan reviewed under other policies is stale. Only when set.
  if (plan.policy) meaning.policy_set = plan.policy.digest;
  return sha256(canonicalJson(meaning));
}

/** What `apply --checksum` takes: a plan checksum as `plan` prints it (`sha256:` and 64 hex digits), or the bare hex. */
export const CHECKSUM_FORM = /^(sha256:)?[0-9a-f]{64}$/i;

/** `sha256:<hex>` or the bare hex, compared case-insensitively. */
export function sameChecksum(given: string, actual: string): boolean {
  const bare = (c: string): string => c.trim().toLowerCase().replace(/^sha256:/, '');
  return bare(given) === bare(actual);
}
