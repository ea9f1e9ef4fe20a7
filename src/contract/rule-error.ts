// What a value rule of the contract answers when a value breaks it: the service's error code and a message
// that both sides print after the field's path (`cidr: "10.0.0.1/8" has host bits set ...`). The codes are the
// service's own (src/service/errors.ts lists them with their statuses; its ErrorCode must include every one).

/** The error codes the value rules produce, a subset of the service's ErrorCode. */
const RULE_CODES = [
  'ERR_CIDR_INVALID',
  'ERR_CIDR_HOST_BITS_SET',
  'ERR_HOSTPORT_INVALID',
  'ERR_PEM_EMPTY',
  'ERR_PEM_TRAILING_DATA',
  'ERR_PEM_INVALID',
  'ERR_PEM_WRONG_TYPE',
  'ERR_KEY_INVALID',
  'ERR_KEY_ENCRYPTED',
  'ERR_KEY_TYPE_UNSUPPORTED',
  'ERR_KEY_MISMATCH',
  'ERR_CERT_FIELD_UNREADABLE',
] as const;

export type RuleCode = (typeof RULE_CODES)[number];

/**
 * A broken rule. `message` never names the field (callers prefix its path) and never holds key material.
 * `field` is set by rules that check several fields together (a certificate and its key): the body field the
 * problem is about.
 */
export interface RuleProblem {
  code: RuleCode;
  message: string;
  field?: string;
}

/** Thrown by the rules that parse (PEM chains, private keys) from deep inside; `problemOf` turns it back into a RuleProblem. */
export class RuleError extends Error {
  readonly code: RuleCode;
  readonly field?: string;
  constructor(code: RuleCode, message: string, field?: string) {
    super(message);
    this.name = 'RuleError';
    this.code = code;
    if (field !== undefined) this.field = field;
  }

  get problem(): RuleProblem {
    return { code: this.code, message: this.message, ...(this.field !== undefined ? { field: this.field } : {}) };
  }
}

/** Runs `check`; a RuleError it throws becomes its problem, anything else is rethrown (a bug, not a verdict). */
export function problemOf(check: () => unknown): RuleProblem | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    if (err instanceof RuleError) return err.problem;
    throw err;
  }
}

/** A value as messages show it: quoted, and cut short so that a huge value does not flood the output. */
export function quoteValue(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}...` : text);
}
