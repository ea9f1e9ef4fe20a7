// Traffic policy text (inline, or read from {file}/{env}) is checked once resolved, by the rule the service
// applies (src/contract/traffic-policy.ts): text that does not parse, or names a phase the edge does not have,
// is reported at the field before any request. A document written as a mapping is the schema's to check.
import { describePolicyProblem, policyDocumentProblem } from '../contract/traffic-policy.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { childPointer, fieldPath } from './pointer.ts';

/** The problem of the policy field at `pointer` (`written` as in the manifest, `text` resolved), with where to report it. */
export function policyTextIssue(
  written: Json,
  text: Json,
  pointer: string,
  phases: readonly string[],
): { pointer: string; message: string } | undefined {
  if (typeof text !== 'string') return undefined;
  const found = policyDocumentProblem(text, phases);
  if (!found) return undefined;
  const from = typeof written === 'object' && written !== null && !Array.isArray(written) ? Object.keys(written)[0] : undefined;
  const source = from === 'file' ? ` (in file "${String((written as Record<string, Json>).file)}")` : from === 'env' ? ` (in environment variable ${String((written as Record<string, Json>).env)})` : '';
  return {
    pointer: from ? childPointer(pointer, from) : pointer,
    message: `${describePolicyProblem(fieldPath(pointer), found)}${source}`,
  };
}
