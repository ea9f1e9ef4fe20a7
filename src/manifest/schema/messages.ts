// ajv errors -> positioned, human messages (`hostports/0: "x" is not host:port`, `unknown field "foo"`).
// A schema's `errorMessage` (a string, or one per keyword) replaces the generic wording; a oneOf/anyOf with
// an errorMessage stands for all the errors of its branches.
import type { ErrorObject } from 'ajv';
import type { ManifestIssue, SourcePos } from '../../errors.ts';
import { VALUE_FORMATS } from '../../contract/values.ts';
import { isWithin, keyPos, type Located, valuePos } from '../pointer.ts';
import { childPointer } from '../../contract/field-path.ts';

type Err = ErrorObject & { propertyName?: string };
type Schema = Record<string, unknown>;

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  object: 'a mapping',
  array: 'a list',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

function override(e: Err): string | undefined {
  const m = (e.parentSchema as Schema | undefined)?.errorMessage;
  if (typeof m === 'string') return m;
  if (m && typeof m === 'object') {
    const byKeyword = (m as Record<string, unknown>)[e.keyword];
    if (typeof byKeyword === 'string') return byKeyword;
  }
  return undefined;
}

const isScalarOfWrongType = (data: unknown): boolean => typeof data === 'number' || typeof data === 'boolean';

/** A null that a field also takes means "unset": not worth listing among the values to write. */
const withoutNull = <T>(values: T[]): T[] => (values.length > 1 ? values.filter((v) => v !== null && v !== 'null') : values);

function typeMessage(e: Err): string {
  const types = withoutNull(([] as string[]).concat(e.params.type as string | string[]));
  const words = types.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
  const quoteHint = types.includes('string') && isScalarOfWrongType(e.data) ? ' (put it in quotes)' : '';
  return `must be ${words}${quoteHint}`;
}

function enumMessage(e: Err): string {
  const allowed = withoutNull(e.params.allowedValues as unknown[]);
  const list = allowed.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  const strings = allowed.filter((v): v is string => typeof v === 'string');
  if (isScalarOfWrongType(e.data) && strings.length) return `must be one of ${list} (put it in quotes)`;
  return `must be one of ${list}${typeof e.data === 'string' ? didYouMean(e.data, strings) : ''}`;
}

function rangeMessage(e: Err): string {
  const s = e.parentSchema as Schema;
  if (typeof s.minimum === 'number' && typeof s.maximum === 'number') return `must be between ${s.minimum} and ${s.maximum}`;
  return e.keyword === 'minimum' ? `must be at least ${e.params.limit}` : `must be at most ${e.params.limit}`;
}

function formatMessage(e: Err): string {
  const value = String(e.data);
  switch (e.params.format) {
    case 'hostport':
    case 'cidr':
      // The contract's rule words it, as the service does.
      return VALUE_FORMATS[e.params.format as 'cidr' | 'hostport'].problem(value)?.message ?? `"${value}" is not a valid ${e.params.format}`;
    case 'uri':
      return `"${value}" is not an http(s) URL`;
    default:
      return `"${value}" is not a valid ${e.params.format}`;
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function baseMessage(e: Err): string {
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return `missing field "${p.missingProperty}"`;
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const known = Object.keys(((e.parentSchema as Schema).properties as Schema | undefined) ?? {});
      return `unknown field "${key}"${didYouMean(key, known)}`;
    }
    case 'type':
      return typeMessage(e);
    case 'enum':
      return enumMessage(e);
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'format':
      return formatMessage(e);
    case 'pattern':
      return `"${String(e.data)}" does not match ${p.pattern}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${plural(p.limit, 'character')}`;
    case 'maxLength':
      return `must be at most ${plural(p.limit, 'character')}`;
    case 'minimum':
    case 'maximum':
      return rangeMessage(e);
    case 'minItems':
      return `must have at least ${plural(p.limit, 'item')}`;
    case 'maxItems':
      return `must have at most ${plural(p.limit, 'item')}`;
    case 'uniqueItems':
      return `items ${Math.min(p.i, p.j)} and ${Math.max(p.i, p.j)} are the same`;
    case 'minProperties':
      return 'must not be empty';
    case 'not':
    case 'false schema':
      return 'is not allowed';
    case 'oneOf':
    case 'anyOf':
      return 'does not match any allowed form';
    default:
      return e.message ?? 'is invalid';
  }
}

/**
 * Drops the errors another error already explains: branches of a oneOf with its own message, `if` and
 * propertyNames wrappers, anything inside a value that must not be set at all (not), and at one value: the type
 * error when an enum lists the allowed values, and value checks (format, pattern, ...) when the type is wrong.
 */
function relevant(errors: Err[]): Err[] {
  const collapsing = errors.filter((e) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && override(e) !== undefined);
  const at = (keyword: string): Set<string> =>
    new Set(errors.filter((e) => e.keyword === keyword && e.propertyName === undefined).map((e) => e.instancePath));
  const forbidden = at('not');
  const withEnum = at('enum');
  const withType = at('type');
  return errors.filter((e) => {
    if (e.keyword === 'if' || e.keyword === 'propertyNames') return false;
    if (e.propertyName === undefined) {
      const p = e.instancePath;
      if (e.keyword !== 'not' && [...forbidden].some((f) => isWithin(p, f))) return false;
      if (e.keyword === 'type' && withEnum.has(p)) return false;
      if (withType.has(p) && !['type', 'enum', 'not', 'oneOf', 'anyOf'].includes(e.keyword)) return false;
    }
    return !collapsing.some(
      (c) => c !== e && isWithin(e.instancePath, c.instancePath) && e.schemaPath.startsWith(`${c.schemaPath}/`),
    );
  });
}

/** The message for one error: the schema's own wording if it has one (after the value, for patterns). */
function wording(e: Err): string | undefined {
  const own = override(e);
  if (own !== undefined && e.keyword === 'pattern' && e.propertyName === undefined) return `"${String(e.data)}" ${own}`;
  return own;
}

function locate(e: Err, doc: Located): { pos: SourcePos; pointer: string; message: string } {
  const own = wording(e);
  if (e.propertyName !== undefined) {
    // An error about a key of a mapping (propertyNames): point at the key.
    const names = ((e.params.allowedValues as unknown[] | undefined) ?? []).filter((v): v is string => typeof v === 'string');
    const message = `"${e.propertyName}" ${own ?? baseMessage(e)}${e.keyword === 'enum' ? didYouMean(e.propertyName, names) : ''}`;
    return { pos: keyPos(doc, childPointer(e.instancePath, e.propertyName)), pointer: e.instancePath, message };
  }
  if (e.keyword === 'additionalProperties') {
    const pos = keyPos(doc, childPointer(e.instancePath, String(e.params.additionalProperty)));
    return { pos, pointer: e.instancePath, message: own ?? baseMessage(e) };
  }
  return { pos: valuePos(doc, e.instancePath), pointer: e.instancePath, message: own ?? baseMessage(e) };
}

/** Positioned issues for one document's ajv errors, without duplicates. */
export function issuesFromAjv(errors: readonly ErrorObject[], doc: Located, address?: string): ManifestIssue[] {
  const seen = new Set<string>();
  const issues: ManifestIssue[] = [];
  for (const e of relevant(errors as Err[])) {
    const { pos, pointer, message } = locate(e, doc);
    const key = `${pos.line}:${pos.col}:${pointer}:${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const located = pointer === '' ? { pos, message } : { pos, pointer, message };
    issues.push(address === undefined ? located : { ...located, address });
  }
  return issues;
}

// "Did you mean" for kinds, fields and names: the closest candidate by edit distance, if close enough to be
// a plausible typo (case differences count as nothing).
/** Edit distance counting a swap of neighbours as one edit ("wbe" is one typo away from "web"). */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/** How far a candidate may be from a word of this length to be a plausible typo of it. */
const typoLimit = (word: string): number => Math.max(1, Math.floor(word.length / 3));

function closest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  const limit = typoLimit(w);
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const score = distance(w, c.toLowerCase());
    if (score <= limit && score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

/** Up to `max` candidates close enough to `word` to be a typo of it, by the same measure as closest, closest first. */
export function closeMatches(word: string, candidates: Iterable<string>, max = 3): string[] {
  const w = word.toLowerCase();
  const limit = typoLimit(w);
  return [...candidates]
    .map((c) => ({ c, score: distance(w, c.toLowerCase()) }))
    .filter((m) => m.score <= limit)
    .sort((a, b) => a.score - b.score || (a.c < b.c ? -1 : 1))
    .slice(0, max)
    .map((m) => m.c);
}

/** ` (did you mean "x"?)` or the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const best = closest(word, candidates);
  return best === undefined ? '' : ` (did you mean "${best}"?)`;
}
