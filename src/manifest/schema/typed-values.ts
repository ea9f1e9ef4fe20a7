// The published schemas as editors use them in environments: every value of a document may be `{var: NAME}` and
// every string value `{template: "..."}`, so a document of a base validates as written, and everything else in
// it is still checked; and `Patch` documents have a schema whose `set` is checked against the fields of the kind
// its target names. edgeops itself validates documents once their variables are resolved, against the kind
// schemas as they are: these forms exist only in the published copies (scripts/write-schemas.ts).
import { isObj } from '../../contract/json.ts';
import { KINDS } from '../../kinds/index.ts';
import { VAR_NAME_PATTERN } from '../environment/var-types.ts';
import { NAME_PATTERN, type Schema } from './parts.ts';

const TYPED_DEFINITIONS: Schema = {
  var: {
    title: 'variable',
    type: 'object',
    description: 'The whole value of a variable of the stack\'s environment: declared with a type in the base\'s edgeops.yaml, set in the stack\'s.',
    properties: { var: { type: 'string', pattern: VAR_NAME_PATTERN, description: 'The variable\'s name.' } },
    required: ['var'],
    additionalProperties: false,
  },
  template: {
    title: 'template',
    type: 'object',
    description: 'A string built from variables: "api.${domain}:443" (scalars only; "$${" writes a literal "${").',
    properties: { template: { type: 'string', description: 'The text, with ${NAME} for each variable.' } },
    required: ['template'],
    additionalProperties: false,
  },
};

const VAR_REF = { $ref: '#/definitions/var' };
const TEMPLATE_REF = { $ref: '#/definitions/template' };

/** The document's identity is written literally: never a variable. */
const LITERAL_FIELDS = new Set(['kind', 'name', 'moved_from']);

const acceptsString = (schema: Schema): boolean => schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

const mapValues = (map: unknown, f: (s: Schema) => Schema): unknown =>
  isObj(map) ? Object.fromEntries(Object.entries(map).map(([k, v]) => [k, isObj(v) ? f(v as Schema) : v])) : map;

/** `schema` with the values below it (properties, items, map values, branches) taking typed values too. */
function inside(schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (isObj(schema.properties)) out.properties = mapValues(schema.properties, value);
  if (isObj(schema.patternProperties)) out.patternProperties = mapValues(schema.patternProperties, value);
  if (isObj(schema.additionalProperties)) out.additionalProperties = value(schema.additionalProperties as Schema);
  if (isObj(schema.items)) out.items = value(schema.items as Schema);
  for (const key of ['then', 'else'] as const) if (isObj(schema[key])) out[key] = inside(schema[key] as Schema);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) out[key] = (schema[key] as unknown[]).map((s) => (isObj(s) ? inside(s as Schema) : s));
  }
  return out;
}

/** A value's schema that also takes `{var}` (and `{template}` where a string goes); its description stays on top. */
function value(schema: Schema): Schema {
  const typed = [inside(schema), VAR_REF, ...(acceptsString(schema) ? [TEMPLATE_REF] : [])];
  return { ...(typeof schema.description === 'string' ? { description: schema.description } : {}), anyOf: typed };
}

/** A kind's schema as published for environments: `{var}` in every value position, `{template}` in string ones. */
export function withTypedValues(schema: Schema): Schema {
  const properties = isObj(schema.properties) ? schema.properties : {};
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, LITERAL_FIELDS.has(key) || !isObj(s) ? s : value(s as Schema)])),
    definitions: { ...(isObj(schema.definitions) ? schema.definitions : {}), ...TYPED_DEFINITIONS },
  };
}

/** The schema of `kind: Patch`: its target, and `set` checked against the fields of the target's kind. */
export function patchSchema(kindSchemas: ReadonlyMap<string, Schema>): Schema {
  const kinds = KINDS.map((k) => k.kind);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'edgeops Patch',
    description: 'What one environment changes in a document it shares with others through a base. In a stack\'s directory, applied in file order after the bases\' and the stack\'s own documents.',
    type: 'object',
    required: ['kind', 'target'],
    properties: {
      kind: { const: 'Patch', description: 'Always Patch.' },
      target: {
        type: 'string',
        pattern: `^(${kinds.join('|')})/${NAME_PATTERN.slice(1)}`,
        description: 'The document to change, as Kind/name: defined in a base of this stack, or in the stack itself.',
      },
      set: {
        type: 'object',
        description: 'A JSON merge patch (RFC 7386) of the document\'s fields: mappings merge, lists are replaced whole, null removes a field. kind and name cannot change.',
      },
      remove: { const: true, description: 'This environment does not have the document.' },
    },
    additionalProperties: false,
    allOf: kinds.map((kind) => {
      const fields = (kindSchemas.get(kind)?.properties ?? {}) as Record<string, unknown>;
      const set = Object.fromEntries(Object.keys(fields).filter((f) => f !== 'kind' && f !== 'name').map((f) => [f, { anyOf: [{ $ref: `${kind}.schema.json#/properties/${f}` }, { type: 'null' }] }]));
      return {
        if: { type: 'object', properties: { target: { type: 'string', pattern: `^${kind}/` } }, required: ['target'] },
        then: { properties: { set: { type: 'object', properties: set, additionalProperties: false } } },
      };
    }),
  };
}

/** The union schema (any document) with Patch documents among the kinds. */
export function unionWithPatch(union: Schema): Schema {
  const properties = union.properties as { kind: { enum: string[] } };
  return {
    ...union,
    properties: { ...properties, kind: { ...properties.kind, enum: [...properties.kind.enum, 'Patch'] } },
    // A Patch has no name: it names its document with target.
    required: undefined,
    if: { type: 'object', properties: { kind: { const: 'Patch' } }, required: ['kind'] },
    then: { required: ['kind', 'target'] },
    else: { required: ['kind', 'name'] },
    allOf: [...(union.allOf as Schema[]), {
      if: { type: 'object', properties: { kind: { const: 'Patch' } }, required: ['kind'] },
      then: { $ref: 'Patch.schema.json' },
    }],
  };
}
