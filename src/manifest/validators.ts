// The compiled validators: one ajv instance, every schema compiled once on first use. ajv reports every error
// (allErrors) with its schema (verbose), which messages.ts needs to word it and errorMessage to override it.
import { Ajv, type ValidateFunction } from 'ajv';
import { cidrProblem, isHostport, isHttpUrl } from './formats.ts';
import { kindSchemas } from './schema-kinds.ts';
import { SECRET_REF, type Schema } from './schema-parts.ts';
import { projectSchema } from './schema-project.ts';
import { childPointer } from './pointer.ts';

export interface KindValidation {
  validate: ValidateFunction;
  /** Pointers of the fields that take `{file}`/`{env}` secrets (`*` = each item of a list). */
  secretPointers: string[];
}

function newAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: ['string', 'object'] });
  ajv.addFormat('cidr', (v: string) => cidrProblem(v) === undefined);
  ajv.addFormat('hostport', isHostport);
  ajv.addFormat('uri', isHttpUrl);
  return ajv;
}

/** Walks `properties` and `items` for fields declared with the secret definition. */
function findSecrets(schema: Schema, pointer = ''): string[] {
  if (schema.$ref === SECRET_REF) return [pointer];
  const found: string[] = [];
  const props = schema.properties as Record<string, Schema> | undefined;
  for (const [key, sub] of Object.entries(props ?? {})) found.push(...findSecrets(sub, childPointer(pointer, key)));
  if (schema.items && typeof schema.items === 'object') found.push(...findSecrets(schema.items as Schema, `${pointer}/*`));
  return found;
}

let compiled: { kinds: Map<string, KindValidation>; project: ValidateFunction } | undefined;

function load(): NonNullable<typeof compiled> {
  if (compiled) return compiled;
  const ajv = newAjv();
  const kinds = new Map<string, KindValidation>();
  for (const [kind, schema] of kindSchemas()) {
    kinds.set(kind, { validate: ajv.compile(schema), secretPointers: findSecrets(schema) });
  }
  compiled = { kinds, project: ajv.compile(projectSchema()) };
  return compiled;
}

export function kindValidation(kind: string): KindValidation | undefined {
  return load().kinds.get(kind);
}

export function projectValidator(): ValidateFunction {
  return load().project;
}
