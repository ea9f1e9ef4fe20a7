// The ownership marker: a managed resource's `metadata` is a JSON object holding the user's keys plus
// `"edgeops": {"stack": S, "name": "Kind/name"}` (a lock record adds `lock`). Everything that reads, writes or
// sizes it (manifest rules, the engine, export, the stack lock) goes through here.
import { isObj } from '../contract/json.ts';
import { METADATA_MAX_BYTES } from '../contract/schema.ts';
import type { Json, Obj } from './resource-kind.ts';

export const MARKER_KEY = 'edgeops';
/** The service's limit for `metadata`, which the marker counts against. */
export const METADATA_LIMIT = METADATA_MAX_BYTES;

export interface Marker {
  stack: string;
  /** `Kind/name`. */
  name: string;
}

export interface ParsedMetadata {
  marker?: Marker;
  /** The user's keys (marker removed); undefined when metadata is absent or not a JSON object. */
  user?: Obj;
}

/** JSON with object keys sorted at every level, so equal data always gives the same string. */
export function canonicalJson(value: Json): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isObj(value)) {
    const out: Obj = {};
    const keys = Object.keys(value).sort();
    for (let i = 0; i < keys.length; i++) out[keys[i]!] = sortKeys(value[keys[i]!]!);
    return out;
  }
  return value;
}

/** Defensive: anything that is not a JSON object string with a well-formed marker is unmanaged. */
export function parseMetadata(value: unknown): ParsedMetadata {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    try {
      parsed = JSON.parse(value);
    } catch {
      return {};
    }
  }
  if (!isObj(parsed)) return {};
  const { [MARKER_KEY]: rawMarker, ...user } = parsed;
  const marker =
    isObj(rawMarker) && typeof rawMarker.stack === 'string' && typeof rawMarker.name === 'string'
      ? { stack: rawMarker.stack, name: rawMarker.name }
      : undefined;
  return marker ? { marker, user } : { user: parsed };
}

/** The metadata string sent to the service: the user's keys plus the marker (and `extra` in it), keys sorted. */
export function serializeMetadata(user: Obj | undefined, marker: Marker, extra?: Obj): string {
  // Most documents set no metadata of their own: their string is written out, keys in sorted order, without
  // building and sorting an object first.
  if (extra === undefined && (user === undefined || Object.keys(user).length === 0)) return `{"${MARKER_KEY}":{"name":${JSON.stringify(marker.name)},"stack":${JSON.stringify(marker.stack)}}}`;
  return canonicalJson({ ...(user ?? {}), [MARKER_KEY]: { ...extra, stack: marker.stack, name: marker.name } });
}

/** `{"edgeops":{"stack":"","name":""}}` without its two empty strings' quotes. */
const BARE_MARKER_BYTES = JSON.stringify({ [MARKER_KEY]: { stack: '', name: '' } }).length - 4;

/** Byte size of serializeMetadata's result (key order does not change the length, so nothing is sorted). */
function metadataBytes(user: Obj | undefined, marker: Marker): number {
  if (!user || Object.keys(user).length === 0) {
    return BARE_MARKER_BYTES + Buffer.byteLength(JSON.stringify(marker.stack)) + Buffer.byteLength(JSON.stringify(marker.name));
  }
  return Buffer.byteLength(JSON.stringify({ ...user, [MARKER_KEY]: { stack: marker.stack, name: marker.name } }), 'utf8');
}

/**
 * Why a document's metadata cannot be stored with its marker: the user set the marker's key, or it is too large.
 * The problem is about the `metadata` field (`field`) and is reported at the value `pointer` names.
 */
export function metadataProblem(user: Obj, marker: Marker): { pointer: string; field: '/metadata'; message: string } | undefined {
  if (Object.hasOwn(user, MARKER_KEY)) {
    return { pointer: `/metadata/${MARKER_KEY}`, field: '/metadata', message: `the key "${MARKER_KEY}" is reserved for edgeops' ownership marker` };
  }
  const bytes = metadataBytes(user, marker);
  if (bytes <= METADATA_LIMIT) return undefined;
  return { pointer: '/metadata', field: '/metadata', message: `is ${bytes} bytes as stored with the ownership marker, at most ${METADATA_LIMIT} are allowed` };
}
