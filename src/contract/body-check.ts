// Checking a request body against its contract schema, with the service's error codes and wording: the first
// problem in the order of the body (a field's own problems before those of the fields after it; a missing
// required field after every problem of the object that lacks it), as `path: what is wrong`. Each schema is
// compiled once, on first use. JSON null stands for an absent field in every fixed-shape object, so it is
// dropped before the check (withoutNulls) and a required field sent as null is missing.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isObj } from './json.ts';
import { addContractKeywords } from './keywords.ts';
import { quoteValue } from './rule-error.ts';
import type { BodySchema, ContractCode, ValueProblem } from './schema.ts';

let ajv: Ajv | undefined;
const compiled = new WeakMap<BodySchema, ValidateFunction>();

/** The contract's ajv: every error (the first in body order is reported), strict numbers (no Infinity). */
export function contractAjv(): Ajv {
  return (ajv ??= addContractKeywords(new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, strictNumbers: true })));
}

export function compileBody(schema: BodySchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = contractAjv().compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}


/**
 * `value` without the null fields of its fixed-shape objects. Maps and free-form values keep theirs, and so does
 * an unknown field: it is refused whatever its value.
 */
export function withoutNulls(value: unknown, schema: BodySchema): unknown {
  if (Array.isArray(value)) return schema.items ? value.map((v) => withoutNulls(v, schema.items!)) : value;
  if (!isObj(value) || !schema.properties) return value;
  const props = schema.properties;
  // fromEntries, not assignment: a key named "__proto__" stays an own field (and is refused as unknown).
  return Object.fromEntries(Object.entries(value)
    .filter(([k, v]) => v !== null || !Object.hasOwn(props, k))
    .map(([k, v]) => [k, Object.hasOwn(props, k) ? withoutNulls(v, props[k]!) : v]));
}

/** 'backend.ip_policy_ids[2]' for '/backend/ip_policy_ids/2' in `root`, under `base`. */
function fieldPath(base: string, pointer: string, root: unknown): string {
  let path = base;
  let value: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = unescape(raw);
    if (Array.isArray(value)) {
      path = `${path}[${key}]`;
      value = value[Number(key)];
    } else {
      path = path ? `${path}.${key}` : key;
      value = isObj(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    }
  }
  return path;
}

const unescape = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Where `pointer` is in document order, as the index of each step among its siblings: comparing two of these
 * orders values as the body lists them. Only the pointer's own path is walked, so a deeply nested body costs
 * nothing here.
 */
function documentPosition(root: unknown, pointer: string): number[] {
  const out: number[] = [];
  let value = root;
  for (const segment of pointer.split('/').slice(1).map(unescape)) {
    if (Array.isArray(value)) {
      out.push(Number(segment));
      value = value[Number(segment)];
    } else if (isObj(value)) {
      out.push(Object.keys(value).indexOf(segment));
      value = Object.hasOwn(value, segment) ? value[segment] : undefined;
    } else break;
  }
  return out;
}

function comparePositions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

// At one place: a refused field, then its type, then its length, range or set, then the contract's rules.
const KEYWORD_RANK: Record<string, number> = { refused: 0, type: 1, additionalProperties: 1, rule: 3, mapKeys: 3, distinct: 3 };

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function expected(schema: BodySchema): string {
  const type = schema.type;
  if (Array.isArray(type)) return 'a list or an object';
  if (type === 'object') return schema.properties ? 'an object' : 'an object of strings';
  return { string: 'a string', integer: 'an integer', boolean: 'a boolean', array: 'a list' }[type ?? 'string'];
}

/** The problem one ajv error stands for; its message starts with the field's path. */
function describe(e: ErrorObject, base: string, root: unknown): ValueProblem {
  const parent = (e.parentSchema ?? {}) as BodySchema;
  const path = fieldPath(base, e.instancePath, root);
  const code: ContractCode = parent.errorCode ?? 'ERR_FIELD_INVALID';
  switch (e.keyword) {
    case 'additionalProperties': {
      const field = fieldPath(base, `${e.instancePath}/${escape(String(e.params.additionalProperty))}`, root);
      const allowed = Object.entries(parent.properties ?? {}).filter(([, s]) => s.refused === undefined).map(([k]) => k);
      return { code: 'ERR_UNKNOWN_FIELD', message: `unknown field ${quoteValue(field)}; allowed: ${allowed.join(', ') || 'none'}` };
    }
    case 'required':
      return { code: 'ERR_FIELD_REQUIRED', message: `${path ? `${path}.` : ''}${String(e.params.missingProperty)}: required` };
    case 'type':
      if (typeof e.data === 'number' && !Number.isFinite(e.data)) return { code, message: `${path}: number out of range (not finite)` };
      return { code: 'ERR_FIELD_TYPE', message: `${path}: expected ${expected(parent)}, got ${typeName(e.data)}` };
    case 'minLength':
    case 'minItems':
      return { code, message: `${path}: must not be empty` };
    case 'maxItems':
      return { code, message: `${path}: at most ${parent.maxItems} items` };
    case 'maxBytes':
      return { code, message: `${path}: longer than ${parent.maxBytes} bytes` };
    case 'enum':
      return { code, message: `${path}: must be one of ${(parent.enum ?? []).join(', ')}, got ${typeof e.data === 'string' ? quoteValue(e.data) : typeName(e.data)}` };
    case 'minimum':
    case 'maximum':
      return { code, message: `${path}: must be from ${parent.minimum} to ${parent.maximum}, got ${typeof e.data === 'number' ? e.data : typeName(e.data)}` };
    default: {
      const found = e.params.problem as (ValueProblem & { where?: string }) | undefined;
      if (found) return { code: found.code, message: `${path}${found.where ?? ''}: ${found.message}` };
      return { code, message: `${path}: ${e.message ?? 'is invalid'}` };
    }
  }
}

/**
 * The first problem of `body` (already without nulls) against `schema`, or undefined when it holds. `base` is
 * the path of the body in messages: '' for a request body, 'traffic_policy' for a module PUT.
 */
export function bodyProblem(schema: BodySchema, body: unknown, base = ''): ValueProblem | undefined {
  const validate = compileBody(schema);
  if (validate(body)) return undefined;
  // A missing required field comes after everything inside its object; at one place, its type comes first.
  const position = (e: ErrorObject): number[] => {
    if (e.keyword === 'required') return [...documentPosition(body, e.instancePath), Number.MAX_SAFE_INTEGER];
    if (e.keyword === 'additionalProperties') return documentPosition(body, `${e.instancePath}/${escape(String(e.params.additionalProperty))}`);
    return documentPosition(body, e.instancePath);
  };
  const ranked = (validate.errors ?? []).map((e) => ({ e, at: position(e), rank: KEYWORD_RANK[e.keyword] ?? 2 }));
  ranked.sort((a, b) => comparePositions(a.at, b.at) || a.rank - b.rank);
  return describe(ranked[0]!.e, base, body);
}
