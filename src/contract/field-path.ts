// Field paths. In the code every value of a body or a document is named by a JSON pointer (RFC 6901:
// `/ip_restriction/ip_policy_ids/0`); people read one notation, everywhere edgeops or the service shows a field:
// `ip_restriction.ip_policy_ids[0]`, `labels.dc`, `add["x-test"]`. This is the one place that turns one into the
// other, so validate, plans, drift reports, JSON outputs and the service's messages cannot drift apart.
import { escapeSegment, isObj, unescapeSegment } from './json.ts';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INDEX = /^(0|[1-9][0-9]*)$/;

/** The keys and indexes a pointer names, unescaped: `/a~1b/0` -> `['a/b', '0']`. */
export function splitPointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
}

/** The pointer of `key` below `parent`. */
export function childPointer(parent: string, key: string | number): string {
  return `${parent}/${typeof key === 'number' ? key : escapeSegment(key)}`;
}

/** The pointer of a path of keys and indexes (splitPointer's inverse): `['a/b', 0]` -> `/a~1b/0`. */
export function joinPointer(path: readonly (string | number)[]): string {
  return path.reduce<string>((pointer, key) => childPointer(pointer, key), '');
}

/** A mapping key as the notation shows it: bare when it is an identifier, else quoted (`["x-test"]`). */
export function showKey(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/**
 * A pointer in the notation people read: `/backend/backend_id` -> `backend.backend_id`, `/hostports/0` ->
 * `hostports[0]`, `/add/x-test` -> `add["x-test"]`; '' for the pointer of the whole value. With `root` (the value
 * the pointer is into), a segment is an index exactly when its value is a list; without it, a segment of digits
 * after the first is taken as one.
 */
export function showPath(pointer: string, root?: unknown): string {
  let out = '';
  let value = root;
  for (const segment of splitPointer(pointer)) {
    const index = root === undefined ? out !== '' && INDEX.test(segment) : Array.isArray(value);
    if (index) out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
    if (root !== undefined) value = Array.isArray(value) ? value[Number(segment)] : isObj(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
  }
  return out;
}

// The contract names a body's fields in its own notation (`ip_restriction.ip_policy_ids[]`: `[]` = each item of
// a list); the code finds them by pointer pattern (`/ip_restriction/ip_policy_ids/*`). These two convert.

/** A contract field as a pointer pattern: `ip_restriction.ip_policy_ids[]` -> `/ip_restriction/ip_policy_ids/*`. */
export function fieldPattern(field: string): string {
  return field.split('.').map((step) => (step.endsWith('[]') ? `/${step.slice(0, -2)}/*` : `/${step}`)).join('');
}

/** A pointer pattern as a contract field (fieldPattern's inverse): `/backend/backend_id` -> `backend.backend_id`. */
export function patternField(pattern: string): string {
  return splitPointer(pattern).join('.').replace(/\.\*/g, '[]');
}
