// The traffic `policy` module of TCP and TLS edges. The spec's table shows inbound, outbound and actions as
// single objects; the public API and its official client use lists. A single object is accepted as a list of
// one, and lists are always returned (DESIGN 7). Optional `name` and `config` are returned only when sent, so
// a policy reads back exactly as it was written.
import { ServiceError } from '../errors.ts';
import { boolean, fieldPath, isPlainObject, list, nonFinite, parseObject, string, type JsonObject, type Validator } from '../validate.ts';
import type { ModuleDef } from './edge-module-rules.ts';

// Type aliases, not interfaces: they must be assignable to Json for rendering.
export type PolicyAction = { type: string; config?: JsonObject };
export type PolicyRule = { name?: string; expressions: string[]; actions: PolicyAction[] };
export type PolicyModule = { enabled: boolean; inbound: PolicyRule[]; outbound: PolicyRule[] };

/** A list, or one item standing for a list of one (reported at the field's own path). */
function oneOrMany<T>(item: Validator<T>): Validator<T[]> {
  return (value, path) => (Array.isArray(value) ? list(item)(value, path) : [item(value, path)]);
}

/** Free-form action config is bounded in depth: serializing a 1 MiB body of nested brackets overflows the stack. */
export const CONFIG_MAX_DEPTH = 32;

/**
 * Throws unless `value` nests at most `limit` more levels and every number in it is finite (JSON 1e999 parses
 * to Infinity, which would be stored as null). `path` names the value, `configPath` the whole config.
 */
function checkConfig(value: unknown, path: string, configPath: string, limit: number): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw nonFinite(path);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (limit === 0) throw new ServiceError('ERR_POLICY_INVALID', `${configPath}: nested deeper than ${CONFIG_MAX_DEPTH} levels`);
  if (Array.isArray(value)) value.forEach((v, i) => checkConfig(v, fieldPath(path, i), configPath, limit - 1));
  else for (const [key, v] of Object.entries(value)) checkConfig(v, fieldPath(path, key), configPath, limit - 1);
}

// Kept as sent: the object JSON.parse built, so every key (also "__proto__") is an own property.
const config: Validator<JsonObject> = (value, path) => {
  if (!isPlainObject(value)) throw new ServiceError('ERR_FIELD_TYPE', `${path}: expected an object`);
  checkConfig(value, path, path, CONFIG_MAX_DEPTH);
  return value;
};

const action: Validator<PolicyAction> = (value, path) => {
  const a = parseObject(value, path, { type: string({ nonEmpty: true, maxBytes: 255 }), config }, ['type']);
  return a.config === undefined ? { type: a.type! } : { type: a.type!, config: a.config };
};

const expression = string({ nonEmpty: true, maxBytes: 4096 });

const rule: Validator<PolicyRule> = (value, path) => {
  const r = parseObject(value, path, {
    name: string({ maxBytes: 255 }),
    expressions: list(expression),
    actions: oneOrMany(action),
  }, ['expressions', 'actions']);
  if (r.actions!.length === 0) throw new ServiceError('ERR_POLICY_INVALID', `${fieldPath(path, 'actions')}: a rule needs at least one action`);
  const out: PolicyRule = { expressions: r.expressions!, actions: r.actions! };
  return r.name === undefined ? out : { name: r.name, ...out };
};

export const policyModule: ModuleDef<PolicyModule> = {
  name: 'policy',
  parse(value, path) {
    const m = parseObject(value, path, { enabled: boolean(), inbound: oneOrMany(rule), outbound: oneOrMany(rule) });
    return { enabled: m.enabled ?? true, inbound: m.inbound ?? [], outbound: m.outbound ?? [] };
  },
  render: (m) => ({ enabled: m.enabled, inbound: m.inbound, outbound: m.outbound }),
  refs: () => [],
};
