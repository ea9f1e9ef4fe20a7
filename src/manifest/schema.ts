// Stage 3, schema: each document against its kind's JSON Schema (the schemas are generated in schema/), with
// each schema's validator made once, on first use (compiled from the sources, precompiled in the build:
// schema/compile.ts). Unknown kinds are left to the rules stage. Two checks are left to the rules, which word
// them better: the name pattern (a name with "_" gets its own message) and the description limit (the service
// counts bytes, JSON Schema counts characters).
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ManifestIssue } from '../errors.ts';
import { addressOf, type ManifestDoc } from './document.ts';
import { withContext } from '../contract/error-context.ts';
import { compileSchema } from './schema/compile.ts';
import { issuesFromAjv } from './schema/messages.ts';
import { kindFacts } from './schema/facts.ts';
import { kindSchemas } from './schema/kinds.ts';
import type { Schema } from './schema/parts.ts';
import { runAll, type Steps } from '../pace.ts';
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
    const errors = withContext(v.validate.errors ?? [], schemaOf(doc.kind), data).filter((e) => !leftToRules(e));
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

// Compiling costs milliseconds per kind, so each schema is compiled the first time a document needs it.
let schemas: Map<string, Schema> | undefined;
/** A kind's schema, built (with every other) only when the sources compile it or an error is worded. */
const schemaOf = (kind: string): Schema => (schemas ??= kindSchemas()).get(kind)!;
const kindCache = new Map<string, KindValidation>();
let project: ValidateFunction | undefined;

export function kindValidation(kind: string): KindValidation | undefined {
  const cached = kindCache.get(kind);
  if (cached) return cached;
  const facts = kindFacts(kind);
  if (!facts) return undefined;
  const v: KindValidation = {
    validate: compileSchema(kind, () => schemaOf(kind)),
    ...facts,
    policyPhases: new Map(facts.policyPhases),
  };
  kindCache.set(kind, v);
  return v;
}

/** The key of edgeops.yaml's schema among the compiled ones (no kind is named so). */
export const PROJECT_KEY = 'project';

/** What is wrong with edgeops.yaml's settings `value`, as ajv's errors; none when they are valid. */
export function projectErrors(value: unknown): ErrorObject[] {
  const validate = (project ??= compileSchema(PROJECT_KEY, projectSchema));
  return validate(value) ? [] : withContext(validate.errors ?? [], projectSchema(), value);
}
