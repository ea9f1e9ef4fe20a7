// Saved plans (`plan --out FILE`, `apply --plan FILE`): the plan's actions in sanitized form (no secret values:
// each is a keyed fingerprint), a fingerprint of every live object an action touches, and for each create the
// identity that must still be absent. Pure: the CLI reads and writes the file.
import { isObj } from '../contract/json.ts';
import { ConfigError, SavedPlanEditedError } from '../errors.ts';
import type { LiveItem, ResourceKind } from '../kinds/resource-kind.ts';
import { realItem } from './adopt.ts';
import type { SavedKeyInfo } from './fingerprint.ts';
import { liveFingerprint } from './fingerprint.ts';
import { liveIndex } from './live.ts';
import type { LiveState } from './live.ts';
import type { ProjectConfig } from '../manifest/document.ts';
import { DEFAULT_MAX_DELETES } from './safety.ts';
import { digestMatches, savedPlanDigest } from './saved-plan-digest.ts';
import type { Plan } from './plan-data.ts';
import { isSecretPlaceholder, sanitizeAction } from './plan-meaning.ts';
import type { SecretsOf } from './plan-meaning.ts';
import { hasPendingRef } from '../kinds/refs.ts';

const SAVED_PLAN_FORMAT = 'edgeops-saved-plan';
const SAVED_PLAN_VERSION = 1;

/** A live object an action acts on, as it was when the plan was made. */
interface TouchedObject {
  address: string;
  kind: string;
  id: string;
  fingerprint: string;
}

/** A create: nothing live may carry its identity yet (this stack's marker, or the natural key). */
interface AbsentObject {
  address: string;
  kind: string;
  /** For natural-key kinds: the key that must not exist. */
  key?: string;
}

/** The delete limits a plan was made under: what its `Deletes: N of max M` line was measured against. */
type DeleteLimits = Required<Pick<ProjectConfig, 'max_deletes' | 'max_deletes_per_kind'>>;

export interface SavedPlan {
  format: typeof SAVED_PLAN_FORMAT;
  format_version: typeof SAVED_PLAN_VERSION;
  created_at: string;
  edgeops_version: string;
  stack: string;
  /** The manifest paths as given to `plan`: `apply --plan` re-reads them for secret values when none are given. */
  paths: string[];
  adopt: boolean;
  checksum: string;
  secret_fingerprints: SavedKeyInfo;
  touched: TouchedObject[];
  absent: AbsentObject[];
  /** The plan, sanitized: secret fields of bodies are `{"$secret": "hmac-sha256:..."}`. */
  plan: Plan;
  /** So that `show` prints the plan's delete line as `plan` did. Absent in files of earlier versions. */
  delete_limits?: DeleteLimits;
  /** saved-plan-digest.ts: an edited file is refused. Absent in files of earlier versions. */
  digest?: string;
}

interface SaveInput {
  plan: Plan;
  live: LiveState;
  kinds: readonly ResourceKind[];
  paths: string[];
  adopt: boolean;
  checksum: string;
  fileKey: Buffer;
  keyInfo: SavedKeyInfo;
  version: string;
  /** The edgeops.yaml the plan was made with: its delete limits are recorded (the defaults without one). */
  config?: ProjectConfig;
  now?: Date;
}

export const secretsOfKinds = (kinds: readonly ResourceKind[]): SecretsOf => {
  const byName = new Map(kinds.map((k) => [k.kind, k.secrets]));
  return (kind) => byName.get(kind) ?? [];
};

/** The fingerprint of a live item as fetched (an adopted copy counts as the item it was made from). */
export function fingerprintOf(kind: ResourceKind, item: LiveItem): string {
  return liveFingerprint(kind.fromLive(realItem(item).raw));
}

function touchedObjects(plan: Plan, live: LiveState, kinds: readonly ResourceKind[]): TouchedObject[] {
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const find = liveIndex(live);
  const out = new Map<string, TouchedObject>();
  for (const a of plan.actions) {
    if (a.liveId === undefined) continue;
    const key = `${a.kind}\u0000${a.liveId}`;
    const kind = kindOf.get(a.kind);
    const item = find(a.kind, a.liveId);
    if (out.has(key) || !kind || !item) continue;
    out.set(key, { address: a.address, kind: a.kind, id: a.liveId, fingerprint: fingerprintOf(kind, item) });
  }
  return [...out.values()];
}

function absentObjects(plan: Plan, kinds: readonly ResourceKind[]): AbsentObject[] {
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const out: AbsentObject[] = [];
  for (const a of plan.actions) {
    const kind = kindOf.get(a.kind);
    if (a.op !== 'create' || !kind) continue;
    if (kind.identity === 'marker') out.push({ address: a.address, kind: a.kind });
    // A key with a parent this plan creates cannot exist before the parent, whose own absence is checked.
    else if (kind.naturalKey && a.body && !hasPendingRef(a.body)) out.push({ address: a.address, kind: a.kind, key: kind.naturalKey(a.body) });
  }
  return out;
}

/**
 * Where a saved plan's secret fields hold anything but a fingerprint placeholder, or hold `secret` itself:
 * `Kind/name field` for each. Empty for every plan buildSavedPlan makes (the check before writing proves it).
 */
export function exposedSecretFields(plan: Plan, secretsOf: SecretsOf, secret: string | undefined): string[] {
  const out: string[] = [];
  for (const a of plan.actions) {
    for (const field of secretsOf(a.kind)) {
      for (const body of [a.body, a.desired]) {
        const value = body?.[field];
        if (value === undefined || value === null) continue;
        if (!isSecretPlaceholder(value) || (secret !== undefined && JSON.stringify(value).includes(secret))) out.push(`${a.address} ${field}`);
      }
    }
    for (const c of a.changes) if (c.sensitive && (c.old !== undefined || c.new !== undefined)) out.push(`${a.address} ${c.path}`);
  }
  return [...new Set(out)];
}

export function buildSavedPlan(input: SaveInput): SavedPlan {
  const secretsOf = secretsOfKinds(input.kinds);
  const saved: SavedPlan = {
    format: SAVED_PLAN_FORMAT,
    format_version: SAVED_PLAN_VERSION,
    created_at: (input.now ?? new Date()).toISOString(),
    edgeops_version: input.version,
    stack: input.plan.stack,
    paths: [...input.paths],
    adopt: input.adopt,
    checksum: input.checksum,
    secret_fingerprints: input.keyInfo,
    touched: touchedObjects(input.plan, input.live, input.kinds),
    absent: absentObjects(input.plan, input.kinds),
    plan: { ...input.plan, actions: input.plan.actions.map((a) => sanitizeAction(a, secretsOf, input.fileKey)) },
    delete_limits: { max_deletes: input.config?.max_deletes ?? DEFAULT_MAX_DELETES, max_deletes_per_kind: { ...input.config?.max_deletes_per_kind } },
  };
  return { ...saved, digest: savedPlanDigest({ ...saved }) };
}

// --- reading ---------------------------------------------------------------------------------------------

const isString = (v: unknown): v is string => typeof v === 'string';
const OPS = new Set(['create', 'update', 'replace', 'delete', 'module-put', 'module-delete']);

/** Parses and shape-checks a saved plan; anything else is a ConfigError naming the file. */
export function parseSavedPlan(text: string, file: string): SavedPlan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(`${file}: not a saved plan (not JSON)`);
  }
  const bad = (what: string): ConfigError => new ConfigError(`${file}: not a valid saved plan: ${what}`);
  if (!isObj(data) || data.format !== SAVED_PLAN_FORMAT) throw bad(`"format" is not "${SAVED_PLAN_FORMAT}"`);
  if (data.format_version !== SAVED_PLAN_VERSION) {
    throw new ConfigError(`${file}: saved plan format_version ${JSON.stringify(data.format_version)} is not supported (this edgeops reads ${SAVED_PLAN_VERSION}); make a new plan`);
  }
  if (!isString(data.stack) || !isString(data.checksum) || typeof data.adopt !== 'boolean') throw bad('stack, checksum or adopt missing');
  if (!Array.isArray(data.paths) || !data.paths.every(isString)) throw bad('"paths" is not a list of strings');
  const keys = data.secret_fingerprints;
  if (!isObj(keys) || !['plan-key', 'api-key', 'file'].includes(String(keys.source)) || !isString(keys.salt) || !isString(keys.key_check)) {
    throw bad('"secret_fingerprints" is incomplete');
  }
  if (keys.source === 'file' && !isString(keys.file_key)) throw bad('"secret_fingerprints.file_key" is missing');
  const listOf = (v: unknown, fields: string[]): boolean => Array.isArray(v) && v.every((e) => isObj(e) && fields.every((f) => isString(e[f])));
  if (!listOf(data.touched, ['address', 'kind', 'id', 'fingerprint'])) throw bad('"touched" is malformed');
  if (!listOf(data.absent, ['address', 'kind'])) throw bad('"absent" is malformed');
  if (data.digest !== undefined && !digestMatches(data)) {
    throw new SavedPlanEditedError(`${file}: the saved plan was edited after it was saved (its digest does not match its content); make a new plan`);
  }
  const limits = data.delete_limits;
  if (limits !== undefined && (!isObj(limits) || typeof limits.max_deletes !== 'number' || !isObj(limits.max_deletes_per_kind)
    || !Object.values(limits.max_deletes_per_kind).every((n) => typeof n === 'number'))) throw bad('"delete_limits" is malformed');
  const plan = data.plan;
  if (!isObj(plan) || plan.stack !== data.stack || !Array.isArray(plan.actions) || !isObj(plan.summary) || !Array.isArray(plan.warnings)) {
    throw bad('"plan" is malformed');
  }
  const targets = plan.targets;
  if (targets !== undefined && (!isObj(targets) || !Array.isArray(targets.addresses) || !targets.addresses.every(isString) || typeof targets.resources !== 'number' || typeof targets.of !== 'number')) {
    throw bad('"plan.targets" is malformed');
  }
  for (const a of plan.actions) {
    if (!isObj(a) || !['id', 'kind', 'name', 'address'].every((f) => isString(a[f])) || !OPS.has(String(a.op))) throw bad('an action is malformed');
    if (!Array.isArray(a.changes) || !Array.isArray(a.dependsOn) || !a.dependsOn.every(isString)) throw bad(`action ${String(a.id)} is malformed`);
  }
  return data as unknown as SavedPlan;
}
