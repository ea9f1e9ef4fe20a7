// A schema compiled to its validator by ajv at run time: what the sources do. The build (scripts/build.ts)
// swaps this module for ajv's standalone code of every schema, generated with the same newAjv, so the built
// CLI neither loads ajv's compiler nor compiles a schema on each run. ajv reports every error (allErrors); the
// schema node and value of each, which messages.ts needs to word it and errorMessage to override it, are found
// once validation has failed (contract/error-context.ts), not carried by the generated code.
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { AJV_FORMATS } from './formats.ts';
import type { Schema } from './parts.ts';

export function newAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, ...options });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: ['string', 'object'] });
  for (const [name, check] of Object.entries(AJV_FORMATS)) ajv.addFormat(name, check);
  return ajv;
}

let ajv: Ajv | undefined;

/** The validator of `schema`; `key` names it (a kind, or `project`) for the precompiled module, which never builds the schema. */
export function compileSchema(key: string, schema: () => Schema): ValidateFunction {
  void key;
  return (ajv ??= newAjv()).compile(schema());
}
