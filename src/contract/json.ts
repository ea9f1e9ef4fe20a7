// JSON values as both sides of the wall see them: request and response bodies, manifest documents, saved
// plans and lock records. The one object test lives here, below the reconciler and the service alike.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A JSON object: not null, not an array. */
export function isObj(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
