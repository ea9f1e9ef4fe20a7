// The common subset of YAML that manifests are written in, read directly: block mappings and sequences, one-line
// plain and quoted scalars, one-line flow collections, comments and `---` separators. yaml's document API costs
// about 0.2 ms per document cold (its lexer and composer are built for every feature of the language); this reads
// the subset some ten times faster, with every value's and key's position (file:line:col) as yaml gives it.
//
// It never decides anything yaml would decide differently: plain scalars are typed by yaml's own core-schema
// tags, and at the first construct outside the subset (anchors, tags, block scalars, multi-line scalars, tabs,
// CR line ends, duplicate keys, anything that could be an error...) it gives up on the whole file, which is then
// read by yaml as before, so every message about bad YAML is still yaml's. test/manifest/yaml-common.test.ts
// checks both readers against each other.
import type { SourcePos } from '../../errors.ts';
import type { Json, Obj } from '../../kinds/resource-kind.ts';
import { childPointer } from '../../contract/field-path.ts';
import type { Tree } from './yaml-tree.ts';
import { checked, GIVE_UP, isKeyAt, plainStart, readKey, readQuoted, resolvePlain, restOfLine } from './yaml-scalars.ts';

interface CommonDoc extends Tree {
  value: Obj;
  pos: SourcePos;
}

// Characters that make a file leave the subset wherever they are: tabs (indentation rules), CR (line ends),
// control characters, BOM and the Unicode line breaks yaml treats specially.
const OUTSIDE = /[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\ufeff\u2028\u2029]/;

interface Line {
  /** Offset of the line's first character in the file. */
  start: number;
  /** 1-based line number. */
  no: number;
  /** Column (0-based) where the content starts: the indentation, or past a `- ` of a compact entry. */
  indent: number;
  text: string;
}

class Reader {
  readonly positions = new Map<string, SourcePos>();
  readonly keys = new Map<string, SourcePos>();
  private i = 0;

  constructor(
    private readonly file: string,
    private readonly lines: Line[],
  ) {}

  private at(line: Line, col: number): SourcePos {
    return { file: this.file, line: line.no, col: col + 1 };
  }

  /** The document's top-level mapping. */
  document(): CommonDoc {
    const first = this.lines[0]!;
    if (isSeqEntry(first)) throw GIVE_UP;
    const pos = this.at(first, first.indent);
    const value = this.map(first.indent, '', pos);
    if (this.i < this.lines.length) throw GIVE_UP;
    return { value, pos, positions: this.positions, keys: this.keys };
  }

  private block(indent: number, pointer: string): Json {
    const line = this.lines[this.i]!;
    const pos = this.at(line, line.indent);
    return isSeqEntry(line) ? this.seq(line.indent, pointer, pos) : this.map(indent, pointer, pos);
  }

  private map(indent: number, pointer: string, pos: SourcePos): Obj {
    this.positions.set(pointer, pos);
    const out: Obj = {};
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent < indent) break;
      if (line.indent > indent || isSeqEntry(line)) throw GIVE_UP;
      const { key, end } = readKey(line.text, line.indent);
      if (line.text[end] !== ':' || (end + 1 < line.text.length && line.text[end + 1] !== ' ')) throw GIVE_UP;
      if (Object.hasOwn(out, key)) throw GIVE_UP;
      const child = childPointer(pointer, key);
      const keyPos = this.at(line, line.indent);
      this.keys.set(child, keyPos);
      this.i++;
      let valueAt = end + 1;
      while (line.text[valueAt] === ' ') valueAt++;
      let value: Json;
      if (valueAt === line.text.length || line.text[valueAt] === '#') {
        const next = this.lines[this.i];
        if (next && next.indent > indent) value = this.block(next.indent, child);
        else if (next && next.indent === indent && isSeqEntry(next)) value = this.seq(indent, child, this.at(next, next.indent));
        else {
          this.positions.set(child, this.at(line, valueAt));
          value = null;
        }
      } else {
        value = this.inline(line, valueAt, child);
      }
      // A key named __proto__ must stay an ordinary field, not set the prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    }
    return out;
  }

  private seq(indent: number, pointer: string, pos: SourcePos): Json[] {
    this.positions.set(pointer, pos);
    const out: Json[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent < indent) break;
      if (line.indent > indent) throw GIVE_UP;
      if (!isSeqEntry(line)) break;
      const child = childPointer(pointer, out.length);
      let col = indent + 1;
      while (line.text[col] === ' ') col++;
      if (col === line.text.length || line.text[col] === '#' || col === indent + 1) throw GIVE_UP;
      if (line.text[col] === '-' && (col + 1 === line.text.length || line.text[col + 1] === ' ')) throw GIVE_UP;
      if (isKeyAt(line.text, col)) {
        // A compact mapping (`- key: value`): the entry's line now starts at the key, and its keys align there.
        line.indent = col;
        out.push(this.map(col, child, this.at(line, col)));
      } else {
        this.i++;
        out.push(this.inline(line, col, child));
      }
    }
    return out;
  }

  /** A value that starts on `line` at `col` and ends on it (a scalar or a flow collection); the line is consumed. */
  private inline(line: Line, col: number, pointer: string): Json {
    const text = line.text;
    const c = text[col]!;
    let value: Json;
    let end: number;
    if (c === '"' || c === "'") {
      ({ value, end } = readQuoted(text, col));
      this.positions.set(pointer, this.at(line, col));
    } else if (c === '[' || c === '{') {
      const flow = new FlowReader(this, line, text);
      value = flow.value(col, pointer);
      end = flow.pos;
    } else {
      if (!plainStart(text, col)) throw GIVE_UP;
      const hash = text.indexOf(' #', col);
      end = hash < 0 ? text.length : hash;
      const raw = text.slice(col, end).trimEnd();
      if (raw.endsWith(':') || raw.includes(': ')) throw GIVE_UP;
      const pos = this.at(line, col);
      this.positions.set(pointer, pos);
      value = checked(resolvePlain(raw));
      return value;
    }
    restOfLine(text, end);
    return value;
  }

  record(pointer: string, line: Line, col: number, key?: boolean): void {
    (key ? this.keys : this.positions).set(pointer, this.at(line, col));
  }
}

/** One-line flow collections (`[a, "b"]`, `{team: web, tier: 1}`), nested as deep as they go on the line. */
class FlowReader {
  pos = 0;
  constructor(
    private readonly reader: Reader,
    private readonly line: Line,
    private readonly text: string,
  ) {}

  private spaces(): void {
    while (this.text[this.pos] === ' ') this.pos++;
  }

  value(col: number, pointer: string): Json {
    this.pos = col;
    const c = this.text[col];
    this.reader.record(pointer, this.line, col);
    if (c === '"' || c === "'") {
      const { value, end } = readQuoted(this.text, col);
      this.pos = end;
      return value;
    }
    if (c === '[') return this.items(pointer);
    if (c === '{') return this.entries(pointer);
    if (!plainStart(this.text, col, true)) throw GIVE_UP;
    const m = /^[^,[\]{}#:]+/.exec(this.text.slice(col));
    if (!m) throw GIVE_UP;
    const raw = m[0].trimEnd();
    this.pos = col + m[0].length;
    return checked(resolvePlain(raw));
  }

  private items(pointer: string): Json[] {
    const out: Json[] = [];
    this.pos++;
    this.spaces();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(this.pos, childPointer(pointer, out.length)));
      this.spaces();
      const c = this.text[this.pos++];
      if (c === ']') return out;
      if (c !== ',') throw GIVE_UP;
      this.spaces();
      if (this.text[this.pos] === ']' || this.text[this.pos] === ',') throw GIVE_UP;
    }
  }

  private entries(pointer: string): Obj {
    const out: Obj = {};
    this.pos++;
    this.spaces();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      const keyAt = this.pos;
      const { key, end } = readKey(this.text, keyAt);
      if (this.text[end] !== ':' || this.text[end + 1] !== ' ' || Object.hasOwn(out, key) || key === '__proto__') throw GIVE_UP;
      const child = childPointer(pointer, key);
      this.reader.record(child, this.line, keyAt, true);
      this.pos = end + 1;
      this.spaces();
      const c = this.text[this.pos];
      if (c === undefined || c === ',' || c === '}' || c === '#') throw GIVE_UP;
      out[key] = this.value(this.pos, child);
      this.spaces();
      const sep = this.text[this.pos++];
      if (sep === '}') return out;
      if (sep !== ',') throw GIVE_UP;
      this.spaces();
      if (this.text[this.pos] === '}' || this.text[this.pos] === ',') throw GIVE_UP;
    }
  }
}

function isSeqEntry(line: Line): boolean {
  const t = line.text;
  return t[line.indent] === '-' && (line.indent + 1 === t.length || t[line.indent + 1] === ' ');
}

/** The lines of each document of a file (content lines only: blank and comment-only lines are dropped). */
function splitDocuments(text: string): Line[][] {
  const docs: Line[][] = [[]];
  let start = 0;
  for (let no = 1; start <= text.length; no++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    let indent = 0;
    while (line[indent] === ' ') indent++;
    if (indent === 0 && (line.startsWith('---') || line.startsWith('...') || line.startsWith('%'))) {
      if (!/^---\s*$/.test(line)) throw GIVE_UP;
      docs.push([]);
    } else if (indent < line.length && line[indent] !== '#') {
      docs[docs.length - 1]!.push({ start, no, indent, text: line });
    }
    start = end + 1;
  }
  return docs;
}

/**
 * A file's non-empty documents, each a mapping with its positions; undefined when anything in the file is
 * outside the common subset (read it with yaml then).
 */
export function parseCommonYaml(text: string, file: string): CommonDoc[] | undefined {
  if (OUTSIDE.test(text)) return undefined;
  try {
    const out: CommonDoc[] = [];
    for (const lines of splitDocuments(text)) {
      if (lines.length > 0) out.push(new Reader(file, lines).document());
    }
    return out;
  } catch (err) {
    if (err === GIVE_UP) return undefined;
    throw err;
  }
}
