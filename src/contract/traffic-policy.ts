// What a traffic policy document is, shared by the service (which refuses one that is not, with
// ERR_TRAFFIC_POLICY_INVALID) and the manifest pipeline (which reports the same problem at the field's position
// before any request). Policy text is JSON or YAML parsing into a mapping of phases, each a list of rules
// `{name?, expressions?, actions: [{type, config?}]}`. TCP and TLS edges carry only on_tcp_connect; HTTPS edge
// routes also the HTTP phases. This module imports neither side (design: The import wall).
import { parseDocument } from 'yaml';
import { childPointer, showPath } from './field-path.ts';
import { isObj } from './json.ts';

/** The largest policy document accepted, in bytes of its text. */
export const TRAFFIC_POLICY_MAX_BYTES = 65_536;
const NAME_MAX_BYTES = 255;
const EXPRESSION_MAX_BYTES = 4096;
const MAX_DEPTH = 32;

export const TCP_PHASES: readonly string[] = ['on_tcp_connect'];
export const HTTP_PHASES: readonly string[] = ['on_tcp_connect', 'on_http_request', 'on_http_response'];

/** One problem of a policy text: where in the document (`''` = the whole text) and what is wrong there. */
interface PolicyProblem {
  where: string;
  problem: string;
}

class PolicyFault extends Error {
  constructor(readonly found: PolicyProblem) {
    super(found.problem);
  }
}

// The checks below name a place in the document by its JSON pointer; a problem says it in the one notation.
type Fail = (where: string, problem: string) => never;
const fail: Fail = (where, problem) => {
  throw new PolicyFault({ where: showPath(where), problem });
};

type Mapping = Record<string, unknown>;
const at = (parent: string, key: string | number): string => childPointer(parent, key);

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/** JSON first (the common machine-written form), then YAML 1.2 with duplicate keys refused. */
function parsePolicyText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // not JSON: YAML below
  }
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const pos = error.linePos?.[0];
    fail('', `is neither JSON nor YAML${pos ? ` (line ${pos.line}, column ${pos.col})` : ''}: ${error.message.split('\n')[0]}`);
  }
  return doc.toJS({ maxAliasCount: 100 });
}

function checkDepth(value: unknown, where: string, left: number): void {
  if (typeof value === 'number' && !Number.isFinite(value)) fail(where, 'must be a finite number');
  if (value === null || typeof value !== 'object') return;
  if (left === 0) fail(where, `nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) value.forEach((v, i) => checkDepth(v, at(where, i), left - 1));
  else for (const [k, v] of Object.entries(value)) checkDepth(v, at(where, k), left - 1);
}

function checkKeys(value: Mapping, where: string, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(at(where, key), `unknown key; allowed: ${allowed.join(', ')}`);
  }
}

function checkText(value: unknown, where: string, maxBytes: number): void {
  if (typeof value !== 'string' || value === '') fail(where, `must be a non-empty string, got ${kindOf(value)}`);
  if (Buffer.byteLength(value, 'utf8') > maxBytes) fail(where, `longer than ${maxBytes} bytes`);
}

function checkRule(rule: unknown, where: string): void {
  if (!isObj(rule)) fail(where, `a rule must be a mapping, got ${kindOf(rule)}`);
  checkKeys(rule, where, ['name', 'expressions', 'actions']);
  if (rule.name !== undefined) checkText(rule.name, at(where, 'name'), NAME_MAX_BYTES);
  if (rule.expressions !== undefined) {
    if (!Array.isArray(rule.expressions)) fail(at(where, 'expressions'), `must be a list of CEL expressions, got ${kindOf(rule.expressions)}`);
    rule.expressions.forEach((e, i) => checkText(e, at(at(where, 'expressions'), i), EXPRESSION_MAX_BYTES));
  }
  const actions = rule.actions;
  if (!Array.isArray(actions) || actions.length === 0) fail(at(where, 'actions'), 'a rule needs a list of at least one action');
  actions.forEach((action, i) => {
    const here = at(at(where, 'actions'), i);
    if (!isObj(action)) fail(here, `an action must be a mapping, got ${kindOf(action)}`);
    checkKeys(action, here, ['type', 'config']);
    checkText(action.type, at(here, 'type'), NAME_MAX_BYTES);
    if (action.config !== undefined && action.config !== null && !isObj(action.config)) {
      fail(at(here, 'config'), `must be a mapping, got ${kindOf(action.config)}`);
    }
  });
}

function checkDocument(text: string, phases: readonly string[]): void {
  if (text === '') fail('', 'must not be empty');
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > TRAFFIC_POLICY_MAX_BYTES) fail('', `is ${bytes} bytes, at most ${TRAFFIC_POLICY_MAX_BYTES} are allowed`);
  const doc = parsePolicyText(text);
  if (!isObj(doc)) fail('', `must be a policy document (a mapping of phases such as ${phases.join(', ')}), got ${kindOf(doc)}`);
  checkDepth(doc, '', MAX_DEPTH);
  checkKeys(doc, '', phases);
  for (const phase of phases) {
    const rules = doc[phase];
    if (rules === undefined || rules === null) continue;
    if (!Array.isArray(rules)) fail(at('', phase), `must be a list of rules, got ${kindOf(rules)}`);
    rules.forEach((rule, i) => checkRule(rule, at(at('', phase), i)));
  }
}

/** The first problem of policy `text` for a place whose traffic has `phases`, or undefined when it is a valid document. */
export function policyDocumentProblem(text: string, phases: readonly string[]): PolicyProblem | undefined {
  try {
    checkDocument(text, phases);
    return undefined;
  } catch (err) {
    if (err instanceof PolicyFault) return err.found;
    throw err;
  }
}

/**
 * `traffic_policy.value: on_http_request: unknown key; ...`: a problem as both sides print it after the field's
 * path; without a path (`''`), what follows the path.
 */
export function describePolicyProblem(path: string, found: PolicyProblem): string {
  const what = `${found.where ? `${found.where}: ` : ''}${found.problem}`;
  return path ? `${path}: ${what}` : what;
}
