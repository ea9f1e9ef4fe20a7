// Top-level kinds matched by the ownership marker and written through the standard collection endpoints.
// Each kind file states only what sets it apart (fields, normalization, immutable and secret fields, how it
// is adopted); the defaults here are what most kinds share.
import { crudHooks, moduleHooks } from './crud.ts';
import { dropEmptyStrings, pickFields } from './normalize.ts';
import type { Obj, RefField, ResourceKind } from './resource-kind.ts';

export interface MarkerKindDef {
  kind: string;
  idPrefix: string;
  /** Collection path (`/ip_policies`); items live at `${path}/${id}`. */
  path: string;
  listKey: string;
  /** The request fields compared with live state; every other field of a live object is ignored. */
  fields: readonly string[];
  /** Applied to both sides of the diff (default: empty strings dropped). */
  normalize?: (body: Obj) => Obj;
  /** Rewrites a live object before its fields are picked (e.g. a returned Ref back to the sent id field). */
  liveShape?: (raw: Obj) => Obj;
  refs?: readonly RefField[];
  immutable?: readonly string[];
  secrets?: readonly string[];
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
}

export function markerKind(def: MarkerKindDef): ResourceKind {
  const normalize = def.normalize ?? ((body: Obj) => dropEmptyStrings(body));
  const liveShape = def.liveShape ?? ((raw: Obj) => raw);
  const fromLive = (raw: Obj): Obj => normalize(pickFields(liveShape(raw), def.fields));
  const immutable = def.immutable ?? [];
  const modules = def.modules ?? [];
  const crud = crudHooks({
    path: def.path,
    listKey: def.listKey,
    fromLive,
    notPatchable: immutable,
    modules,
    ...(def.clear ? { clear: def.clear } : {}),
  });
  return {
    kind: def.kind,
    idPrefix: def.idPrefix,
    identity: 'marker',
    refs: def.refs ?? [],
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
    ...crud,
    ...(modules.length > 0 ? moduleHooks((live) => `${def.path}/${live.id}`) : {}),
  };
}
