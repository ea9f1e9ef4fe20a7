// Where a value of a loaded YAML document is: every value by JSON pointer (ManifestDoc.positions), and every
// mapping key in a side table, so "unknown field" can point at the key rather than at its value.
import type { SourcePos } from '../errors.ts';
import { parentPointer } from './pointer.ts';

/** A loaded document (a ManifestDoc or the project file): its own position and its values'. */
export interface Located {
  pos: SourcePos;
  positions: Map<string, SourcePos>;
}

const keyPositions = new WeakMap<Located, Map<string, SourcePos>>();

export function rememberKeyPositions(doc: Located, keys: Map<string, SourcePos>): void {
  keyPositions.set(doc, keys);
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
