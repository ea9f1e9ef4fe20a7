// One YAML document's node tree -> plain JSON data plus the position of every value and key, in one walk
// (no second pass through toJS). Aliases are expanded here, within a budget, so a small file cannot expand
// into a huge document ("billion laughs").
import { isAlias, isMap, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
import type { SourcePos } from '../../errors.ts';
import type { Json, Obj } from '../../kinds/resource-kind.ts';
import { childPointer } from '../pointer.ts';

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

class Walker {
  readonly positions = new Map<string, SourcePos>();
  readonly keys = new Map<string, SourcePos>();
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
      if (!isScalar(keyNode) || !['string', 'number', 'boolean'].includes(typeof keyNode.value)) {
        throw new TreeError(keyNode?.range ? this.at(keyNode.range[0]) : pos, 'mapping keys must be plain strings');
      }
      const key = String(keyNode.value);
      const keyPos = keyNode.range ? this.at(keyNode.range[0]) : pos;
      const child = childPointer(pointer, key);
      this.keys.set(child, keyPos);
      const value = this.value(pair.value as Node | null, child, keyPos);
      // A key named __proto__ must stay an ordinary field, not set the prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    }
    return out;
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
