// Where a value of a document is. JSON pointers (RFC 6901) name every value: positions, ajv's instancePath and
// the kinds' declared reference fields all use them, so they must escape keys the same way. A loaded YAML
// document keeps every value's file:line:col by pointer (ManifestDoc.positions) and every mapping key's in a
// side table, so "unknown field" can point at the key rather than at its value. Pointer patterns
// (`/ip_restriction/ip_policy_ids/*`: `*` = each item of a list) find the reference and secret fields.
import { joinPointer, splitPointer } from '../contract/field-path.ts';
import { isObj } from '../contract/json.ts';
import type { SourcePos } from '../errors.ts';
import type { Json, Obj } from '../kinds/resource-kind.ts';

function parentPointer(pointer: string): string {
  return pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
}

/** True when `pointer` is `ancestor` or lies below it. */
export function isWithin(pointer: string, ancestor: string): boolean {
  return pointer === ancestor || pointer.startsWith(`${ancestor}/`);
}

/** A loaded document (a ManifestDoc or the project file): its own position and its values'. */
export interface Located {
  pos: SourcePos;
  positions: Map<string, SourcePos>;
}

const keyPositions = new WeakMap<Located, Map<string, SourcePos>>();

export function rememberKeyPositions(doc: Located, keys: Map<string, SourcePos>): void {
  keyPositions.set(doc, keys);
}

/** The positions of a document's mapping keys by pointer, when they were remembered (an environment moves them). */
export function keyPositionsOf(doc: Located): Map<string, SourcePos> | undefined {
  return keyPositions.get(doc);
}

/** The position of the value at `pointer`, or of its nearest ancestor that has one. */
export function valuePos(doc: Located, pointer: string): SourcePos {
  for (let p = pointer; ; p = parentPointer(p)) {
    const pos = doc.positions.get(p);
    if (pos) return pos;
    if (p === '') return doc.pos;
  }
}

/** The position of the key whose value is at `pointer` (falls back to the value's position). */
export function keyPos(doc: Located, pointer: string): SourcePos {
  return keyPositions.get(doc)?.get(pointer) ?? valuePos(doc, pointer);
}

const sources = new WeakMap<object, Located>();

/** Remembers the document a resolved resource came from, so checks after resolve point at its values. */
export function rememberSource(resource: object, doc: Located): void {
  sources.set(resource, doc);
}

/** The position of a resolved resource's value at `pointer` (its document's position when unknown). */
export function sourceValuePos(resource: { pos: SourcePos }, pointer: string): SourcePos {
  const doc = sources.get(resource);
  return doc ? valuePos(doc, pointer) : resource.pos;
}

// Finding and replacing values by pointer pattern; works on the resolver's own copy of a document's fields.
export interface Slot {
  readonly value: Json;
  /** The concrete pointer (`/ip_restriction/ip_policy_ids/0`). */
  readonly pointer: string;
  set(value: Json): void;
}

type Container = Record<string | number, Json>;
/** Called for each value a pattern finds, with the path of keys and indexes to it (reused: copy to keep). */
type AtValue = (container: Container, key: string | number, value: Json, path: (string | number)[]) => void;

const NO_SLOTS: readonly Slot[] = Object.freeze([]);

// Most slots are only read (which reference? which secret?): the pointer is joined when asked for, and set is
// the class's method, not a closure per slot.
class FoundSlot implements Slot {
  constructor(
    private readonly container: Container,
    private readonly key: string | number,
    readonly value: Json,
    private readonly path: readonly (string | number)[],
  ) {}

  get pointer(): string {
    return joinPointer(this.path);
  }

  set(value: Json): void {
    this.container[this.key] = value;
  }
}

// A pattern's segments, split once: the resolver looks for the same few patterns in every document.
const patternSegments = new Map<string, string[]>();

function patternSteps(pattern: string): string[] {
  let segments = patternSegments.get(pattern);
  if (!segments) {
    segments = splitPointer(pattern);
    if (patternSegments.size < 1000) patternSegments.set(pattern, segments);
  }
  return segments;
}

/** The segments of `pattern` when its first one is in `root`, or undefined: most patterns are absent from most documents. */
function patternIn(root: Obj, pattern: string): readonly string[] | undefined {
  const segments = patternSteps(pattern);
  const head = segments[0];
  // A document is a mapping, never a list.
  return head === undefined || head === '*' || !Object.hasOwn(root, head) ? undefined : segments;
}

function walkPattern(container: Container, key: string | number, segments: readonly string[], depth: number, path: (string | number)[], at: AtValue): void {
  const value = container[key];
  if (value === undefined) return;
  path.push(key);
  const next = segments[depth + 1];
  if (next === undefined) {
    at(container, key, value, path);
  } else if (next === '*') {
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) walkPattern(value as unknown as Container, i, segments, depth + 1, path, at);
  } else if (isObj(value) && Object.hasOwn(value, next)) {
    walkPattern(value, next, segments, depth + 1, path, at);
  }
  path.pop();
}

/**
 * The values at `pattern` (`*` for every item of a list), in document order. Nothing is allocated for a pattern
 * absent from the document.
 */
export function slotsAt(root: Obj, pattern: string): readonly Slot[] {
  const segments = patternIn(root, pattern);
  if (!segments) return NO_SLOTS;
  const found: Slot[] = [];
  walkPattern(root, segments[0]!, segments, 0, [], (container, key, value, path) => found.push(new FoundSlot(container, key, value, path.slice())));
  return found;
}

const unsetNull: AtValue = (container, key, value) => {
  if (value === null) delete container[key];
};

/**
 * Removes the nulls at `pattern` from their mappings (a pattern of list items would leave holes: do not). The
 * resolver asks this of every field that takes null, in every document: no slot is made for it.
 */
export function unsetNullsAt(root: Obj, pattern: string): void {
  const segments = patternIn(root, pattern);
  if (segments) walkPattern(root, segments[0]!, segments, 0, [], unsetNull);
}

export function cloneJson<T extends Json>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Obj = {};
  // for-in, not a for-of over Object.keys: no key list and no iterator results for every object of every
  // document (most of this runs before V8 optimizes it). A parsed document's objects inherit no enumerable key.
  for (const key in value) {
    const v = cloneJson((value as Obj)[key]!);
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out as T;
}
