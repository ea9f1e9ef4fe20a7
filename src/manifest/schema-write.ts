// schemas/*.json are generated from the schema sources so they cannot drift from what edgeops validates with
// (test/manifest/schemas.test.ts fails when they differ). Regenerate: node --import tsx src/manifest/schema-write.ts
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kindSchemas } from './schema-kinds.ts';
import type { Schema } from './schema-parts.ts';
import { projectSchema, unionSchema } from './schema-project.ts';

export const SCHEMA_DIR = resolve(import.meta.dirname, '../../schemas');

/** File name -> schema, for every published schema. */
export function schemaFiles(): Map<string, Schema> {
  const files = new Map<string, Schema>();
  for (const [kind, schema] of kindSchemas()) files.set(`${kind}.schema.json`, schema);
  files.set('manifest.schema.json', unionSchema());
  files.set('edgeops.schema.json', projectSchema());
  return files;
}

export const schemaText = (schema: Schema): string => `${JSON.stringify(schema, null, 2)}\n`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [file, schema] of schemaFiles()) writeFileSync(join(SCHEMA_DIR, file), schemaText(schema));
  console.log(`wrote ${schemaFiles().size} schemas to ${SCHEMA_DIR}`);
}
