// The value rules a JSON Schema cannot say, by the name a schema's `rule` keyword gives them. Each takes the
// value (of any type: the schema's `type` reports a wrong one) and returns its first problem, or undefined.
// `at` is a JSON pointer below the value ('/a/2') when the problem is inside it.
import { childPointer } from './field-path.ts';
import { quoteValue } from './rule-error.ts';
import type { RuleName, ValueProblem } from './schema.ts';
import { describePolicyProblem, HTTP_PHASES, policyDocumentProblem, TCP_PHASES } from './traffic-policy.ts';
import { cidrProblem, hostportProblem } from './values.ts';

type RuleCheck = (value: unknown) => (ValueProblem & { at?: string }) | undefined;

/** An HTTP header name: an RFC 9110 token. */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Field values: any visible character, space and tab; no CR, LF, NUL or other controls (header injection).
const HEADER_VALUE = /^[\t\x20-\x7e\u0080-\uffff]*$/;
const EVENT_TYPE = /^[a-z_]+\.v[0-9]+$/;
const EVENT_TYPE_MAX = 128;
/** Free-form action config is bounded in depth: serializing a 1 MiB body of nested brackets overflows the stack. */
const CONFIG_MAX_DEPTH = 32;

export function headerNameProblem(name: string): ValueProblem | undefined {
  return HEADER_NAME.test(name) ? undefined : { code: 'ERR_HEADER_NAME_INVALID', message: `${quoteValue(name)} is not a valid header name` };
}

/** JSON 1e999 parses to Infinity, which would be stored as null; deep nesting would overflow the stack later. */
function configProblem(value: unknown, at: string, left: number): (ValueProblem & { at?: string }) | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { code: 'ERR_FIELD_INVALID', message: 'number out of range (not finite)', at };
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (left === 0) return { code: 'ERR_POLICY_INVALID', message: `nested deeper than ${CONFIG_MAX_DEPTH} levels` };
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [childPointer(at, i), v]) : Object.entries(value).map(([k, v]) => [childPointer(at, k), v]);
  for (const [inside, v] of entries) {
    const found = configProblem(v, inside, left - 1);
    if (found) return found;
  }
  return undefined;
}

function trafficPolicy(phases: readonly string[]): RuleCheck {
  return (value) => {
    if (typeof value !== 'string') return undefined;
    const found = policyDocumentProblem(value, phases);
    return found && { code: 'ERR_TRAFFIC_POLICY_INVALID', message: describePolicyProblem('', found) };
  };
}

const onString = (check: (text: string) => ValueProblem | undefined): RuleCheck => (value) => (typeof value === 'string' ? check(value) : undefined);

export const RULES: Readonly<Record<RuleName, RuleCheck>> = {
  cidr: onString(cidrProblem),
  hostport: onString(hostportProblem),
  header_name: onString(headerNameProblem),
  header_value: onString((text) => (HEADER_VALUE.test(text)
    ? undefined
    : { code: 'ERR_HEADER_VALUE_INVALID', message: 'header values must not contain control characters' })),
  event_type: onString((text) => (text.length <= EVENT_TYPE_MAX && EVENT_TYPE.test(text)
    ? undefined
    : { code: 'ERR_EVENT_TYPE_INVALID', message: `${quoteValue(text)} is not an event type like ip_policy_created.v0` })),
  url_path: onString((text) => (text.startsWith('/')
    ? undefined
    : { code: 'ERR_FIELD_INVALID', message: `${quoteValue(text)} must be a path starting with "/"` })),
  policy_config: (value) => configProblem(value, '', CONFIG_MAX_DEPTH),
  traffic_policy_tcp: trafficPolicy(TCP_PHASES),
  traffic_policy_http: trafficPolicy(HTTP_PHASES),
};
