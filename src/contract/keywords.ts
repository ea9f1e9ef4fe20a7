// The contract's custom JSON Schema keywords (see schema.ts), as ajv runs them: each failure carries a
// ValueProblem in params.problem, and problems about one item or key name that item's path, so the message
// can say where (hostports[2], headers.X-A).
import type { Ajv, ErrorObject, SchemaValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import { quoteValue } from './rule-error.ts';
import { headerNameProblem, RULES } from './rules.ts';
import type { BodySchema, ContractCode, Distinct, RuleName, ValueProblem } from './schema.ts';
import { hostportKey, hostportProblem } from './values.ts';

type Found = ValueProblem & { where?: string };
type Fn = SchemaValidateFunction & { errors?: Partial<ErrorObject>[] };

/** A JSON pointer segment (RFC 6901). */
export function pointerSegment(key: string | number): string {
  return `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function fail(fn: Fn, keyword: string, problem: Found, instancePath?: string): false {
  fn.errors = [{ keyword, params: { problem }, ...(instancePath === undefined ? {} : { instancePath }) }];
  return false;
}

function distinctKey(by: Distinct['by'], value: string): string | undefined {
  if (by === 'exact') return value;
  if (by === 'casefold') return value.toLowerCase();
  // An invalid hostport has no key; its own rule reports it.
  return hostportProblem(value) ? undefined : hostportKey(value);
}

const rule: Fn = function rule(name: RuleName, data: unknown) {
  const found = RULES[name](data);
  return found ? fail(rule, 'rule', found) : true;
};

const distinct: Fn = function distinct(spec: Distinct, data: unknown[], _parent?: BodySchema, cxt?: DataValidationCxt) {
  const seen = new Set<string>();
  for (const [i, item] of data.entries()) {
    const value = spec.property === undefined ? item : (item as Record<string, unknown> | null)?.[spec.property];
    if (typeof value !== 'string') continue;
    const key = distinctKey(spec.by, value);
    if (key === undefined) continue;
    if (seen.has(key)) {
      const at = pointerSegment(i) + (spec.property === undefined ? '' : pointerSegment(spec.property));
      const how = spec.by === 'casefold' ? ' (names ignore case)' : '';
      return fail(distinct, 'distinct', { code: spec.code, message: `${quoteValue(value)} is listed twice${how}` }, `${cxt?.instancePath ?? ''}${at}`);
    }
    seen.add(key);
  }
  return true;
};

const mapKeys: Fn = function mapKeys(spec: 'nonempty' | 'header_name', data: Record<string, unknown>, _parent?: BodySchema, cxt?: DataValidationCxt) {
  const base = cxt?.instancePath ?? '';
  const seen = new Set<string>();
  for (const key of Object.keys(data)) {
    if (spec !== 'header_name') {
      if (key === '') return fail(mapKeys, 'mapKeys', { code: 'ERR_MAP_KEY_INVALID', message: 'keys must not be empty' });
      continue;
    }
    const bad = headerNameProblem(key);
    if (bad) return fail(mapKeys, 'mapKeys', bad, base + pointerSegment(key));
    if (seen.has(key.toLowerCase())) {
      return fail(mapKeys, 'mapKeys', { code: 'ERR_HEADER_DUPLICATE', message: `${quoteValue(key)} given twice (names ignore case)` }, base + pointerSegment(key));
    }
    seen.add(key.toLowerCase());
  }
  return true;
};

const refused: Fn = function refused(message: string, _data: unknown, parent?: BodySchema) {
  return fail(refused, 'refused', { code: (parent?.errorCode ?? 'ERR_FIELD_INVALID') as ContractCode, message });
};

/** Adds the contract's keywords to an ajv instance. */
export function addContractKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({ keyword: 'errorCode', schemaType: 'string' });
  ajv.addKeyword({
    keyword: 'maxBytes', type: 'string', schemaType: 'number', errors: false,
    validate: (max: number, data: string) => Buffer.byteLength(data, 'utf8') <= max,
  });
  ajv.addKeyword({ keyword: 'rule', schemaType: 'string', errors: true, validate: rule });
  ajv.addKeyword({ keyword: 'distinct', type: 'array', schemaType: 'object', errors: true, validate: distinct });
  ajv.addKeyword({ keyword: 'mapKeys', type: 'object', schemaType: 'string', errors: true, validate: mapKeys });
  ajv.addKeyword({ keyword: 'refused', schemaType: 'string', errors: true, validate: refused });
  return ajv;
}
