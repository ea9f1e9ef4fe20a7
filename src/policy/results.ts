// What policies found, as data in every output: one result per violated validation per document. The JSON plan
// carries these records as they are (`policy: [...]`); the renderers word them (render/policy-lines.ts).
import type { Severity } from './documents.ts';

export interface PolicyResult {
  policy: string;
  /** The severity in effect: a deny before its `enforce_from` date is a warn. */
  severity: Severity;
  /** `Kind/name` of the document (or live resource) it is about. */
  target: string;
  /** The offending field as people read it (`tls_termination.min_version`); '' for the document as a whole. */
  field: string;
  message: string;
  /** Where the offending field is written; for a live resource no document names, the policy's own file. */
  file: string;
  line: number;
  col: number;
  /** The PolicyException that covers it (honoured, or awaiting approval with `exception_pending`), else null. */
  exception: string | null;
  /** The violation is on a document the plan leaves unchanged: reported, never blocking (unless match.operations holds none). */
  existing?: true;
  /** The exception is not honoured yet: who must approve it (the Action). */
  exception_pending?: string[];
  /** Whether it blocks plan and apply: a deny, on a change, without an honoured exception. */
  blocking: boolean;
}

/** What a plan's policies say: the results, the exceptions used, and the digest of the policy set. */
export interface PolicyReport {
  results: PolicyResult[];
  /** Names of the exceptions that covered a result. */
  exceptions: string[];
  /** Notes: exceptions expiring within 14 days, or expired. */
  warnings: string[];
  /** `sha256:` of the policy documents (policies and exceptions): part of the plan checksum. */
  digest: string;
}

/** A policy result on live state that is drift: a deny or warn no honoured exception covers. */
export const isDriftFinding = (r: PolicyResult): boolean => r.severity !== 'info' && (r.exception === null || r.exception_pending !== undefined);

export const blockingResults = (results: readonly PolicyResult[] | undefined): PolicyResult[] => (results ?? []).filter((r) => r.blocking);

export function compareResults(a: PolicyResult, b: PolicyResult): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.policy.localeCompare(b.policy) || a.target.localeCompare(b.target);
}

/** `file:line:col: severity policy: Kind/name: field: message`, the one-line form text and annotations share. */
export function resultLine(r: PolicyResult): string {
  const field = r.field ? `${r.field}: ` : '';
  const tags = [r.existing ? 'existing' : '', r.exception && !r.exception_pending ? `exception ${r.exception}` : '', r.exception_pending ? `exception ${r.exception} awaiting approval by ${r.exception_pending.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
  return `${r.file}:${r.line}:${r.col}: ${r.severity} ${r.policy}: ${r.target}: ${field}${r.message}${tags ? ` (${tags})` : ''}`;
}
