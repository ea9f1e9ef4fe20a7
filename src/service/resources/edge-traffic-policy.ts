// The `traffic_policy` module of the public API (TCP edges, TLS edges, HTTPS edge routes): `{enabled, value}`,
// where value is a policy document written as a JSON or YAML string. The string is stored and returned as sent
// (the public API echoes it); it is only checked: it must parse into a mapping of phases, each a list of rules
// `{name?, expressions?, actions: [{type, config?}]}`. TCP and TLS edges carry only on_tcp_connect; routes also
// the HTTP phases. Every problem inside the document is ERR_TRAFFIC_POLICY_INVALID naming its place in it.
import { parseDocument } from 'yaml';
import { ServiceError } from '../errors.ts';
import { boolean, fieldPath, isPlainObject, parseObject, string } from '../validate.ts';
import type { ModuleDef } from './edge-module-rules.ts';

export type TrafficPolicyModule = { enabled: boolean; value: string };

/** The largest policy document accepted, in bytes of its text. */
export const TRAFFIC_POLICY_MAX_BYTES = 65_536;
const NAME_MAX_BYTES = 255;
const EXPRESSION_MAX_BYTES = 4096;
const MAX_DEPTH = 32;

export const TCP_PHASES = ['on_tcp_connect'] as const;
export const HTTP_PHASES = ['on_tcp_connect', 'on_http_request', 'on_http_response'] as const;

type Fail = (where: string, problem: string) => never;

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/** JSON first (the common machine-written form), then YAML 1.2 with duplicate keys refused. */
function parsePolicyText(text: string, fail: Fail): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // not JSON: YAML below
  }
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    fail('', `is neither JSON nor YAML${at ? ` (line ${at.line}, column ${at.col})` : ''}: ${error.message.split('\n')[0]}`);
  }
  return doc.toJS({ maxAliasCount: 100 });
}

function checkDepth(value: unknown, where: string, fail: Fail, left: number): void {
  if (typeof value === 'number' && !Number.isFinite(value)) fail(where, 'must be a finite number');
  if (value === null || typeof value !== 'object') return;
  if (left === 0) fail(where, `nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) value.forEach((v, i) => checkDepth(v, `${where}[${i}]`, fail, left - 1));
  else for (const [k, v] of Object.entries(value)) checkDepth(v, fieldPath(where, k), fail, left - 1);
}

function checkKeys(value: Record<string, unknown>, where: string, allowed: readonly string[], fail: Fail): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(fieldPath(where, key), `unknown key; allowed: ${allowed.join(', ')}`);
  }
}

function checkText(value: unknown, where: string, maxBytes: number, fail: Fail): void {
  if (typeof value !== 'string' || value === '') fail(where, `must be a non-empty string, got ${kindOf(value)}`);
  if (Buffer.byteLength(value, 'utf8') > maxBytes) fail(where, `longer than ${maxBytes} bytes`);
}

function checkRule(rule: unknown, where: string, fail: Fail): void {
  if (!isPlainObject(rule)) fail(where, `a rule must be a mapping, got ${kindOf(rule)}`);
  checkKeys(rule, where, ['name', 'expressions', 'actions'], fail);
  if (rule.name !== undefined) checkText(rule.name, fieldPath(where, 'name'), NAME_MAX_BYTES, fail);
  if (rule.expressions !== undefined) {
    if (!Array.isArray(rule.expressions)) fail(fieldPath(where, 'expressions'), `must be a list of CEL expressions, got ${kindOf(rule.expressions)}`);
    rule.expressions.forEach((e, i) => checkText(e, `${fieldPath(where, 'expressions')}[${i}]`, EXPRESSION_MAX_BYTES, fail));
  }
  const actions = rule.actions;
  if (!Array.isArray(actions) || actions.length === 0) fail(fieldPath(where, 'actions'), 'a rule needs a list of at least one action');
  actions.forEach((action, i) => {
    const at = `${fieldPath(where, 'actions')}[${i}]`;
    if (!isPlainObject(action)) fail(at, `an action must be a mapping, got ${kindOf(action)}`);
    checkKeys(action, at, ['type', 'config'], fail);
    checkText(action.type, fieldPath(at, 'type'), NAME_MAX_BYTES, fail);
    if (action.config !== undefined && action.config !== null && !isPlainObject(action.config)) {
      fail(fieldPath(at, 'config'), `must be a mapping, got ${kindOf(action.config)}`);
    }
  });
}

/** Throws ERR_TRAFFIC_POLICY_INVALID unless `text` is a policy document with only `phases`. */
export function checkPolicyDocument(text: string, path: string, phases: readonly string[]): void {
  const fail: Fail = (where, problem) => {
    throw new ServiceError('ERR_TRAFFIC_POLICY_INVALID', `${path}${where ? `: ${where}` : ''}: ${problem}`);
  };
  const doc = parsePolicyText(text, fail);
  if (!isPlainObject(doc)) fail('', `must be a policy document (a mapping of phases such as ${phases.join(', ')}), got ${kindOf(doc)}`);
  checkDepth(doc, '', fail, MAX_DEPTH);
  checkKeys(doc, '', phases, fail);
  for (const phase of phases) {
    const rules = doc[phase];
    if (rules === undefined || rules === null) continue;
    if (!Array.isArray(rules)) fail(phase, `must be a list of rules, got ${kindOf(rules)}`);
    rules.forEach((rule, i) => checkRule(rule, `${phase}[${i}]`, fail));
  }
}

/** The module for an edge or route whose traffic has `phases`. */
export function trafficPolicyModule(phases: readonly string[]): ModuleDef<TrafficPolicyModule> {
  return {
    name: 'traffic_policy',
    parse(value, path) {
      const m = parseObject(value, path, {
        enabled: boolean(),
        value: string({ nonEmpty: true, maxBytes: TRAFFIC_POLICY_MAX_BYTES, tooLong: 'ERR_TRAFFIC_POLICY_INVALID' }),
      }, ['value']);
      checkPolicyDocument(m.value!, fieldPath(path, 'value'), phases);
      return { enabled: m.enabled ?? true, value: m.value! };
    },
    render: (m) => ({ enabled: m.enabled, value: m.value }),
    refs: () => [],
  };
}
