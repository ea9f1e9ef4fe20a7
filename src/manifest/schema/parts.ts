// Building blocks of the manifest schemas (schemas/*.schema.json are generated from these by
// scripts/write-schemas.ts). `errorMessage` is the message edgeops and editors show instead of the validator's own.

import { HEADER_NAME } from '../../contract/rules.ts';
import { DESCRIPTION_MAX_BYTES, METADATA_MAX_BYTES } from '../../contract/schema.ts';

export type Schema = { [key: string]: unknown };

export const NAME_PATTERN = '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$';
export { DESCRIPTION_MAX_BYTES, METADATA_MAX_BYTES };
/** The `#/definitions/...` entry that `{file}`/`{env}` secrets are declared with; the resolver looks for it. */
export const SECRET_REF = '#/definitions/secret';
export const ENV_VAR_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

const kindConst = (kind: string): Schema => ({ const: kind, description: `Always ${kind}.` });

export const name: Schema = {
  type: 'string',
  pattern: NAME_PATTERN,
  description:
    'Unique per kind; lower-case letters, digits and "-", at most 64 characters. Other documents refer to this resource by it.',
};

const OLD_NAME_PATTERN = `^(?:[A-Za-z]+/)?${NAME_PATTERN.slice(1)}`;

/** Renames: the resource keeps its live id and only its ownership marker is rewritten. */
export const movedFrom: Schema = {
  description:
    'The name (or names) this document had before: the live resource is kept and renamed, not deleted and created. ' +
    'Same kind only (old-name or Kind/old-name); harmless to leave in place after the move.',
  type: ['string', 'array'],
  pattern: OLD_NAME_PATTERN,
  items: { type: 'string', pattern: OLD_NAME_PATTERN, errorMessage: 'must be a name of this kind (old-name or Kind/old-name)' },
  minItems: 1,
  uniqueItems: true,
  errorMessage: { type: 'must be a name or a list of names', pattern: 'must be a name of this kind (old-name or Kind/old-name)' },
};

export const metadata: Schema = {
  type: 'object',
  description:
    `Any mapping. Stored as JSON together with edgeops' ownership marker (the reserved key "edgeops"); ` +
    `at most ${METADATA_MAX_BYTES} bytes in all.`,
  errorMessage: { type: 'must be a mapping (edgeops stores it as JSON)' },
};

/** A reference field: the name of a managed resource or a literal id (the kinds' `refs` say which kinds). */
export const ref: Schema = {
  type: 'string',
  minLength: 1,
  description: 'The name of a resource in these manifests, or a literal id.',
};

const secretDefinition: Schema = {
  description: 'A string, or {file: path} (relative to this manifest) or {env: VARIABLE} to read it from elsewhere.',
  oneOf: [
    { type: 'string' },
    {
      type: 'object',
      properties: { file: { type: 'string', minLength: 1 } },
      required: ['file'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { env: { type: 'string', pattern: ENV_VAR_PATTERN } },
      required: ['env'],
      additionalProperties: false,
    },
  ],
  errorMessage: 'must be a string, {file: path} or {env: VARIABLE}',
};

export const secret = (text: string): Schema => ({ $ref: SECRET_REF, description: text });

/** HTTP header names: RFC 9110 token characters (the contract's rule). */
export const HEADER_NAME_PATTERN = HEADER_NAME.source;

/**
 * The same field, also accepting null for "unset": the spec returns unset optional fields as null and the
 * service takes a null like an absent field, so a manifest may say so too. The resolver drops these nulls
 * (schema.ts finds the fields), so the kinds never see one.
 */
export function unsettable(schema: Schema): Schema {
  const types = ([] as unknown[]).concat(schema.type);
  const out: Schema = { ...schema, type: [...types, 'null'] };
  if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
  return out;
}

/** Every JSON type but null: `not` this is "must be null or absent". */
export const NOT_NULL: Schema = { type: ['boolean', 'number', 'string', 'array', 'object'] };

export function object(properties: Schema, required: string[] = [], extra: Schema = {}): Schema {
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false, ...extra };
}

/** One kind's document schema: kind, name, then the fields of the service's create request. */
export function kindSchema(kind: string, text: string, fields: Schema, required: string[], extra: Schema = {}): Schema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `edgeops ${kind}`,
    description: text,
    ...object({ kind: kindConst(kind), name, moved_from: movedFrom, ...fields }, ['kind', 'name', ...required], extra),
    definitions: { secret: secretDefinition },
  };
}
