// Every failure edgeops reports is an EdgeopsError with a stable code; src/main.ts is the one place
// that maps codes to exit codes, so commands throw and never call process.exit themselves.

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
}

/** One reason a manifest set is invalid, printed as `file:line:col: kind/name: message`. */
export interface ManifestIssue {
  pos: SourcePos;
  /** `Kind/name` of the document, when it is known. */
  address?: string;
  message: string;
}

export function formatIssue(issue: ManifestIssue): string {
  const where = `${issue.pos.file}:${issue.pos.line}:${issue.pos.col}`;
  return issue.address ? `${where}: ${issue.address}: ${issue.message}` : `${where}: ${issue.message}`;
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

export const planErrorsLine = (n: number): string => `Plan has ${n} error${n === 1 ? '' : 's'}; apply would be refused`;

/**
 * A plan with errors (engine/plan-checks.ts): the service would refuse it, so nothing was written. `shown`:
 * the issues were printed with the plan already, and only the closing line is left to say.
 */
export class PlanErrorsError extends ManifestError {
  readonly shown: boolean;
  constructor(issues: ManifestIssue[], opts: { shown: boolean; applying: boolean }) {
    super(issues, 'E_PLAN_ERRORS');
    this.shown = opts.shown;
    this.message = opts.applying ? `${planErrorsLine(issues.length)}: apply refused it; nothing was changed` : planErrorsLine(issues.length);
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
