// Scalars and keys of the common subset of YAML (yaml-common.ts), one line at a time: quoted and plain scalars
// typed by yaml's own core-schema tags, mapping keys, and the rules for where a plain scalar may start. Any
// text these do not read exactly as yaml would throws GIVE_UP, and the file goes to yaml.
import { Document, isScalar } from 'yaml';
import type { Json } from '../../kinds/resource-kind.ts';
import { scalar } from './yaml-tree.ts';

/** Thrown inside the reader when the text leaves the subset; never escapes parseCommonYaml. */
export const GIVE_UP = Symbol('outside the common subset');

interface ScalarTag {
  default?: unknown;
  test?: RegExp;
  resolve(value: string, onError: (msg: string) => void, options: object): unknown;
}

/** yaml's core-schema tags that type a plain scalar by its text (null, bool, int, float), in yaml's order. */
const schema = new Document().schema;
const PLAIN_TAGS = (schema.tags as ScalarTag[]).filter((t) => t.default === true && t.test);
const TAG_OPTIONS = { intAsBigInt: false };

// The same few texts (keys, true, 443, us-east) come back in every document: each is typed once a run. Only
// short texts are kept, and only so many of them.
const typed = new Map<string, Json>();
const TYPED_MAX = 4096;
const TYPED_TEXT_MAX = 64;

export function resolvePlain(text: string): Json {
  const known = typed.get(text);
  if (known !== undefined) return known;
  const value = typePlain(text);
  if (text.length <= TYPED_TEXT_MAX && typed.size < TYPED_MAX) typed.set(text, value);
  return value;
}

function typePlain(text: string): Json {
  const tag = PLAIN_TAGS.find((t) => t.test!.test(text));
  if (!tag) return text;
  const resolved = tag.resolve(text, () => {
    throw GIVE_UP;
  }, TAG_OPTIONS);
  // Some tags answer with a Scalar node (floats keep their written precision on it).
  const value = isScalar(resolved) ? resolved.value : resolved;
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return value;
  throw GIVE_UP;
}

/** A plain mapping key: a name (anything else, such as `1:` or `a b:`, is left to yaml). */
const KEY = /[A-Za-z_][A-Za-z0-9_./~-]*/y;
const MAX_KEY = 1000;

/** The plain key at `col`, matched in place (no copy of the line); longer than MAX_KEY + 1 counts as that long. */
function plainKeyAt(text: string, col: number): string | undefined {
  KEY.lastIndex = col;
  const m = KEY.exec(text);
  return m === null ? undefined : m[0].length > MAX_KEY + 1 ? m[0].slice(0, MAX_KEY + 1) : m[0];
}

export function isKeyAt(text: string, col: number): boolean {
  const c = text[col];
  if (c === '"' || c === "'") {
    const end = quotedEnd(text, col);
    return end > 0 && text[end] === ':';
  }
  const key = plainKeyAt(text, col);
  return key !== undefined && text[col + key.length] === ':' && (col + key.length + 1 === text.length || text[col + key.length + 1] === ' ');
}

/** A mapping key at `col`: plain (a name) or quoted; it must be a string. */
export function readKey(text: string, col: number): { key: string; end: number } {
  const c = text[col];
  if (c === '"' || c === "'") {
    const { value, end } = readQuoted(text, col);
    if (typeof value !== 'string' || end - col > MAX_KEY) throw GIVE_UP;
    return { key: value, end };
  }
  const plain = plainKeyAt(text, col);
  if (plain === undefined || plain.length > MAX_KEY) throw GIVE_UP;
  const key = resolvePlain(plain);
  if (typeof key !== 'string') throw GIVE_UP;
  return { key, end: col + plain.length };
}

/** Index just past the closing quote, or -1 when the scalar does not end on this line. */
function quotedEnd(text: string, col: number): number {
  const q = text[col];
  for (let i = col + 1; i < text.length; i++) {
    const c = text[i];
    if (q === '"' && c === '\\') i++;
    else if (c === q) {
      if (q === "'" && text[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return -1;
}

export function readQuoted(text: string, col: number): { value: string; end: number } {
  const end = quotedEnd(text, col);
  if (end < 0) throw GIVE_UP;
  const body = text.slice(col + 1, end - 1);
  if (text[col] === "'") return { value: body.replace(/''/g, "'"), end };
  if (!body.includes('\\')) return { value: body, end };
  // Escapes JSON also has mean the same in YAML; any other one (\x41, \e, \N...) is left to yaml.
  try {
    return { value: JSON.parse(text.slice(col, end)) as string, end };
  } catch {
    throw GIVE_UP;
  }
}

/** Whether a plain scalar may start at `col` (YAML's indicators may not start one; `-5` may). */
export function plainStart(text: string, col: number, inFlow = false): boolean {
  const c = text[col]!;
  if (c === '-') {
    const next = text[col + 1];
    return next !== undefined && next !== ' ' && !(inFlow && ',[]{}'.includes(next));
  }
  return !'?:,[]{}#&*!|>\'"%@`'.includes(c) && c !== ' ';
}

/** After a value only spaces and a comment may follow on its line. */
export function restOfLine(text: string, end: number): void {
  let i = end;
  while (text[i] === ' ') i++;
  if (i === text.length) return;
  if (text[i] === '#' && i > end) return;
  throw GIVE_UP;
}

const NOWHERE = { file: '', line: 0, col: 0 };

export function checked(value: Json): Json {
  try {
    return scalar(value, NOWHERE);
  } catch {
    throw GIVE_UP;
  }
}
