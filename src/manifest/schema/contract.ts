// A manifest schema node from a contract request-body schema (src/contract): the contract says once what the
// service takes (types, enums, limits, required fields, value rules); this says how a manifest writes the same.
// Where a manifest differs: reference fields take a name or a literal id; optional module fields and modules
// take null for "unset"; the traffic policy value is a document mapping or its text from a string, file or
// variable; fields the reconciler fills when left out are not required. The contract's own keywords become what
// the manifest's validator (and an editor) knows: maxBytes -> maxLength (the rules stage counts description bytes),
// distinct -> uniqueItems, rule cidr/hostport -> format, header_name -> pattern. The value rules without a JSON
// Schema form (header values, event types, URL paths, policy text, case-insensitive duplicates) are checked after
// names are resolved, through the contract itself (contract-check.ts), at the same positions.
import type { BodySchema, RuleName } from '../../contract/index.ts';
import { HTTP_PHASES, TCP_PHASES } from '../../contract/traffic-policy.ts';
import { trafficPolicyModule } from './modules.ts';
import { HEADER_NAME_PATTERN, ref, unsettable, type Schema } from './parts.ts';

const RULE_KEYWORDS: Partial<Record<RuleName, Schema>> = {
  cidr: { format: 'cidr' },
  hostport: { format: 'hostport' },
  header_name: { pattern: HEADER_NAME_PATTERN, errorMessage: 'is not a valid header name' },
};

const POLICY_PHASES: Partial<Record<RuleName, readonly string[]>> = { traffic_policy_tcp: TCP_PHASES, traffic_policy_http: HTTP_PHASES };

/**
 * Body paths (in the contract's notation, `[]` = every item) of required fields the reconciler fills when a
 * manifest leaves them out: TLS terminates at the edge by default, a policy rule without expressions matches all.
 */
const FILLED_BY_RECONCILER = new Set(['tls_termination.terminate_at', 'policy.inbound[].expressions', 'policy.outbound[].expressions']);

interface FromContract {
  /** Body paths of reference fields (`backend.backend_id`, `ip_restriction.ip_policy_ids[]`). */
  refs: ReadonlySet<string>;
  /** Top-level fields that are modules: null means "unset" for them and for their optional fields. */
  modules: ReadonlySet<string>;
}

const child = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** The traffic_policy module, when `node` is one: its value is checked by a traffic policy rule. */
function policyPhases(node: BodySchema): readonly string[] | undefined {
  const rule = node.properties?.value?.rule;
  return rule === undefined ? undefined : POLICY_PHASES[rule];
}

function translateObject(node: BodySchema, path: string, ctx: FromContract, inModule: boolean): Schema {
  const properties: Schema = {};
  const required = (node.required ?? []).filter((f) => !FILLED_BY_RECONCILER.has(child(path, f)));
  for (const [key, sub] of Object.entries(node.properties ?? {})) {
    if (sub.refused !== undefined) continue; // a field the endpoint never takes: unknown to a manifest
    const isModule = path === '' && ctx.modules.has(key);
    const phases = isModule ? policyPhases(sub) : undefined;
    if (phases) {
      properties[key] = trafficPolicyModule(phases, sub.description);
      continue;
    }
    const field = translate(sub, child(path, key), ctx, inModule || isModule);
    properties[key] = isModule || (inModule && !required.includes(key)) ? unsettable(field) : field;
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** The manifest schema of one contract node at body path `path`. */
export function translate(node: BodySchema, path: string, ctx: FromContract, inModule = false): Schema {
  if (ctx.refs.has(path)) return { ...ref };
  const out: Schema = {};
  const types = ([] as string[]).concat(node.type ?? []);
  if (types.includes('array') && node.items) {
    // "One object or a list of them": a manifest writes the list.
    out.type = 'array';
    out.items = translate(node.items, `${path}[]`, ctx, inModule);
  } else if (node.properties) {
    Object.assign(out, translateObject(node, path, ctx, inModule));
  } else if (node.type !== undefined) {
    out.type = node.type;
  }
  if (typeof node.additionalProperties === 'object') out.additionalProperties = translate(node.additionalProperties, `${path}.*`, ctx, inModule);
  if (node.mapKeys === 'header_name') out.propertyNames = { pattern: HEADER_NAME_PATTERN, errorMessage: 'is not a valid header name' };
  if (node.enum) out.enum = [...node.enum];
  if (node.minimum !== undefined) out.minimum = node.minimum;
  if (node.maximum !== undefined) out.maximum = node.maximum;
  if (node.minLength !== undefined) out.minLength = node.minLength;
  if (node.maxBytes !== undefined) out.maxLength = node.maxBytes;
  if (node.minItems !== undefined) out.minItems = node.minItems;
  if (node.maxItems !== undefined) out.maxItems = node.maxItems;
  if (node.distinct) out.uniqueItems = true;
  if (node.rule) Object.assign(out, RULE_KEYWORDS[node.rule]);
  if (node.description !== undefined) out.description = node.description;
  return out;
}
