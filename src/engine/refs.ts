// References inside request bodies: PendingRef placeholders (`{ $ref: 'Kind/name' }`) and the id values that
// a kind's declared RefFields point at. Both the planner and the executor walk bodies with these helpers.
import type { Json, Obj, PendingRef, RefField } from '../kinds/resource-kind.ts';

export function isPendingRef(value: unknown): value is PendingRef {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$ref' && typeof (value as PendingRef).$ref === 'string';
}

/** A deep copy of `value` with every PendingRef whose address `resolve` knows replaced by that id. */
export function substituteRefs<T extends Json>(value: T, resolve: (address: string) => string | undefined): T {
  const walk = (v: Json): Json => {
    if (isPendingRef(v)) return resolve(v.$ref) ?? v;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Obj = {};
      for (const [k, child] of Object.entries(v)) out[k] = walk(child);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/** Addresses of every PendingRef left in `value`. */
export function pendingTargets(value: Json | undefined): string[] {
  const found = new Set<string>();
  const walk = (v: Json | undefined): void => {
    if (isPendingRef(v)) found.add(v.$ref);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return [...found].sort();
}

export function hasPendingRef(value: Json | undefined): boolean {
  return pendingTargets(value).length > 0;
}

/** Splits a JSON pointer into unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value at a pointer, or undefined when any step is missing. */
export function valueAt(root: Json | undefined, segments: readonly string[]): Json | undefined {
  let cur: Json | undefined = root;
  for (const seg of segments) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) ? cur[Number(seg)] : cur[seg];
  }
  return cur;
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

/** Literal ids a body references through the kind's declared refs (PendingRefs are not ids and are skipped). */
export function referencedIds(body: Obj, refs: readonly RefField[]): string[] {
  const ids = new Set<string>();
  for (const ref of refs) for (const v of refValues(body, ref)) if (typeof v === 'string') ids.add(v);
  return [...ids];
}
