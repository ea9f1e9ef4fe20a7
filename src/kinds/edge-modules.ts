// Edge modules, normalized to the sent shape. Each normalizer accepts either the returned shape
// (`backend: {backend: Ref}`) or the sent one (`backend_id`), so fromLive and normalizeDesired share them
// and both sides of a diff meet in the request shape (DESIGN 5).
import { isObj, refId, refIds, lowerKeys } from './normalize.ts';
import type { Json, Obj } from './resource-kind.ts';

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

/** Response-headers module of an HTTPS edge route (header names compared lower-cased). */
export const responseHeaders: ModuleNormalizer = (m) => ({
  enabled: enabled(m),
  add: lowerKeys(m.add),
  remove: asList(m.remove).map((h) => (typeof h === 'string' ? h.toLowerCase() : h)),
});

/** Normalize every module field present in `body` (null/absent modules are dropped: unset). */
export function normalizeModules(body: Obj, normalizers: Record<string, ModuleNormalizer>): Obj {
  const out: Obj = { ...body };
  for (const [field, norm] of Object.entries(normalizers)) {
    const m = out[field];
    if (isObj(m)) out[field] = norm(m);
    else delete out[field];
  }
  return out;
}
