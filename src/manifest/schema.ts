// Stage 3, schema: each document against its kind's JSON Schema (the schemas are generated in schema/), with
// each schema's validator made once, on first use (compiled from the sources, precompiled in the build:
// schema/compile.ts). Unknown kinds are left to the rules stage. Two checks are left to the rules, which word
// them better: the name pattern (a name with "_" gets its own message) and the description limit (the service
// counts bytes, JSON Schema counts characters).
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ManifestIssue } from '../errors.ts';
import { addressOf, type ManifestDoc } from './document.ts';
import { childPointer, splitPointer } from './pointer.ts';
import { compileSchema } from './schema/compile.ts';
import { issuesFromAjv } from './schema/messages.ts';
import { kindSchemas } from './schema/kinds.ts';
import { HEADER_NAME_PATTERN, SECRET_REF, type Schema } from './schema/parts.ts';
import { runAll, type Steps } from './pace.ts';
import { projectSchema } from './schema/project.ts';

const leftToRules = (e: ErrorObject): boolean =>
  (e.instancePath === '/name' && e.keyword === 'pattern') || (e.instancePath === '/description' && e.keyword === 'maxLength');

function validateDocs(docs: readonly ManifestDoc[]): ManifestIssue[] {
  return runAll(validationSteps(docs));
}

/** validateDocs as steps, one per document (pace.ts). */
export function* validationSteps(docs: readonly ManifestDoc[]): Steps<ManifestIssue[]> {
  const issues: ManifestIssue[] = [];
  for (const doc of docs) {
    yield;
    const v = kindValidation(doc.kind);
    if (!v) continue;
    // A missing name stays missing, so the schema reports it; the loader keeps it as ''.
    const data = doc.positions.has('/name') ? { kind: doc.kind, name: doc.name, ...doc.fields } : { kind: doc.kind, ...doc.fields };
    if (v.validate(data)) continue;
    const errors = (v.validate.errors ?? []).filter((e) => !leftToRules(e));
    issues.push(...issuesFromAjv(errors, doc, addressOf(doc)));
  }
  return issues;
}

interface KindValidation {
  validate: ValidateFunction;
  /** Pointers of the fields that take `{file}`/`{env}` secrets (`*` = each item of a list). */
  secretPointers: string[];
  /** Pointers of the fields that may be null for "unset" (schema/parts.ts `unsettable`): the resolver drops them. */
  unsetPointers: string[];
  /** Pointers of header-name maps (their keys) and lists (their items): names that ignore case. */
  headerPointers: string[];
  /** Traffic policy fields (a document, or its text: checked once resolved), by pointer: the phases they take. */
  policyPhases: Map<string, readonly string[]>;
}

/** Walks `properties` and `items` for fields declared with the secret definition. */
function findSecrets(schema: Schema, pointer = ''): string[] {
  // Also a field that is a secret unless it is a literal mapping (traffic_policy.value: `else` a secret).
  if (schema.$ref === SECRET_REF || (schema.else as Schema | undefined)?.$ref === SECRET_REF) return [pointer];
  const found: string[] = [];
  const props = schema.properties as Record<string, Schema> | undefined;
  for (const [key, sub] of Object.entries(props ?? {})) found.push(...findSecrets(sub, childPointer(pointer, key)));
  if (schema.items && typeof schema.items === 'object') found.push(...findSecrets(schema.items as Schema, `${pointer}/*`));
  return found;
}

/** Walks `properties` and `items` for the nodes `match` picks. */
function findNodes(schema: Schema, match: (node: Schema) => boolean, pointer = ''): string[] {
  const found = match(schema) && pointer !== '' ? [pointer] : [];
  const props = schema.properties as Record<string, Schema> | undefined;
  for (const [key, sub] of Object.entries(props ?? {})) found.push(...findNodes(sub, match, childPointer(pointer, key)));
  if (schema.items && typeof schema.items === 'object') found.push(...findNodes(schema.items as Schema, match, `${pointer}/*`));
  return found;
}

/** A policy field: a document mapping (`then`, its phases as properties) or else a secret-capable text. */
const policyDocument = (node: Schema): Schema | undefined =>
  (node.else as Schema | undefined)?.$ref === SECRET_REF ? (node.then as Schema | undefined) : undefined;
const policyPhases = (schema: Schema): Map<string, readonly string[]> =>
  new Map(findNodes(schema, (node) => policyDocument(node)?.properties !== undefined)
    .map((pointer) => [pointer, Object.keys(policyDocument(nodeAt(schema, pointer))!.properties as Schema)]));

/** The schema node at a pointer of findNodes (through `properties`, `*` = `items`). */
function nodeAt(schema: Schema, pointer: string): Schema {
  return splitPointer(pointer).reduce<Schema>((node, seg) =>
    (seg === '*' ? node.items : (node.properties as Record<string, Schema>)[seg]) as Schema, schema);
}

const takesNull = (node: Schema): boolean => Array.isArray(node.type) && node.type.includes('null');
const namesHeaders = (node: Schema): boolean =>
  (node.propertyNames as Schema | undefined)?.pattern === HEADER_NAME_PATTERN || (node.items as Schema | undefined)?.pattern === HEADER_NAME_PATTERN;

// Compiling costs milliseconds per kind, so each schema is compiled the first time a document needs it.
let schemas: Map<string, Schema> | undefined;
const kindCache = new Map<string, KindValidation>();
let project: ValidateFunction | undefined;

export function kindValidation(kind: string): KindValidation | undefined {
  const cached = kindCache.get(kind);
  if (cached) return cached;
  const schema = (schemas ??= kindSchemas()).get(kind);
  if (!schema) return undefined;
  const v: KindValidation = {
    validate: compileSchema(kind, schema),
    secretPointers: findSecrets(schema),
    unsetPointers: findNodes(schema, takesNull),
    headerPointers: findNodes(schema, namesHeaders),
    policyPhases: policyPhases(schema),
  };
  kindCache.set(kind, v);
  return v;
}

/** The key of edgeops.yaml's schema among the compiled ones (no kind is named so). */
export const PROJECT_KEY = 'project';

export function projectValidator(): ValidateFunction {
  return (project ??= compileSchema(PROJECT_KEY, projectSchema()));
}
