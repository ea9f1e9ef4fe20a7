// JSON value types and the small helpers the service's handlers share. Request bodies are checked against
// the contract's schemas (bodies.ts); the value rules live in src/contract.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keeps error messages short when a client sends a huge string. */
export function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
