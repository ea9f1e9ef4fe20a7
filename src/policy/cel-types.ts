// What `object` is to the CEL type checker: each kind's fields from its JSON Schema, so a misspelled field is an
// error at `validate`. And the values handed to an evaluation in the same shape: integers as CEL ints (bigint),
// unset (null) fields left out (CEL's has() then answers), timestamps as Dates.
import type { Schema } from '../manifest/schema/parts.ts';
import { SECRET_REF } from '../manifest/schema/parts.ts';

/** A cel-js schema declaration: a type name, or a nested object's fields. */
export type CelDecl = string | { [field: string]: CelDecl };

const TIMESTAMP = 'google.protobuf.Timestamp';

/** What the service derives from a certificate field (`*_pem` that is no secret): what policies read of it. */
const CERTIFICATE_FIELDS: Record<string, CelDecl> = {
  not_before: TIMESTAMP,
  not_after: TIMESTAMP,
  subject_common_name: 'string',
  issuer: 'string',
  subject_alternative_names: { dns_names: 'list<string>', ips: 'list<string>' },
};

const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);

/** One schema node's CEL type. Unions other than "T or null" are dyn: the checker cannot narrow them. */
function declOf(s: Schema): CelDecl {
  if (s.$ref === SECRET_REF) return 'string';
  const types = typesOf(s).filter((t) => t !== 'null');
  if (types.length !== 1) return 'dyn';
  switch (types[0]) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return 'int';
    case 'array': {
      const item = s.items && typeof s.items === 'object' && !Array.isArray(s.items) ? declOf(s.items as Schema) : 'dyn';
      return typeof item === 'string' ? `list<${item}>` : 'list<dyn>';
    }
    case 'object': {
      const props = s.properties as Record<string, Schema> | undefined;
      if (!props || Object.keys(props).length === 0) return 'map<string, dyn>';
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, declOf(v)]));
    }
    default:
      return 'dyn';
  }
}

/** A kind's `object` type: its schema's fields (not `kind`, `moved_from`), plus the certificate fields it derives. */
export function objectDecl(schema: Schema, secrets: readonly string[]): { [field: string]: CelDecl } {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const out: { [field: string]: CelDecl } = {};
  for (const [field, s] of Object.entries(props)) if (field !== 'kind' && field !== 'moved_from') out[field] = declOf(s);
  if (Object.keys(props).some((f) => f.endsWith('_pem') && !secrets.includes(f))) Object.assign(out, CERTIFICATE_FIELDS);
  return out;
}

const isTimestampField = (decl: CelDecl | undefined): boolean => decl === TIMESTAMP;

/** A JSON value as CEL input, following `decl` where it is known: ints as bigint, nulls left out, timestamps as Dates. */
export function toCel(value: unknown, decl?: CelDecl): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) && decl !== 'double' ? BigInt(value) : value;
  if (typeof value === 'string' && isTimestampField(decl)) return new Date(value);
  if (value instanceof Date || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => toCel(v));
  const fields = decl !== undefined && typeof decl === 'object' ? decl : undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    out[k] = toCel(v, fields?.[k]);
  }
  return out;
}
