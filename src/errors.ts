// Every failure edgeops reports is an EdgeopsError with a stable code; src/cli/main.ts is the one place
// that maps codes to exit codes, so commands throw and never call process.exit themselves.
import { showPath } from './contract/field-path.ts';

export class EdgeopsError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(code: string, message: string, exitCode = 1) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
  }
}

export interface SourcePos {
  file: string;
  line: number;
  col: number;
  /**
   * How a value written here reached the document it is in, when that is not where it is written: a Patch of a
   * base's document, a `{var: NAME}` (`Patch of HTTPSEdge/api; document at base/edges.yaml:3:1`).
   */
  via?: string;
}

/** `file:line:col`, with the chain that brought the value when there is one. */
export const positionText = (pos: SourcePos): string => `${pos.file}:${pos.line}:${pos.col}${pos.via ? ` (${pos.via})` : ''}`;

/** One reason a manifest set is invalid, printed as `file:line:col: kind/name: message`. */
export interface ManifestIssue {
  pos: SourcePos;
  /** `Kind/name` of the document, when it is known. */
  address?: string;
  /**
   * The field the problem is about, as a JSON pointer into the document; `message` then says what is wrong with
   * it and issueMessage shows its path before that. Absent for a problem of a whole file or document.
   */
  pointer?: string;
  /** The service's error code for the same problem, when the contract names one. */
  code?: string;
  message: string;
}

/** The field's path as people read it (`backend.backend_id`), or '' when the issue names no field. */
export function issuePath(issue: ManifestIssue): string {
  return issue.pointer === undefined ? '' : showPath(issue.pointer);
}

/** What is wrong, after the field's path when there is one: `backend.backend_id: required`. */
export function issueMessage(issue: ManifestIssue): string {
  const path = issuePath(issue);
  return path ? `${path}: ${issue.message}` : issue.message;
}

export function formatIssue(issue: ManifestIssue): string {
  // No file: a plan error about a resource no document names (a delete), which has no position to show.
  const where = issue.pos.file === '' ? '' : `${positionText(issue.pos)}: `;
  return issue.address ? `${where}${issue.address}: ${issueMessage(issue)}` : `${where}${issueMessage(issue)}`;
}

/** All reasons at once: loading, schema, naming, references and secrets. No API call is made when this is thrown. */
export class ManifestError extends EdgeopsError {
  readonly issues: ManifestIssue[];
  constructor(issues: ManifestIssue[], code = 'E_MANIFEST') {
    super(code, issues.map(formatIssue).join('\n'));
    this.issues = issues;
  }

  /** The closing line under the issues. */
  get summary(): string {
    return `${this.issues.length} problem${this.issues.length === 1 ? '' : 's'} in the manifests`;
  }
}

const planHasErrors = (n: number): string => `Plan has ${n} error${n === 1 ? '' : 's'}`;

export const planErrorsLine = (n: number): string => `${planHasErrors(n)}; apply would be refused`;

/**
 * A plan with errors (engine/plan-checks.ts): the service would refuse it, so nothing was written. `shown`:
 * the issues were printed with the plan already, and only the closing line is left to say.
 */
export class PlanErrorsError extends ManifestError {
  readonly shown: boolean;
  constructor(issues: ManifestIssue[], opts: { shown: boolean; applying: boolean }) {
    super(issues, 'E_PLAN_ERRORS');
    this.shown = opts.shown;
    this.message = opts.applying ? `${planHasErrors(issues.length)}, so apply refused it and changed nothing` : planErrorsLine(issues.length);
  }

  override get summary(): string {
    return this.message;
  }
}

/** Bad flags, environment or edgeops.yaml values. */
export class ConfigError extends EdgeopsError {
  constructor(message: string) {
    super('E_CONFIG', message);
  }
}

/** A non-2xx answer (or a transport failure) from the service. The message never holds a request body. */
export class ApiError extends EdgeopsError {
  readonly status: number;
  readonly errorCode: string;
  readonly operation: string;
  readonly serviceMessage: string;
  constructor(opts: { status: number; errorCode: string; message: string; operation: string }) {
    super('E_API', `${opts.operation}: ${opts.status} ${opts.errorCode}: ${opts.message}`);
    this.status = opts.status;
    this.errorCode = opts.errorCode;
    this.operation = opts.operation;
    this.serviceMessage = opts.message;
  }
}

/** A plan that deletes more than the configured threshold, applied without --allow-deletes. */
export class UnsafePlanError extends EdgeopsError {
  constructor(message: string) {
    super('E_UNSAFE_PLAN', message);
  }
}

/** A saved plan whose live objects changed since it was made. */
export class StalePlanError extends EdgeopsError {
  constructor(message: string) {
    super('E_STALE_PLAN', message);
  }
}

/** Some actions of an apply failed; the others ran. */
export class ApplyFailedError extends EdgeopsError {
  constructor(message: string) {
    super('E_APPLY_FAILED', message);
  }
}

/** After an apply, a re-plan of the touched resources was not empty: a bug in edgeops' normalization. */
export class PerpetualDiffError extends EdgeopsError {
  constructor(message: string) {
    super('E_PERPETUAL_DIFF', message);
  }
}

/** The user declined the confirmation prompt, or an interrupt stopped the apply. */
export class AbortedError extends EdgeopsError {
  constructor(message: string) {
    super('E_ABORTED', message);
  }
}

/** Paths that yield no manifest document: nothing to plan from (a wrong path must not plan deleting a stack). */
export class NoManifestsError extends EdgeopsError {
  constructor(message: string) {
    super('E_NO_MANIFESTS', message);
  }
}

/** A path on the command line that does not exist: a usage error, not a problem in the manifests. */
export class PathNotFoundError extends EdgeopsError {
  constructor(message: string) {
    super('E_PATH_NOT_FOUND', message);
  }
}

/** Paths that hold part of a stack: its plan would delete the resources of the manifests left out. */
export class PartialStackError extends EdgeopsError {
  constructor(message: string) {
    super('E_PARTIAL_STACK', message);
  }
}

/** A path in a base of environments (`role: base`): shared documents, not a stack to plan, apply or list. */
export class BaseNotStackError extends EdgeopsError {
  constructor(message: string) {
    super('E_BASE_NOT_STACK', message);
  }
}

/** A saved plan whose content no longer matches the digest `plan --out` wrote into it. */
export class SavedPlanEditedError extends EdgeopsError {
  constructor(message: string) {
    super('E_SAVED_PLAN_EDITED', message);
  }
}

/** A policy of severity deny refused what the plan changes (src/policy/): nothing was written. */
export class PolicyDeniedError extends EdgeopsError {
  constructor(message: string) {
    super('E_POLICY_DENIED', message);
  }
}
