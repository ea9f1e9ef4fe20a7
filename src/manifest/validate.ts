// Stage 2, validate: each document against its kind's JSON Schema. Unknown kinds are left to the rules stage.
// Two checks are left to the rules, which word them better: the name pattern (a name with "_" gets its own
// message) and the description limit (the service counts bytes, JSON Schema counts characters).
import type { ErrorObject } from 'ajv';
import type { ManifestIssue } from '../errors.ts';
import type { ManifestDoc } from './document.ts';
import { issuesFromAjv } from './messages.ts';
import { kindValidation } from './validators.ts';

const leftToRules = (e: ErrorObject): boolean =>
  (e.instancePath === '/name' && e.keyword === 'pattern') || (e.instancePath === '/description' && e.keyword === 'maxLength');

/** `Kind/name` for messages; just the kind while the name is missing. */
export const addressOf = (doc: ManifestDoc): string => (doc.name === '' ? doc.kind : `${doc.kind}/${doc.name}`);

export function validateDocs(docs: readonly ManifestDoc[]): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  for (const doc of docs) {
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
