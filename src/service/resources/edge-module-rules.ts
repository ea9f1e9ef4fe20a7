// Edge modules: how each one is parsed from the "sent" shape into the stored document, rendered into the
// "returned" shape, and which ids it references. Stored modules keep the sent shape (ids, not Refs) with
// `enabled` defaulted, so a module PUT, a PATCH and a create all store the same thing.
import { ServiceError } from '../errors.ts';
import type { Ctx, KindName, RefDecl } from '../resource-def.ts';
import { boolean, clip, fieldPath, oneOf, parseObject, string, type Json, type Validator } from '../validate.ts';

export interface ModuleDef<S> {
  name: string;
  /** Sent shape -> stored; throws a ServiceError naming the field under `path` ('backend.backend_id'). */
  parse(value: unknown, path: string): S;
  render(stored: S, ctx: Ctx): Json;
  refs(stored: S, path: string): RefDecl[];
}

export interface BackendModule { enabled: boolean; backend_id: string }
export interface IpRestrictionModule { enabled: boolean; ip_policy_ids: string[] }
export interface MutualTlsModule { enabled: boolean; certificate_authority_ids: string[] }
export interface TlsTerminationModule { enabled: boolean; terminate_at: 'edge' | 'upstream'; min_version: string | null }

export const TLS_VERSIONS = ['1.0', '1.1', '1.2', '1.3'] as const;
const BACKEND_KINDS: readonly KindName[] = ['tunnel_group_backend', 'http_response_backend'];

/** A non-empty list of distinct ids; `empty` is the code for []. */
function idList(empty: 'ERR_IP_POLICY_IDS_EMPTY' | 'ERR_CA_IDS_EMPTY'): Validator<string[]> {
  return (value, path) => {
    if (!Array.isArray(value)) throw new ServiceError('ERR_FIELD_TYPE', `${path}: expected a list of ids`);
    if (value.length === 0) throw new ServiceError(empty, `${path}: must name at least one id`);
    const seen = new Set<string>();
    return value.map((item, i) => {
      const id = string({ nonEmpty: true })(item, fieldPath(path, i));
      if (seen.has(id)) throw new ServiceError('ERR_FIELD_INVALID', `${fieldPath(path, i)}: ${JSON.stringify(clip(id))} is listed twice`);
      seen.add(id);
      return id;
    });
  };
}

function idRefs(ids: readonly string[], path: string, kinds: readonly KindName[]): RefDecl[] {
  return ids.map((id, i) => ({ field: fieldPath(path, i), id, kinds }));
}

export const backendModule: ModuleDef<BackendModule> = {
  name: 'backend',
  parse(value, path) {
    const m = parseObject(value, path, { enabled: boolean(), backend_id: string({ nonEmpty: true }) }, ['backend_id']);
    return { enabled: m.enabled ?? true, backend_id: m.backend_id! };
  },
  render: (m, ctx) => ({ enabled: m.enabled, backend: { ...ctx.ref(m.backend_id) } }),
  refs: (m, path) => [{ field: fieldPath(path, 'backend_id'), id: m.backend_id, kinds: BACKEND_KINDS }],
};

export const ipRestrictionModule: ModuleDef<IpRestrictionModule> = {
  name: 'ip_restriction',
  parse(value, path) {
    const m = parseObject(value, path, { enabled: boolean(), ip_policy_ids: idList('ERR_IP_POLICY_IDS_EMPTY') }, ['ip_policy_ids']);
    return { enabled: m.enabled ?? true, ip_policy_ids: m.ip_policy_ids! };
  },
  render: (m, ctx) => ({ enabled: m.enabled, ip_policies: m.ip_policy_ids.map((id) => ({ ...ctx.ref(id) })) }),
  refs: (m, path) => idRefs(m.ip_policy_ids, fieldPath(path, 'ip_policy_ids'), ['ip_policy']),
};

export const mutualTlsModule: ModuleDef<MutualTlsModule> = {
  name: 'mutual_tls',
  parse(value, path) {
    const m = parseObject(value, path, { enabled: boolean(), certificate_authority_ids: idList('ERR_CA_IDS_EMPTY') }, ['certificate_authority_ids']);
    return { enabled: m.enabled ?? true, certificate_authority_ids: m.certificate_authority_ids! };
  },
  render: (m, ctx) => ({ enabled: m.enabled, certificate_authorities: m.certificate_authority_ids.map((id) => ({ ...ctx.ref(id) })) }),
  refs: (m, path) => idRefs(m.certificate_authority_ids, fieldPath(path, 'certificate_authority_ids'), ['certificate_authority']),
};

const minVersion = oneOf(TLS_VERSIONS, 'ERR_MIN_VERSION_INVALID');

function renderTermination(m: TlsTerminationModule): Json {
  return { enabled: m.enabled, terminate_at: m.terminate_at, min_version: m.min_version };
}

/**
 * TLS edges. min_version stays null when unsent: the service's "safe default" is applied to traffic, not
 * stored, so what was sent is what comes back and the reconciler sees no diff.
 */
export const tlsTerminationModule: ModuleDef<TlsTerminationModule> = {
  name: 'tls_termination',
  parse(value, path) {
    const m = parseObject(value, path, {
      enabled: boolean(),
      terminate_at: oneOf(['edge', 'upstream'], 'ERR_TERMINATE_AT_INVALID'),
      min_version: minVersion,
    }, ['terminate_at']);
    if (m.terminate_at === 'upstream' && m.min_version !== undefined) {
      throw new ServiceError('ERR_MIN_VERSION_WITH_UPSTREAM', `${fieldPath(path, 'min_version')}: must be null when terminate_at is upstream`);
    }
    return { enabled: m.enabled ?? true, terminate_at: m.terminate_at!, min_version: m.min_version ?? null };
  },
  render: renderTermination,
  refs: () => [],
};

/** HTTPS edges always terminate at the edge: terminate_at is not accepted, and returned as "edge". */
export const httpsTlsTerminationModule: ModuleDef<TlsTerminationModule> = {
  name: 'tls_termination',
  parse(value, path) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && (value as Record<string, unknown>).terminate_at != null) {
      throw new ServiceError('ERR_TERMINATE_AT_NOT_ALLOWED', `${fieldPath(path, 'terminate_at')}: HTTPS edges always terminate TLS at the edge; leave it out`);
    }
    const m = parseObject(value, path, { enabled: boolean(), min_version: minVersion });
    return { enabled: m.enabled ?? true, terminate_at: 'edge', min_version: m.min_version ?? null };
  },
  render: renderTermination,
  refs: () => [],
};

/** A module as a body field of an edge/route create or PATCH. */
export function moduleField<S>(def: ModuleDef<S>): Validator<S> {
  return (value, path) => def.parse(value, path);
}

/** Every ref of every set module of a document, for CollectionDef.refs. */
export function moduleRefs(data: object, defs: readonly ModuleDef<unknown>[]): RefDecl[] {
  const record = data as Record<string, unknown>;
  return defs.flatMap((def) => {
    const stored = record[def.name];
    return stored === null || stored === undefined ? [] : def.refs(stored, def.name);
  });
}

/** Each module of the document in the returned shape, null when unset. */
export function renderModules(data: object, defs: readonly ModuleDef<unknown>[], ctx: Ctx): Record<string, Json> {
  const record = data as Record<string, unknown>;
  const out: Record<string, Json> = {};
  for (const def of defs) {
    const stored = record[def.name];
    out[def.name] = stored === null || stored === undefined ? null : def.render(stored, ctx);
  }
  return out;
}
