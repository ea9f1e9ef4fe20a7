// Finding and replacing values by pointer pattern (`/ip_restriction/ip_policy_ids/*`: `*` = each item of a
// list), for reference and secret fields. Works on the resolver's own copy of a document's fields.
import { isObj } from '../contract/json.ts';
import type { Json, Obj } from '../kinds/resource-kind.ts';
import { childPointer, segments } from './pointer.ts';

export interface Slot {
  value: Json;
  /** The concrete pointer (`/ip_restriction/ip_policy_ids/0`). */
  pointer: string;
  set(value: Json): void;
  /** Remove the value from its mapping (for a list item, the item becomes a hole: do not). */
  unset(): void;
}

export function slotsAt(root: Obj, pattern: string): Slot[] {
  const found: Slot[] = [];
  const visit = (container: Obj | Json[], key: string | number, rest: string[], pointer: string): void => {
    const value = (container as Record<string | number, Json>)[key];
    if (value === undefined) return;
    if (rest.length === 0) {
      const record = container as Record<string | number, Json>;
      found.push({ value, pointer, set: (v) => (record[key] = v), unset: () => delete record[key] });
      return;
    }
    const [head, ...tail] = rest as [string, ...string[]];
    if (head === '*') {
      if (Array.isArray(value)) value.forEach((_, i) => visit(value, i, tail, childPointer(pointer, i)));
    } else if (isObj(value) && Object.hasOwn(value, head)) {
      visit(value, head, tail, childPointer(pointer, head));
    }
  };
  const [head, ...tail] = segments(pattern);
  if (head === undefined) return found;
  if (head === '*') return found; // a document is a mapping, never a list
  if (Object.hasOwn(root, head)) visit(root, head, tail, childPointer('', head));
  return found;
}

export function cloneJson<T extends Json>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Obj = {};
  for (const key of Object.keys(value)) {
    const v = cloneJson((value as Obj)[key]!);
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out as T;
}
