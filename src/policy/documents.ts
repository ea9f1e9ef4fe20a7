// Policy documents as loaded: each checked against its schema (schemas.ts), then read into typed records that
// keep the document (and so the position of every value) for messages that point at a line.
import type { ManifestIssue } from '../errors.ts';
import { withContext } from '../contract/error-context.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { addressOf, type ManifestDoc } from '../manifest/document.ts';
import { compileSchema } from '../manifest/schema/compile.ts';
import { issuesFromAjv } from '../manifest/schema/messages.ts';
import { policySchemas, type PolicyKind } from './schemas.ts';

export type Severity = 'deny' | 'warn' | 'info';
export type MatchOperation = 'create' | 'update' | 'delete' | 'none';

export interface CelSource {
  expression: string;
  /** JSON pointer of the expression's value in its document. */
  pointer: string;
}

export interface PolicyValidation extends CelSource {
  message?: string;
  messageExpression?: CelSource;
  field?: string;
}

export interface PolicyDoc {
  name: string;
  description?: string;
  severity: Severity;
  enforceFrom?: string;
  exceptions: 'owners' | 'none';
  owners: string[];
  match: { kinds?: string[]; operations: MatchOperation[]; environments?: string[]; stacks?: string[] };
  variables: (CelSource & { name: string })[];
  validations: PolicyValidation[];
  doc: ManifestDoc;
}

export interface PolicyExceptionDoc {
  name: string;
  policy: string;
  targets: string[];
  reason: string;
  expires: string;
  doc: ManifestDoc;
}

export interface PolicyTestCase {
  name?: string;
  kind?: string;
  object: Json;
  oldObject?: Json;
  operation?: MatchOperation;
  environment?: string;
  stack?: string;
  now?: string;
  expect: Severity | 'pass';
  /** The case's index in `cases`. */
  index: number;
}

export interface PolicyTestDoc {
  name: string;
  policy: string;
  cases: PolicyTestCase[];
  doc: ManifestDoc;
}

interface PolicyDocuments {
  policies: PolicyDoc[];
  exceptions: PolicyExceptionDoc[];
  tests: PolicyTestDoc[];
}

type Fields = Record<string, unknown>;

/** The document's schema problems; none means the typed reading below is safe. */
function schemaIssues(doc: ManifestDoc): ManifestIssue[] {
  const kind = doc.kind as PolicyKind;
  const schema = policySchemas().get(kind)!;
  const validate = compileSchema(kind, () => schema);
  const data = { kind: doc.kind, name: doc.name, ...doc.fields };
  if (validate(data)) return [];
  return issuesFromAjv(withContext(validate.errors ?? [], schema, data), doc, addressOf(doc));
}

function readPolicy(doc: ManifestDoc): PolicyDoc {
  const f = doc.fields as Fields;
  const match = (f.match ?? {}) as Fields;
  const variables = ((f.variables ?? []) as Fields[]).map((v, i) => ({ name: String(v.name), expression: String(v.expression), pointer: `/variables/${i}/expression` }));
  const validations = (f.validations as Fields[]).map((v, i): PolicyValidation => ({
    expression: String(v.expression),
    pointer: `/validations/${i}/expression`,
    ...(typeof v.message === 'string' ? { message: v.message } : {}),
    ...(typeof v.message_expression === 'string' ? { messageExpression: { expression: v.message_expression, pointer: `/validations/${i}/message_expression` } } : {}),
    ...(typeof v.field === 'string' ? { field: v.field } : {}),
  }));
  return {
    name: doc.name,
    ...(typeof f.description === 'string' ? { description: f.description } : {}),
    severity: f.severity as Severity,
    ...(typeof f.enforce_from === 'string' ? { enforceFrom: f.enforce_from } : {}),
    exceptions: (f.exceptions as 'owners' | 'none' | undefined) ?? 'owners',
    owners: (f.owners as string[] | undefined) ?? [],
    match: {
      ...(match.kinds ? { kinds: match.kinds as string[] } : {}),
      operations: (match.operations as MatchOperation[] | undefined) ?? ['create', 'update'],
      ...(match.environments ? { environments: match.environments as string[] } : {}),
      ...(match.stacks ? { stacks: match.stacks as string[] } : {}),
    },
    variables,
    validations,
    doc,
  };
}

function readException(doc: ManifestDoc): PolicyExceptionDoc {
  const f = doc.fields as Fields;
  return { name: doc.name, policy: String(f.policy), targets: f.targets as string[], reason: String(f.reason), expires: String(f.expires), doc };
}

function readTest(doc: ManifestDoc): PolicyTestDoc {
  const f = doc.fields as Fields;
  const cases = (f.cases as Fields[]).map((c, index): PolicyTestCase => ({ ...(c as unknown as Omit<PolicyTestCase, 'index'>), index }));
  return { name: doc.name, policy: String(f.policy), cases, doc };
}

/** The policy documents among `docs`, read; every schema problem and duplicate name is an issue. */
export function readPolicyDocuments(docs: readonly ManifestDoc[]): { documents: PolicyDocuments; issues: ManifestIssue[] } {
  const documents: PolicyDocuments = { policies: [], exceptions: [], tests: [] };
  const issues: ManifestIssue[] = [];
  const seen = new Map<string, ManifestDoc>();
  for (const doc of docs) {
    const found = schemaIssues(doc);
    if (found.length > 0) {
      issues.push(...found);
      continue;
    }
    const key = addressOf(doc);
    const earlier = seen.get(key);
    if (earlier) {
      issues.push({ pos: doc.pos, address: key, message: `${key} is declared twice (also at ${earlier.pos.file}:${earlier.pos.line}:${earlier.pos.col})` });
      continue;
    }
    seen.set(key, doc);
    if (doc.kind === 'Policy') documents.policies.push(readPolicy(doc));
    else if (doc.kind === 'PolicyException') documents.exceptions.push(readException(doc));
    else documents.tests.push(readTest(doc));
  }
  return { documents, issues };
}
