// A contract body schema compiled to its validator by ajv at run time: what the sources (tsx, tests) do, each
// schema once, on first use. The build (scripts/build.ts) swaps this module for ajv's standalone code of every
// body schema of the contract (contractBodies), generated with the same newContractAjv, so the built CLI and the
// Action neither load ajv's compiler nor compile a schema on each run.
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { addContractKeywords } from './keywords.ts';
import type { BodySchema } from './schema.ts';

/**
 * The contract's ajv: every error (the first in body order is reported), strict numbers (no Infinity); what
 * verbose mode would add to an error is found once one is reported (error-context.ts).
 */
export function newContractAjv(options: Options = {}): Ajv {
  return addContractKeywords(new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, strictNumbers: true, ...options }));
}

let ajv: Ajv | undefined;
const compiled = new WeakMap<BodySchema, ValidateFunction>();

export function compileBody(schema: BodySchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = (ajv ??= newContractAjv()).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}
