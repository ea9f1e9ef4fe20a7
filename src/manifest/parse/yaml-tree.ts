// One YAML document's node tree -> plain JSON data plus the position of every value and key, in one walk
// (no second pass through toJS). Aliases are expanded here, within a budget, so a small file cannot expand
// into a huge document ("billion laughs"). Merge keys (`<<: *anchor`, parsed with yaml's `merge: true`) are
// expanded here too, as yaml's toJS would: a key written in the mapping wins over a merged one, and among
// merged mappings the first wins. A merged value keeps the position where it is written (under its anchor),
// so an error in it points at real text.
import { isAlias, isMap, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
import { isObj } from '../../contract/json.ts';
import type { SourcePos } from '../../errors.ts';
import type { Json, Obj } from '../../kinds/resource-kind.ts';
import { isWithin } from '../pointer.ts';
import { childPointer } from '../../contract/field-path.ts';

/** Values produced by expanding aliases, per document. */
export const MAX_ALIAS_VALUES = 10_000;

export interface Tree {
  value: Json;
  positions: Map<string, SourcePos>;
  keys: Map<string, SourcePos>;
}

/** A problem that makes the document unusable; carries its position. */
export class TreeError extends Error {
  constructor(
    readonly pos: SourcePos,
    message: string,
  ) {
    super(message);
  }
}

/** The options every manifest reader parses with: YAML 1.2's core schema plus `<<` merge keys. */
export const YAML_OPTIONS = { merge: true } as const;

/** yaml's parsed `<<` key (with `merge: true`): a plain scalar holding Symbol(<<); a quoted "<<" is a string. */
export function isMergeKey(key: unknown): boolean {
  return isScalar(key) && typeof key.value === 'symbol' && key.value.description === '<<';
}

/** Sets a field; a key named __proto__ must stay an ordinary field, not set the prototype. */
function setField(out: Obj, key: string, value: Json): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

class Walker {
  positions = new Map<string, SourcePos>();
  keys = new Map<string, SourcePos>();
  private readonly anchors = new Map<string, Node>();
  private readonly open = new Set<Node>();
  private aliasDepth = 0;
  private aliasValues = 0;

  constructor(
    private readonly file: string,
    private readonly lines: LineCounter,
  ) {}

  at(offset: number): SourcePos {
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line, col };
  }

  value(node: Node | null, pointer: string, fallback: SourcePos): Json {
    if (node === null) {
      this.positions.set(pointer, fallback);
      return null;
    }
    const pos = node.range ? this.at(node.range[0]) : fallback;
    if (isAlias(node)) return this.alias(node.source, pointer, pos);
    if (this.aliasDepth > 0 && ++this.aliasValues > MAX_ALIAS_VALUES) {
      throw new TreeError(pos, `aliases expand to more than ${MAX_ALIAS_VALUES} values`);
    }
    if (node.anchor) this.anchors.set(node.anchor, node);
    this.positions.set(pointer, pos);
    if (isScalar(node)) return scalar(node.value, pos);
    this.open.add(node);
    try {
      if (isMap(node)) return this.map(node.items, pointer, pos);
      if (isSeq(node)) return node.items.map((item, i) => this.value(item as Node | null, childPointer(pointer, i), pos));
    } finally {
      this.open.delete(node);
    }
    throw new TreeError(pos, 'unsupported YAML node');
  }

  private map(items: { key: unknown; value: unknown }[], pointer: string, pos: SourcePos): Obj {
    const out: Obj = {};
    for (const pair of items) {
      const keyNode = pair.key as Node | null;
      if (isMergeKey(keyNode)) {
        this.merge(out, pair.value as Node | null, pointer, keyNode!.range ? this.at(keyNode!.range[0]) : pos);
        continue;
      }
      if (!isScalar(keyNode) || !['string', 'number', 'boolean'].includes(typeof keyNode.value)) {
        throw new TreeError(keyNode?.range ? this.at(keyNode.range[0]) : pos, 'mapping keys must be plain strings');
      }
      const key = String(keyNode.value);
      const keyPos = keyNode.range ? this.at(keyNode.range[0]) : pos;
      const child = childPointer(pointer, key);
      // Written after a merge that brought the same key: the written value wins, and the merged one's positions go.
      if (Object.hasOwn(out, key)) this.forget(child);
      this.keys.set(child, keyPos);
      setField(out, key, this.value(pair.value as Node | null, child, keyPos));
    }
    return out;
  }

  /** `<<: source` in the mapping at `pointer`: each key of the source mapping(s) that `out` does not have yet. */
  private merge(out: Obj, node: Node | null, pointer: string, keyPos: SourcePos): void {
    // The sources are read aside, so that keys they lose to never overwrite the positions of the keys that won.
    const [positions, keys] = [this.positions, this.keys];
    this.positions = new Map();
    this.keys = new Map();
    let merged: Json;
    let read: [Map<string, SourcePos>, Map<string, SourcePos>];
    try {
      merged = this.value(node, pointer, keyPos);
    } finally {
      read = [this.positions, this.keys];
      [this.positions, this.keys] = [positions, keys];
    }
    const sources: [Json, string][] = Array.isArray(merged) ? merged.map((m, i) => [m, childPointer(pointer, i)]) : [[merged, pointer]];
    for (const [source, at] of sources) {
      if (!isObj(source)) {
        throw new TreeError(read[0].get(at) ?? keyPos, 'a merge key ("<<") takes a mapping, an alias of one, or a list of them');
      }
      for (const key of Object.keys(source)) {
        if (Object.hasOwn(out, key)) continue;
        setField(out, key, source[key]!);
        const from = childPointer(at, key);
        const to = childPointer(pointer, key);
        for (const [mine, theirs] of [[this.positions, read[0]], [this.keys, read[1]]] as const) {
          for (const [p, pos] of theirs) if (isWithin(p, from)) mine.set(to + p.slice(from.length), pos);
        }
      }
    }
  }

  /** Drops the positions recorded at and below `pointer`. */
  private forget(pointer: string): void {
    for (const table of [this.positions, this.keys]) {
      for (const p of table.keys()) if (isWithin(p, pointer)) table.delete(p);
    }
  }

  private alias(source: string, pointer: string, pos: SourcePos): Json {
    const target = this.anchors.get(source);
    if (!target) throw new TreeError(pos, `alias *${source} has no anchor before it`);
    if (this.open.has(target)) throw new TreeError(pos, `alias *${source} refers to a value that contains it`);
    this.aliasDepth++;
    try {
      const value = this.value(target, pointer, pos);
      this.positions.set(pointer, pos);
      return value;
    } finally {
      this.aliasDepth--;
    }
  }
}

/** A scalar's value as JSON data; TreeError for what JSON cannot hold. */
export function scalar(value: unknown, pos: SourcePos): Json {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TreeError(pos, 'numbers must be finite (.inf and .nan have no JSON form)');
    return value;
  }
  throw new TreeError(pos, 'unsupported YAML value (only strings, numbers, booleans and null)');
}

/** Converts a parsed document's contents. Throws TreeError for what cannot become JSON. */
export function toTree(contents: Node, file: string, lines: LineCounter, docPos: SourcePos): Tree {
  const walker = new Walker(file, lines);
  const value = walker.value(contents, '', docPos);
  return { value, positions: walker.positions, keys: walker.keys };
}
