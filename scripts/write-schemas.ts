// schemas/*.json are generated from the schema sources so they cannot drift from what edgeops validates with
// (test/manifest/schemas.test.ts fails when they differ). Regenerate: npm run schemas.
// The published copies are for editors: each has a stable `$id`, and the `errorMessage` objects are left out.
// Those are ajv-errors' (the CLI's own messages keep them); a generic JSON Schema validator such as
// yaml-language-server would show such an object itself as the diagnostic.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kindSchemas } from '../src/manifest/schema/kinds.ts';
import type { Schema } from '../src/manifest/schema/parts.ts';
import { projectSchema, unionSchema } from '../src/manifest/schema/project.ts';
import { patchSchema, unionWithPatch, withTypedValues } from '../src/manifest/schema/typed-values.ts';
import { policySchemas } from '../src/policy/schemas.ts';

export const SCHEMA_DIR = resolve(import.meta.dirname, '../schemas');

/** Where the schemas are published; `$id` is this plus the file name, and the relative `$ref`s resolve beside it. */
export const SCHEMA_ID_BASE = 'https://edgeops.dev/schemas/v1/';

/** A copy without `errorMessage` keys, at any depth (a property *named* errorMessage is kept). */
function withoutErrorMessages(value: unknown, inProperties = false): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutErrorMessages(v));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'errorMessage' && !inProperties) continue;
    out[key] = withoutErrorMessages(child, !inProperties && (key === 'properties' || key === 'definitions' || key === 'patternProperties'));
  }
  return out;
}

/** The schema as published in schemas/FILE. */
export function publishedSchema(file: string, schema: Schema): Schema {
  const { $schema, ...rest } = withoutErrorMessages(schema) as Schema;
  return { ...($schema === undefined ? {} : { $schema }), $id: `${SCHEMA_ID_BASE}${file}`, ...rest };
}

/** File name -> schema, for every published schema, as published. */
export function schemaFiles(): Map<string, Schema> {
  const files = new Map<string, Schema>();
  // Published for environments: {var} and {template} values, and Patch documents (schema/typed-values.ts).
  const kinds = kindSchemas();
  for (const [kind, schema] of kinds) files.set(`${kind}.schema.json`, withTypedValues(schema));
  files.set('Patch.schema.json', patchSchema(kinds));
  files.set('manifest.schema.json', unionWithPatch(unionSchema()));
  files.set('edgeops.schema.json', projectSchema());
  for (const [kind, schema] of policySchemas()) files.set(`${kind}.schema.json`, schema);
  return new Map([...files].map(([file, schema]) => [file, publishedSchema(file, schema)]));
}

export const schemaText = (schema: Schema): string => `${JSON.stringify(schema, null, 2)}\n`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [file, schema] of schemaFiles()) writeFileSync(join(SCHEMA_DIR, file), schemaText(schema));
  console.log(`wrote ${schemaFiles().size} schemas to ${SCHEMA_DIR}`);
}
