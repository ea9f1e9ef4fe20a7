// References inside request bodies: PendingRef placeholders (`{ $ref: 'Kind/name' }`) and the id values that
// a kind's declared RefFields point at. Both the planner and the executor walk bodies with these helpers.
import { isObj, ownKeyCount, valueAt } from '../contract/json.ts';
import type { Json, Obj, PendingRef, RefField } from '../kinds/resource-kind.ts';
import { splitPointer } from '../contract/field-path.ts';

// Every object of every body is asked: most have no `$ref`, and are told so without their keys being listed.
export function isPendingRef(value: unknown): value is PendingRef {
  return isObj(value) && Object.hasOwn(value, '$ref') && typeof value.$ref === 'string' && ownKeyCount(value) === 1;
}

// The walkers below are module-level functions rather than per-call closures: planning calls them for every
// resource, and allocating closures per call showed up in profiles of 5,000-resource plans. For the same reason
// their loops are indexed: most of this runs before V8 optimizes it, and an unoptimized for-of allocates an
// iterator result at every step.

// Copy-on-write: a subtree with no PendingRef to replace is returned as it is, so most bodies allocate nothing.
function substituteWalk(v: Json, resolve: (address: string) => string | undefined): Json {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    let out: Json[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const e = substituteWalk(v[i]!, resolve);
      if (e !== v[i] && !out) out = v.slice(0, i);
      out?.push(e);
    }
    return out ?? v;
  }
  if (isPendingRef(v)) return resolve(v.$ref) ?? v;
  let out: Obj | undefined;
  for (const k in v) {
    const e = substituteWalk(v[k]!, resolve);
    if (e !== v[k] && !out) out = { ...v };
    if (out) out[k] = e;
  }
  return out ?? v;
}

/**
 * `value` with every PendingRef whose address `resolve` knows replaced by that id. Shares every unchanged
 * subtree with `value` (copy-on-write), so callers must not mutate the result in place.
 */
export function substituteRefs<T extends Json>(value: T, resolve: (address: string) => string | undefined): T {
  return substituteWalk(value, resolve) as T;
}

function collectRefs(v: Json | undefined, found: string[]): void {
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) collectRefs(v[i], found);
  } else if (isPendingRef(v)) {
    if (!found.includes(v.$ref)) found.push(v.$ref);
  } else {
    for (const k in v) collectRefs(v[k], found);
  }
}

/** Addresses of every PendingRef left in `value`, sorted. */
export function pendingTargets(value: Json | undefined): string[] {
  const found: string[] = [];
  collectRefs(value, found);
  return found.length > 1 ? found.sort() : found;
}

/** Whether any PendingRef is left in `value`; stops at the first (planning asks this of every body). */
export function hasPendingRef(value: Json | undefined): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasPendingRef(value[i])) return true;
    return false;
  }
  if (isPendingRef(value)) return true;
  for (const k in value) if (hasPendingRef(value[k])) return true;
  return false;
}

const segmentCache = new Map<string, readonly string[]>();

/** Splits a JSON pointer into unescaped segments (memoized: the same few pointers are split for every resource). */
export function pointerSegments(pointer: string): readonly string[] {
  let segments = segmentCache.get(pointer);
  if (!segments) {
    segments = splitPointer(pointer);
    if (segmentCache.size < 10_000) segmentCache.set(pointer, segments);
  }
  return segments;
}

/** The values a RefField points at in a request-shaped body (`/a/b` -> one value, `/a/ids/*` -> each element). */
export function refValues(body: Obj, ref: RefField): Json[] {
  const segments = pointerSegments(ref.pointer);
  const many = segments[segments.length - 1] === '*';
  const at = valueAt(body, many ? segments.slice(0, -1) : segments);
  if (at === undefined || at === null) return [];
  if (many) return Array.isArray(at) ? at.filter((v) => v !== null) : [];
  return [at];
}

