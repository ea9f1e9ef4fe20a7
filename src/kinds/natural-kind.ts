// Kinds that have no id and no metadata: a parent's whole set of something (an event subscription's sources,
// a route's response-headers module), matched by a key made of the parents' ids (design: Manifests). Such a kind
// is written whole, so create and update are one write; it keeps no secrets, no write-only fields and no
// modules, and a document is the request as written. Each kind file states only its key, references, how live
// items are read and how a desired value is written or removed.
import type { Api, FetchContext, LiveItem, Obj, RefField, ResourceKind } from './resource-kind.ts';

interface NaturalKindDef {
  kind: string;
  refs: readonly RefField[];
  /** Fields that name the parents: a change of one is a replace. */
  immutable: readonly string[];
  naturalKey(body: Obj): string;
  /** Applied to both sides of the diff. */
  normalize(body: Obj): Obj;
  fetch(ctx: FetchContext): Promise<LiveItem[]>;
  /** Makes the parent's set exactly `desired` (create and update alike). */
  write(api: Api, desired: Obj): Promise<LiveItem>;
  delete(api: Api, live: LiveItem): Promise<void>;
}

export function naturalKind(def: NaturalKindDef): ResourceKind {
  return {
    kind: def.kind,
    identity: 'natural',
    refs: def.refs,
    immutable: def.immutable,
    secrets: [],
    writeOnly: [],
    modules: [],
    toRequest: (spec) => ({ ...spec }),
    fromLive: def.normalize,
    normalizeDesired: def.normalize,
    naturalKey: def.naturalKey,
    fetch: def.fetch,
    create: (api, body) => def.write(api, body),
    async update(api, _live, _changed, desired) {
      await def.write(api, desired);
    },
    delete: def.delete,
  };
}
