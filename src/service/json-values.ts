// JSON value types and the small helpers the service's handlers share. Request bodies are checked against
// the contract's schemas (bodies.ts); the value rules live in src/contract.

import { isObj as isPlainObject, type Json, type JsonObject } from '../contract/json.ts';
export { isPlainObject, type Json, type JsonObject };

/** Keeps error messages short when a client sends a huge string. */
export function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
