// The body a document's create sends, built in one place for every reader. In the shape the diff compares
// (requestBody: references the plan cannot resolve yet kept as PendingRef, metadata the user's mapping), and
// as it goes on the wire (wireBody: every reference an id, a marker kind's metadata the user's keys plus the
// marker), which the executor sends and the manifests' contract check and the plan's size check measure: what
// they check is what is sent. A request body without references is built once per document per run (a
// 5,000-document plan reads it up to three times) and frozen, since every reader shares it.
import { isObj } from '../contract/json.ts';
import { ID_SUFFIX_LENGTH } from '../contract/protocol.ts';
import { serializeMetadata } from './marker.ts';
import { hasPendingRef, substituteRefs } from './refs.ts';
import type { Json, Obj, ResourceKind } from './resource-kind.ts';

/** Ids known by address; an address not known stays a PendingRef in the body. */
export type Ids = (address: string) => string | undefined;

/** No id known: every reference stays a PendingRef. */
export const NO_IDS: Ids = () => undefined;

/**
 * Ids for the resources a check's bodies reference, none of which it creates: an id of the service's length
 * and of the kind's prefix, one per address, so two resources not created yet never look like the same one.
 * One numbering per check run, made by each run that needs one.
 */
export function placeholderIds(kinds: ReadonlyMap<string, ResourceKind>): Ids {
  const ids = new Map<string, string>();
  return (address) => {
    let id = ids.get(address);
    if (id === undefined) {
      const prefix = kinds.get(address.slice(0, address.indexOf('/')))?.idPrefix ?? 'id_';
      ids.set(address, (id = `${prefix}${String(ids.size + 1).padStart(ID_SUFFIX_LENGTH, '0')}`));
    }
    return id;
  };
}

// Keyed by the document's spec (one object per document per run). Only bodies without references are kept:
// those are the same for every reader; a body with references differs by what its reader knows.
const kept = new WeakMap<Obj, Obj>();
const referencing = new WeakMap<Obj, boolean>();

/** Whether a spec holds a reference, walked once per spec. */
function hasReference(spec: Obj): boolean {
  let found = referencing.get(spec);
  if (found === undefined) referencing.set(spec, (found = hasPendingRef(spec)));
  return found;
}

/** Frozen all the way down: a kept body is shared by every reader, and a write to it would reach them all. */
function deepFreeze<T extends Json>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The body of a create of `spec`, in the shape the diff compares: references `ids` knows replaced by their ids,
 * the kind's toRequest and normalizeDesired applied. Without references it is built once per spec and frozen.
 */
export function requestBody(kind: ResourceKind, spec: Obj, ids: Ids): Obj {
  if (hasReference(spec)) return build(kind, spec, ids);
  let body = kept.get(spec);
  if (!body) kept.set(spec, (body = deepFreeze(build(kind, spec, NO_IDS))));
  return body;
}

function build(kind: ResourceKind, spec: Obj, ids: Ids): Obj {
  const resolved = ids === NO_IDS ? spec : substituteRefs(spec, ids);
  if (kind.identity !== 'marker') return kind.normalizeDesired(kind.toRequest(resolved));
  const { metadata, ...rest } = resolved;
  const body = kind.normalizeDesired(kind.toRequest(rest));
  delete body.metadata;
  if (isObj(metadata) && Object.keys(metadata).length > 0) body.metadata = metadata;
  return body;
}

interface WireOptions {
  /** The stack whose marker a marker kind's metadata carries. */
  stack: string;
  /** The resource's address: the marker's name. */
  address: string;
  /** The ids of the references left in the body (the run's own, or a check's placeholderIds). */
  ids: Ids;
  /** Whether the metadata is sent (with the marker): a create's and a full body's always, a PATCH's when it changes. */
  metadata?: boolean;
}

/**
 * `body` (a requestBody, or the fields of an update) as it goes on the wire: the references `ids` knows replaced,
 * and for a marker kind the user's metadata plus the marker, serialized. A new object: `body` is left as it is.
 */
export function wireBody(kind: ResourceKind, body: Obj, to: WireOptions): Obj {
  const out = { ...(to.ids === NO_IDS ? body : substituteRefs(body, to.ids)) };
  if (kind.identity === 'marker' && to.metadata !== false) {
    out.metadata = serializeMetadata(isObj(out.metadata) ? out.metadata : undefined, { stack: to.stack, name: to.address });
  }
  return out;
}

/** What a check sends for a document's create: its requestBody on the wire, a placeholder for every reference. */
export function sentBody(document: { spec: Obj; address: string }, kind: ResourceKind, to: { stack: string; ids: Ids }): Obj {
  return wireBody(kind, requestBody(kind, document.spec, NO_IDS), { stack: to.stack, address: document.address, ids: to.ids });
}
