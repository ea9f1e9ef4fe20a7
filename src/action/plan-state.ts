// A compact fingerprint of a JSON plan, kept in the pull-request comment (a hidden HTML comment) so the next
// push can say what changed since. Values are stored only as short hashes: the comment stays small, and
// although the JSON plan never holds secret values, nothing readable is duplicated into it.
import type { PolicyResult } from '../policy/results.ts';
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { JSON_PLAN_VERSION } from '../render/json.ts';

/** The parts of the JSON plan (README "JSON plan format", src/render/json.ts) the action reads. */
interface JsonPlanChange {
  path: string;
  op: string;
  old: unknown;
  new: unknown;
  sensitive?: boolean;
  known_after_apply?: boolean;
}

export interface JsonPlanResource {
  address: string;
  /** What a reviewer reads for the resource (a natural-key item's parent name); the address otherwise. */
  label?: string;
  action: string;
  changes: JsonPlanChange[];
}

export interface JsonPlan {
  format_version: number;
  stack: string;
  summary: { create: number; update: number; replace: number; delete: number };
  resources: JsonPlanResource[];
  warnings: string[];
  /** The plan's checksum (only when it has changes), what `apply --checksum` holds the apply to. */
  checksum?: string;
  /** The policy results, when the stack has policies (src/policy/results.ts). */
  policy?: PolicyResult[];
}

/**
 * Per resource: its action, and per changed field (JSON pointer) a hash of the planned change. A compact
 * state keeps one hash over all of a resource's changes instead, for plans too large to list every field.
 */
export interface PlanState {
  v: 1;
  /** The commit the plan was made for. */
  sha?: string;
  resources: Record<string, [action: string, changes: Record<string, string> | string]>;
}

const STATE_PREFIX = '<!-- edgeops-plan-state:';
const STATE_RE = /<!-- edgeops-plan-state:([A-Za-z0-9+/=]+) -->/;

/** Anyone who can comment can write a body; a small cap keeps a crafted state from inflating into gigabytes. */
const MAX_STATE_BYTES = 8 * 1024 * 1024;

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 10);

export function parseJsonPlan(text: string): JsonPlan {
  const plan = JSON.parse(text) as JsonPlan;
  if (plan?.format_version !== JSON_PLAN_VERSION || !Array.isArray(plan.resources) || typeof plan.stack !== 'string') {
    throw new Error(`not an edgeops JSON plan with format_version ${JSON_PLAN_VERSION}`);
  }
  return plan;
}

/** One hash over a resource's per-field hashes, the same whether computed from a full or a compact state. */
export function changesDigest(changes: Record<string, string> | string): string {
  if (typeof changes === 'string') return changes;
  return digest(JSON.stringify(Object.entries(changes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

export function planState(plan: JsonPlan, sha: string | undefined, compact = false): PlanState {
  const resources: PlanState['resources'] = {};
  for (const resource of plan.resources) {
    const fields: Record<string, string> = {};
    for (const c of resource.changes) {
      // A path can appear twice (a module put and a field of it); fold both into one hash.
      const entry = digest(JSON.stringify([c.op, c.old, c.new, c.sensitive === true, c.known_after_apply === true]));
      fields[c.path] = fields[c.path] === undefined ? entry : digest(fields[c.path] + entry);
    }
    resources[resource.address] = [resource.action, compact ? changesDigest(fields) : fields];
  }
  return { v: 1, ...(sha ? { sha } : {}), resources };
}

function encodeState(state: PlanState): string {
  const packed = deflateRawSync(Buffer.from(JSON.stringify(state)), { level: 9 }).toString('base64');
  return `${STATE_PREFIX}${packed} -->`;
}

/**
 * The state line for a plan within `budget` characters: per field if it fits, else per resource, else
 * undefined (the next push then shows no plan-to-plan difference, and says so).
 */
export function stateFor(plan: JsonPlan, sha: string | undefined, budget: number): string | undefined {
  for (const compact of [false, true]) {
    const line = encodeState(planState(plan, sha, compact));
    if (line.length <= budget) return line;
  }
  return undefined;
}

function isState(value: unknown): value is PlanState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as PlanState;
  if (state.v !== 1 || typeof state.resources !== 'object' || state.resources === null) return false;
  return Object.values(state.resources).every((entry) =>
    Array.isArray(entry) && typeof entry[0] === 'string'
    && (typeof entry[1] === 'string' || (typeof entry[1] === 'object' && entry[1] !== null && Object.values(entry[1]).every((h) => typeof h === 'string'))));
}

/** The state a comment body holds; undefined when there is none or it cannot be read (edited by hand, another version). */
export function extractState(body: string): PlanState | undefined {
  const match = STATE_RE.exec(body);
  if (!match) return undefined;
  try {
    const value: unknown = JSON.parse(inflateRawSync(Buffer.from(match[1]!, 'base64'), { maxOutputLength: MAX_STATE_BYTES }).toString('utf8'));
    return isState(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The state line exactly as the body holds it, to carry it over when a run has no new plan. */
export function extractStateLine(body: string): string | undefined {
  return STATE_RE.exec(body)?.[0];
}
