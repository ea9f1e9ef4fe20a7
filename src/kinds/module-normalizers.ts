// Edge modules, normalized to the sent shape. Each normalizer accepts either the returned shape
// (`backend: {backend: Ref}`) or the sent one (`backend_id`), so fromLive and normalizeDesired share them
// and both sides of a diff meet in the request shape (design: Plan and apply).
import { parse as parseYaml } from 'yaml';
import { isObj, refId, refIds, lowerKeys } from './normalize.ts';
import type { Json, Obj, ResourceKind } from './resource-kind.ts';

type ModuleNormalizer = (m: Obj) => Obj;

const enabled = (m: Obj): boolean => m.enabled !== false;

/** A single object where a list is expected is a list of one (the spec's table shows single objects). */
function asList(v: Json | undefined): Json[] {
  if (v === null || v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

export const backend: ModuleNormalizer = (m) => {
  const out: Obj = { enabled: enabled(m) };
  const id = m.backend_id ?? refId(m.backend);
  if (id !== null) out.backend_id = id;
  return out;
};

export const ipRestriction: ModuleNormalizer = (m) => ({
  enabled: enabled(m),
  ip_policy_ids: Array.isArray(m.ip_policy_ids) ? m.ip_policy_ids : refIds(m.ip_policies),
});

export const mutualTls: ModuleNormalizer = (m) => ({
  enabled: enabled(m),
  certificate_authority_ids: Array.isArray(m.certificate_authority_ids)
    ? m.certificate_authority_ids
    : refIds(m.certificate_authorities),
});

/**
 * min_version unsent is returned as null (the service applies its safe default to traffic without storing a
 * version), so null and absent are the same. An explicit version is kept even if it equals that default: the
 * user pinned it, and the service's default may change.
 */
function minVersion(out: Obj, m: Obj): Obj {
  if (m.min_version !== null && m.min_version !== undefined) out.min_version = m.min_version;
  return out;
}

/** TLS edges: terminate_at defaults to `edge`. */
export const tlsTermination: ModuleNormalizer = (m) =>
  minVersion({ enabled: enabled(m), terminate_at: m.terminate_at ?? 'edge' }, m);

/** HTTPS edges always terminate at the edge: terminate_at is returned but may not be sent. */
export const httpsTlsTermination: ModuleNormalizer = (m) => minVersion({ enabled: enabled(m) }, m);

function policyRule(r: Json): Json {
  if (!isObj(r)) return r;
  const out: Obj = {};
  if (typeof r.name === 'string' && r.name !== '') out.name = r.name;
  out.expressions = asList(r.expressions);
  out.actions = asList(r.actions).map((a) => {
    if (!isObj(a)) return a;
    const action: Obj = { type: a.type ?? null };
    if (a.config !== null && a.config !== undefined) action.config = a.config;
    return action;
  });
  return out;
}

export const policy: ModuleNormalizer = (m) => ({
  enabled: enabled(m),
  inbound: asList(m.inbound).map(policyRule),
  outbound: asList(m.outbound).map(policyRule),
});

/** Policy text (JSON, or else YAML) as the document it holds; text that parses as neither stays text. */
function policyDocument(value: Json | undefined): Json {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value) as Json;
  } catch {
    try {
      return (parseYaml(value, { uniqueKeys: true }) ?? null) as Json;
    } catch {
      return value;
    }
  }
}

/**
 * traffic_policy: the service takes and returns the policy as a JSON or YAML string, manifests write it as a
 * mapping. Both sides are compared as the document itself, so key order, quoting and JSON-vs-YAML form are no
 * diff, and a change shows as a change of the rule it is in. Unset phases are no phases.
 */
export const trafficPolicy: ModuleNormalizer = (m) => {
  const doc = policyDocument(m.value);
  if (!isObj(doc)) return { enabled: enabled(m), value: doc };
  const value: Obj = {};
  for (const [phase, rules] of Object.entries(doc)) if (rules !== null && rules !== undefined) value[phase] = rules;
  return { enabled: enabled(m), value };
};

const TRAFFIC_POLICY = 'traffic_policy';

/** The module as the service takes it: the document as JSON text. */
function trafficPolicyText(m: Json | undefined): Json | undefined {
  return isObj(m) && m.value !== null && typeof m.value === 'object' ? { ...m, value: JSON.stringify(m.value) } : m;
}

function withPolicyText(body: Obj): Obj {
  return body[TRAFFIC_POLICY] === undefined ? body : { ...body, [TRAFFIC_POLICY]: trafficPolicyText(body[TRAFFIC_POLICY]) ?? null };
}

/** A kind whose create, update and module PUT send traffic_policy's document as text. */
export function sendingPolicyText(kind: ResourceKind): ResourceKind {
  const { putModule } = kind;
  return {
    ...kind,
    create: (api, body) => kind.create(api, withPolicyText(body)),
    update: (api, live, changed, desired) => kind.update(api, live, withPolicyText(changed), withPolicyText(desired)),
    ...(putModule
      ? { putModule: (api, live, module, body) => putModule(api, live, module, module === TRAFFIC_POLICY ? withPolicyText({ [module]: body })[module] as Obj : body) }
      : {}),
  };
}

/** Response-headers module of an HTTPS edge route (header names compared lower-cased). */
export const responseHeaders: ModuleNormalizer = (m) => ({
  enabled: enabled(m),
  add: lowerKeys(m.add),
  remove: asList(m.remove).map((h) => (typeof h === 'string' ? h.toLowerCase() : h)),
});

// A kind's normalizers, listed once: every body of the kind, desired and live, goes through them.
const listed = new WeakMap<Record<string, ModuleNormalizer>, [string, ModuleNormalizer][]>();

/** Normalize every module field present in `body` (null/absent modules are dropped: unset). */
export function normalizeModules(body: Obj, normalizers: Record<string, ModuleNormalizer>): Obj {
  let entries = listed.get(normalizers);
  if (!entries) listed.set(normalizers, (entries = Object.entries(normalizers)));
  const out: Obj = { ...body };
  // Indexed: an unoptimized for-of allocates at every step, and this runs for every body before V8 optimizes it.
  for (let i = 0; i < entries.length; i++) {
    // Not destructured either: an unoptimized array pattern walks the iterator too.
    const field = entries[i]![0];
    const m = out[field];
    if (isObj(m)) out[field] = entries[i]![1](m);
    else delete out[field];
  }
  return out;
}
