// Edge modules as the service stores and returns them. What a module body may hold, which ids it references
// and its rules across fields are the contract's (src/contract/kinds/edge-modules.ts); here a checked body
// becomes the stored module (the sent shape with `enabled` defaulted, so a module PUT, a PATCH and a create all
// store the same thing) and a stored module the "returned" shape (ids as Refs).
import type { ModuleContract } from '../../contract/index.ts';
import {
  backendModule as backendContract, httpsTlsTerminationModule as httpsTlsTerminationContract,
  ipRestrictionModule as ipRestrictionContract, mutualTlsModule as mutualTlsContract,
  tlsTerminationModule as tlsTerminationContract,
} from '../../contract/kinds/edge-modules.ts';
import type { Ctx } from '../resource-def.ts';
import type { Json, JsonObject } from '../json-values.ts';

export interface ModuleDef<S> {
  name: string;
  contract: ModuleContract;
  /** A module body already checked against `contract.schema` -> the stored module. */
  store(checked: JsonObject): S;
  render(stored: S, ctx: Ctx): Json;
}

interface BackendModule { enabled: boolean; backend_id: string }
interface IpRestrictionModule { enabled: boolean; ip_policy_ids: string[] }
interface MutualTlsModule { enabled: boolean; certificate_authority_ids: string[] }
interface TlsTerminationModule { enabled: boolean; terminate_at: 'edge' | 'upstream'; min_version: string | null }

/** A ModuleDef for `contract`, its name taken from the contract. */
export function moduleDef<S>(contract: ModuleContract, def: Omit<ModuleDef<S>, 'name' | 'contract'>): ModuleDef<S> {
  return { name: contract.name, contract, ...def };
}

const enabledOf = (m: JsonObject): boolean => (m.enabled as boolean | undefined) ?? true;

export const backendModule = moduleDef<BackendModule>(backendContract, {
  store: (m) => ({ enabled: enabledOf(m), backend_id: m.backend_id as string }),
  render: (m, ctx) => ({ enabled: m.enabled, backend: { ...ctx.ref(m.backend_id) } }),
});

export const ipRestrictionModule = moduleDef<IpRestrictionModule>(ipRestrictionContract, {
  store: (m) => ({ enabled: enabledOf(m), ip_policy_ids: m.ip_policy_ids as string[] }),
  render: (m, ctx) => ({ enabled: m.enabled, ip_policies: m.ip_policy_ids.map((id) => ({ ...ctx.ref(id) })) }),
});

export const mutualTlsModule = moduleDef<MutualTlsModule>(mutualTlsContract, {
  store: (m) => ({ enabled: enabledOf(m), certificate_authority_ids: m.certificate_authority_ids as string[] }),
  render: (m, ctx) => ({ enabled: m.enabled, certificate_authorities: m.certificate_authority_ids.map((id) => ({ ...ctx.ref(id) })) }),
});

function renderTermination(m: TlsTerminationModule): Json {
  return { enabled: m.enabled, terminate_at: m.terminate_at, min_version: m.min_version };
}

/**
 * TLS edges. min_version stays null when unsent: the service's "safe default" is applied to traffic, not
 * stored, so what was sent is what comes back and the reconciler sees no diff.
 */
export const tlsTerminationModule = moduleDef<TlsTerminationModule>(tlsTerminationContract, {
  store: (m) => ({
    enabled: enabledOf(m), terminate_at: m.terminate_at as TlsTerminationModule['terminate_at'], min_version: (m.min_version as string | undefined) ?? null,
  }),
  render: renderTermination,
});

/** HTTPS edges always terminate TLS at the edge: returned as "edge". */
export const httpsTlsTerminationModule = moduleDef<TlsTerminationModule>(httpsTlsTerminationContract, {
  store: (m) => ({ enabled: enabledOf(m), terminate_at: 'edge', min_version: (m.min_version as string | undefined) ?? null }),
  render: renderTermination,
});

/** The sent modules of a checked create/PATCH body, each as stored. */
export function storedModules(body: JsonObject, defs: readonly ModuleDef<unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    if (Object.hasOwn(body, def.name)) out[def.name] = def.store(body[def.name] as JsonObject);
  }
  return out;
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
