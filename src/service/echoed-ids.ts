// The official client repeats ids of the path in its bodies: a PATCH's `id`, a route's `edge_id`, a module PUT's
// `{id, module}` wrapper, an event source's `subscription_id` and `type`. The contract names them per kind
// (`echoedIds`); this is the one place that holds the rule for all of them.
import { ServiceError } from './errors.ts';
import { clip, type JsonObject } from './json-values.ts';

/**
 * `body` without the echoed fields whose path parameter (of the same name) is present. An echoed value equal to
 * the path's is dropped, and so is null (absent, as for every field). Anything else is a 400, so a body can never
 * name a different resource than its path.
 */
export function withoutEchoedIds(fields: readonly string[], body: JsonObject, params: Readonly<Record<string, string | undefined>>): JsonObject {
  let rest = body;
  for (const field of fields) {
    const inPath = params[field];
    if (inPath === undefined || !Object.hasOwn(rest, field)) continue;
    const { [field]: sent, ...others } = rest;
    rest = others;
    if (sent === null || sent === inPath) continue;
    // Never stringify a non-string: a deeply nested value would overflow the stack (a 500 instead of a 400).
    if (typeof sent !== 'string') throw new ServiceError('ERR_FIELD_TYPE', `${field}: must be a string, got ${Array.isArray(sent) ? 'an array' : typeof sent}`);
    throw new ServiceError('ERR_ID_MISMATCH', `${field}: ${JSON.stringify(clip(sent))} differs from the ${field} in the path`);
  }
  return rest;
}
