// JSON values as both sides of the wall see them: request and response bodies, manifest documents, saved
// plans and lock records. The one object test lives here, below the reconciler and the service alike.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A JSON object: not null, not an array. */
export function isObj(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How many keys `v` has of its own, counted without listing them (a plan asks this of every object it compares). */
export function ownKeyCount(v: object): number {
  let count = 0;
  for (const key in v) if (Object.hasOwn(v, key)) count++;
  return count;
}

/** A key as one JSON pointer segment (RFC 6901): `~` and `/` escaped. Pointers name values on both sides. */
export function escapeSegment(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

/** The key one JSON pointer segment names. */
export function unescapeSegment(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

/**
 * The value at a path of keys and indexes (a pointer's segments, unescaped), or undefined where the path leads
 * nowhere; only a value's own fields are followed.
 */
export function valueAt(root: Json | undefined, path: readonly string[]): Json | undefined;
export function valueAt(root: unknown, path: readonly string[]): unknown;
export function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObj(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}
