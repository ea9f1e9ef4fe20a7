// Checking a request body against its contract schema, with the service's error codes and wording: the first
// problem in the order of the body (a field's own problems before those of the fields after it; a missing
// required field after every problem of the object that lacks it), as data (its pointer and reason) and as the
// service's message, `path: what is wrong`. The validators
// come from body-compile.ts (compiled on first use, or precompiled by the build). JSON null stands for an
// absent field in every fixed-shape object, so it is dropped before the check (withoutNulls) and a required
// field sent as null is missing.
import type { ErrorObject } from 'ajv';
import { compileBody } from './body-compile.ts';
import { withContext } from './error-context.ts';
import { childPointer, showPath, splitPointer } from './field-path.ts';
import { isObj } from './json.ts';
import type { KeywordProblem } from './keyword-checks.ts';
import { quoteValue } from './rule-error.ts';
import type { ModuleContract } from './kind.ts';
import type { BodySchema, ContractCode, LocatedProblem } from './schema.ts';

/**
 * `value` without the null fields of its fixed-shape objects. Maps and free-form values keep theirs, and so does
 * an unknown field: it is refused whatever its value. What holds no such null is returned as it is, not copied:
 * most bodies have none, and a plan checks every body of every document.
 */
export function withoutNulls(value: unknown, schema: BodySchema): unknown {
  if (Array.isArray(value)) {
    if (!schema.items) return value;
    const items = value.map((v) => withoutNulls(v, schema.items!));
    return items.some((v, i) => v !== value[i]) ? items : value;
  }
  if (!isObj(value) || !schema.properties) return value;
  const props = schema.properties;
  // Copied from the first field that changes on; until then nothing is allocated (not even a callback: this runs
  // for every object of every body a plan checks).
  let entries: [string, unknown][] | undefined;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = value[k];
    const known = Object.hasOwn(props, k);
    const dropped = known && v === null;
    const kept = known && !dropped ? withoutNulls(v, props[k]!) : v;
    if (!entries && (dropped || kept !== v)) entries = keys.slice(0, i).map((p): [string, unknown] => [p, value[p]]);
    if (entries && !dropped) entries.push([k, kept]);
  }
  // fromEntries, not assignment: a key named "__proto__" stays an own field (and is refused as unknown).
  return entries ? Object.fromEntries(entries) : value;
}

/** The body checked, and the field it is sent as in messages ('' for a request body, a module's name for its PUT). */
interface Scope {
  base: string;
  root: unknown;
}

/** A problem at `pointer` in the scope's body; the service's message is its path, then `reason`. */
function locate(scope: Scope, code: ContractCode, pointer: string, reason: string, message?: string): LocatedProblem {
  return { code, pointer, reason, message: message ?? `${pathIn(scope, pointer)}: ${reason}` };
}

/** `pointer` in the body as messages show it, below the scope's base. */
function pathIn(scope: Scope, pointer: string): string {
  return scope.base === '' ? showPath(pointer, scope.root) : showPath(childPointer('', scope.base) + pointer, { [scope.base]: scope.root });
}


/**
 * Where `pointer` is in document order, as the index of each step among its siblings: comparing two of these
 * orders values as the body lists them. Only the pointer's own path is walked, so a deeply nested body costs
 * nothing here.
 */
function documentPosition(root: unknown, pointer: string): number[] {
  const out: number[] = [];
  let value = root;
  for (const segment of splitPointer(pointer)) {
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

/** A custom keyword's problem, if `e` is one of theirs. */
const keywordProblem = (e: ErrorObject): KeywordProblem | undefined => e.params.problem as KeywordProblem | undefined;

/** Where `e` is: its value, or the item or key of that value its keyword's problem names. */
const errorPointer = (e: ErrorObject): string => e.instancePath + (keywordProblem(e)?.at ?? '');

/** The problem one ajv error stands for. */
function describe(e: ErrorObject, scope: Scope): LocatedProblem {
  const parent = (e.parentSchema ?? {}) as BodySchema;
  const pointer = errorPointer(e);
  const code: ContractCode = parent.errorCode ?? 'ERR_FIELD_INVALID';
  switch (e.keyword) {
    case 'additionalProperties': {
      const field = childPointer(e.instancePath, String(e.params.additionalProperty));
      const allowed = Object.entries(parent.properties ?? {}).filter(([, s]) => s.refused === undefined).map(([k]) => k);
      return locate(scope, 'ERR_UNKNOWN_FIELD', field, 'unknown field',
        `unknown field ${quoteValue(pathIn(scope, field))}; allowed: ${allowed.join(', ') || 'none'}`);
    }
    case 'required': {
      const missing = String(e.params.missingProperty);
      return locate(scope, 'ERR_FIELD_REQUIRED', e.instancePath, `missing field ${quoteValue(missing)}`,
        `${pathIn(scope, childPointer(e.instancePath, missing))}: required`);
    }
    case 'type':
      if (typeof e.data === 'number' && !Number.isFinite(e.data)) return locate(scope, code, pointer, 'number out of range (not finite)');
      return locate(scope, 'ERR_FIELD_TYPE', pointer, `expected ${expected(parent)}, got ${typeName(e.data)}`);
    case 'minLength':
    case 'minItems':
      return locate(scope, code, pointer, 'must not be empty');
    case 'maxItems':
      return locate(scope, code, pointer, `at most ${parent.maxItems} items`);
    case 'maxBytes':
      return locate(scope, code, pointer, `longer than ${parent.maxBytes} bytes`);
    case 'enum':
      return locate(scope, code, pointer, `must be one of ${(parent.enum ?? []).join(', ')}, got ${typeof e.data === 'string' ? quoteValue(e.data) : typeName(e.data)}`);
    case 'minimum':
    case 'maximum':
      return locate(scope, code, pointer, `must be from ${parent.minimum} to ${parent.maximum}, got ${typeof e.data === 'number' ? e.data : typeName(e.data)}`);
    default: {
      const found = keywordProblem(e);
      if (found) return locate(scope, found.code, pointer, found.message);
      return locate(scope, code, pointer, e.message ?? 'is invalid');
    }
  }
}

/**
 * The first problem of `body` (already without nulls) against `schema`, or undefined when it holds. `base` is
 * the path of the body in messages: '' for a request body, 'traffic_policy' for a module PUT.
 */
export function bodyProblem(schema: BodySchema, body: unknown, base = ''): LocatedProblem | undefined {
  const validate = compileBody(schema);
  if (validate(body)) return undefined;
  // A missing required field comes after everything inside its object; at one place, its type comes first.
  const position = (e: ErrorObject): number[] => {
    if (e.keyword === 'required') return [...documentPosition(body, e.instancePath), Number.MAX_SAFE_INTEGER];
    if (e.keyword === 'additionalProperties') return documentPosition(body, childPointer(e.instancePath, String(e.params.additionalProperty)));
    return documentPosition(body, errorPointer(e));
  };
  const ranked = withContext(validate.errors ?? [], schema, body).map((e) => ({ e, at: position(e), rank: KEYWORD_RANK[e.keyword] ?? 2 }));
  ranked.sort((a, b) => comparePositions(a.at, b.at) || a.rank - b.rank);
  return describe(ranked[0]!.e, { base, root: body });
}

/** A module's body (a PUT, or a field of a create or PATCH; already without nulls): its schema, then its own rules. */
export function moduleProblem(module: ModuleContract, value: unknown, path = module.name): LocatedProblem | undefined {
  return bodyProblem(module.schema, value, path) ?? moduleRuleProblem(module, value, { base: path, root: value }, '');
}

/** The module's own rules on `value`, which is at `at` in the scope's body. */
function moduleRuleProblem(module: ModuleContract, value: unknown, scope: Scope, at: string): LocatedProblem | undefined {
  const found = isObj(value) ? module.check?.(value) : undefined;
  return found && locate(scope, found.code, childPointer(at, found.field), found.message);
}

/** A create or PATCH body of a kind with `modules` (already without nulls): its schema, then each module's rules. */
export function requestProblem(schema: BodySchema, modules: readonly ModuleContract[], value: unknown): LocatedProblem | undefined {
  const problem = bodyProblem(schema, value);
  if (problem || !isObj(value)) return problem;
  for (const module of modules) {
    const found = moduleRuleProblem(module, value[module.name], { base: '', root: value }, childPointer('', module.name));
    if (found) return found;
  }
  return undefined;
}
