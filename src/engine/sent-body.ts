// The body a document's create sends, built in one place for every reader: the diff (in the shape it compares,
// references the plan cannot resolve yet kept as PendingRef), the manifests' contract check and the plan's size
// check (as it goes on the wire: the marker in metadata, a placeholder id for every resource not created yet).
// A body without references is built once per document per run: a 5,000-document plan reads it up to three times.
import { isObj } from '../contract/json.ts';
import { ID_SUFFIX_LENGTH } from '../contract/protocol.ts';
import { serializeMetadata } from '../kinds/marker.ts';
import type { Obj, ResourceKind } from '../kinds/resource-kind.ts';
import { hasPendingRef, substituteRefs } from './refs.ts';

/** Ids the plan knows by address; an address it does not know stays a PendingRef in the body. */
export type Ids = (address: string) => string | undefined;

/** No id known: every reference stays a PendingRef (or, on the wire, a placeholder). */
export const NO_IDS: Ids = () => undefined;

interface SendAs {
  kind: ResourceKind;
  /**
   * The stack whose marker a marker kind's metadata carries, as sent (a string), with a placeholder id for every
   * reference left. Without it, metadata stays the user's mapping, the shape the diff compares with live bodies.
   */
  stack?: string;
  /** Kinds by name: a placeholder id carries its kind's prefix. */
  kinds?: ReadonlyMap<string, ResourceKind>;
}

/** What sentBody reads of a document: its fields, and its address for the marker. */
interface SentDocument {
  spec: Obj;
  address?: string;
}

// A placeholder has the length of the service's ids, one per address, so two resources not created yet never
// look like the same one.
const placeholders = new Map<string, string>();

/** The id a body carries for a resource not created yet: its kind's prefix and a number, one per address. */
function placeholderId(address: string, kinds?: ReadonlyMap<string, ResourceKind>): string {
  let id = placeholders.get(address);
  if (id === undefined) {
    const prefix = kinds?.get(address.slice(0, address.indexOf('/')))?.idPrefix ?? 'id_';
    placeholders.set(address, (id = `${prefix}${String(placeholders.size + 1).padStart(ID_SUFFIX_LENGTH, '0')}`));
  }
  return id;
}

// Keyed by the document's spec (one object per document per run): callers must not mutate what they get. Only
// bodies without references are kept: those are the same for every reader, the diff included; a body with
// references differs by what the plan knows, and the contract check builds its placeholder form once anyway.
// The wire form (a shallow copy with the marker) is not kept: kept for every document, it costs more memory
// at 20,000 documents than rebuilding it costs time.
const compared = new WeakMap<Obj, Obj>();
const referencing = new WeakMap<Obj, boolean>();

/** Whether a spec holds a reference, walked once per spec. */
function hasReference(spec: Obj): boolean {
  let found = referencing.get(spec);
  if (found === undefined) referencing.set(spec, (found = hasPendingRef(spec)));
  return found;
}

/**
 * The body of `document`'s create: references `ids` knows replaced by their ids, the kind's toRequest and
 * normalizeDesired applied; with `as.stack`, as sent (see SendAs). Built once per document when it holds no
 * reference: the result is shared, never to be mutated.
 */
export function sentBody(document: SentDocument, ids: Ids, as: SendAs): Obj {
  const { spec } = document;
  const referencing = hasReference(spec);
  let body: Obj | undefined;
  if (referencing) body = comparedBody(as.kind, spec, ids);
  else if (!(body = compared.get(spec))) compared.set(spec, (body = comparedBody(as.kind, spec, NO_IDS)));
  return as.stack === undefined ? body : wireBody(body, document, as.stack, as, referencing);
}

function comparedBody(kind: ResourceKind, spec: Obj, ids: Ids): Obj {
  const resolved = ids === NO_IDS ? spec : substituteRefs(spec, ids);
  if (kind.identity !== 'marker') return kind.normalizeDesired(kind.toRequest(resolved));
  const { metadata, ...rest } = resolved;
  const body = kind.normalizeDesired(kind.toRequest(rest));
  delete body.metadata;
  if (isObj(metadata) && Object.keys(metadata).length > 0) body.metadata = metadata;
  return body;
}

function wireBody(diffed: Obj, document: SentDocument, stack: string, as: SendAs, referencing: boolean): Obj {
  const body = { ...(referencing ? substituteRefs(diffed, (address) => placeholderId(address, as.kinds)) : diffed) };
  if (as.kind.identity === 'marker') {
    const user = isObj(body.metadata) ? body.metadata : undefined;
    body.metadata = serializeMetadata(user, { stack, name: document.address ?? '' });
  }
  return body;
}
