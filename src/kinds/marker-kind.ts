// Top-level kinds matched by the ownership marker and written through the standard collection endpoints.
// Each kind file states only what sets it apart (fields, normalization, immutable and secret fields, how it
// is adopted); the defaults here are what most kinds share.
import type { ContractKind } from '../contract/index.ts';
import { contractRefs } from './contract-kind.ts';
import { crudHooks, moduleHooks } from './crud.ts';
import { dropEmptyStrings, pickFields } from './normalize.ts';
import type { Obj, ResourceKind } from './resource-kind.ts';

interface MarkerKindDef {
  kind: string;
  /** Its id prefix, collection path (items at `${path}/${id}`), list key, create-only and reference fields. */
  contract: ContractKind;
  /** The request fields compared with live state; every other field of a live object is ignored. */
  fields: readonly string[];
  /** Applied to both sides of the diff (default: empty strings dropped). */
  normalize?: (body: Obj) => Obj;
  /** Rewrites a live object before its fields are picked (e.g. a returned Ref back to the sent id field). */
  liveShape?: (raw: Obj) => Obj;
  secrets?: readonly string[];
  certificateFields?: readonly string[];
  writeOnly?: readonly string[];
  /** Module fields; the kind then gets PUT/DELETE module hooks at `${path}/${id}/${module}`. */
  modules?: readonly string[];
  /** Manifest fields -> request body (default: a copy). */
  toRequest?: (spec: Obj) => Obj;
  adoptKeys?: ResourceKind['adoptKeys'];
  unique?: ResourceKind['unique'];
  valueRules?: ResourceKind['valueRules'];
  /** Per-field values that clear a field in a PATCH (see crud.ts). */
  clear?: Obj;
  brief?: ResourceKind['brief'];
  partNoun?: string;
}

export function markerKind(def: MarkerKindDef): ResourceKind {
  const normalize = def.normalize ?? ((body: Obj) => dropEmptyStrings(body));
  const liveShape = def.liveShape ?? ((raw: Obj) => raw);
  const fromLive = (raw: Obj): Obj => normalize(pickFields(liveShape(raw), def.fields));
  const { contract } = def;
  const path = contract.path;
  const immutable = contract.immutable;
  const modules = def.modules ?? [];
  const crud = crudHooks({
    path,
    listKey: contract.listKey ?? '',
    fromLive,
    notPatchable: immutable,
    modules,
    ...(def.clear ? { clear: def.clear } : {}),
  });
  return {
    kind: def.kind,
    idPrefix: `${contract.prefix}_`,
    identity: 'marker',
    refs: contractRefs(contract),
    immutable,
    secrets: def.secrets ?? [],
    writeOnly: def.writeOnly ?? [],
    modules,
    toRequest: def.toRequest ?? ((spec) => ({ ...spec })),
    fromLive,
    normalizeDesired: normalize,
    ...(def.adoptKeys ? { adoptKeys: def.adoptKeys } : {}),
    ...(def.unique ? { unique: def.unique } : {}),
    ...(def.valueRules ? { valueRules: def.valueRules } : {}),
    ...(def.certificateFields ? { certificateFields: def.certificateFields } : {}),
    ...(def.brief ? { brief: def.brief } : {}),
    ...(def.partNoun ? { partNoun: def.partNoun } : {}),
    ...crud,
    ...(modules.length > 0 ? moduleHooks((live) => `${path}/${live.id}`) : {}),
  };
}
