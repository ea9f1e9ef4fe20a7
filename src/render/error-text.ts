// How a failed run reads: a manifest problem per line (`file:line:col: ...`, unless the plan shown already
// listed them), then `edgeops: ` and what went wrong, and the exit code. The CLI's main (src/cli/main.ts) and the
// GitHub Action report a failure with exactly these lines. As JSON (`--json-out`, the Action's annotations), a
// failure is its code, its message and every manifest problem with its file, line and column.
import { EdgeopsError, ManifestError, PlanErrorsError, formatIssue, issueMessage } from '../errors.ts';

interface ErrorText {
  text: string;
  exitCode: number;
  /** Not an EdgeopsError: an edgeops bug, worth its stack trace under EDGEOPS_DEBUG. */
  internal: boolean;
}

export function errorText(err: unknown): ErrorText {
  if (err instanceof ManifestError) {
    const issues = err instanceof PlanErrorsError && err.shown ? '' : err.issues.map((issue) => `${formatIssue(issue)}\n`).join('');
    return { text: `${issues}edgeops: ${err.summary}\n`, exitCode: err.exitCode, internal: false };
  }
  if (err instanceof EdgeopsError) return { text: `edgeops: ${err.message}\n`, exitCode: err.exitCode, internal: false };
  const message = err instanceof Error ? err.message : String(err);
  return { text: `edgeops: internal error: ${message}\n`, exitCode: 1, internal: true };
}

export interface JsonProblem {
  file: string;
  line: number;
  col: number;
  /** `Kind/name` of the document, when known. */
  address?: string;
  message: string;
}

/** A failure as JSON reports carry it: its code, its message, and the manifest problems at their positions. */
export interface JsonFailure {
  code: string;
  message: string;
  problems: JsonProblem[];
}

interface JsonError {
  format_version: 1;
  error: JsonFailure;
}

/** Any failure as JSON: an EdgeopsError with its code and problems, anything else as an internal error. */
export const failureToJson = (err: unknown): JsonFailure =>
  err instanceof EdgeopsError ? errorToJson(err).error : { code: 'E_INTERNAL', message: err instanceof Error ? err.message : String(err), problems: [] };

export function errorToJson(err: EdgeopsError): JsonError {
  const problems = err instanceof ManifestError
    ? err.issues.map((i) => ({ file: i.pos.file, line: i.pos.line, col: i.pos.col, ...(i.address ? { address: i.address } : {}), message: issueMessage(i) }))
    : [];
  return { format_version: 1, error: { code: err.code, message: err.message, problems } };
}
