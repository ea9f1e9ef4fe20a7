// What ajv's verbose mode adds to each error, found only once a validation has failed: the schema node whose
// keyword failed (parentSchema) and the value the error is about (data), which the wording reads. The validators
// are generated without verbose mode: a fifth less code for every command that reads manifests to load and
// compile, for two fields that only an invalid document needs.
import type { ErrorObject } from 'ajv';
import { splitPointer } from './field-path.ts';
import { unescapeSegment, valueAt } from './json.ts';

/** The steps of a schema path as ajv writes it (`#/properties/a~1b/type`: URI-encoded pointer segments). */
const schemaSteps = (schemaPath: string): string[] =>
  schemaPath.replace(/^#/, '').split('/').slice(1).map((segment) => unescapeSegment(decodeURIComponent(segment)));

/** `errors` of validating `data` against `schema`, each with its parentSchema and data as verbose mode sets them. */
export function withContext(errors: readonly ErrorObject[], schema: object, data: unknown): ErrorObject[] {
  return errors.map((e) => ({
    ...e,
    // The last step is the keyword itself; a path this schema does not hold gives an empty node, not a crash.
    parentSchema: (valueAt(schema, schemaSteps(e.schemaPath).slice(0, -1)) as object | undefined) ?? {},
    // An error about a key (propertyNames) is about the key itself.
    data: (e as { propertyName?: string }).propertyName ?? valueAt(data, splitPointer(e.instancePath)),
  }));
}
