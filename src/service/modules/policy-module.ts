// The traffic `policy` module of TCP and TLS edges. The spec's table shows inbound, outbound and actions as
// single objects; the public API and its official client use lists. A single object is accepted as a list of
// one (the contract's schema takes both), and lists are always stored and returned (design: The service). Optional `name`
// and `config` are returned only when sent, so a policy reads back exactly as it was written.
import { policyModule as policyContract } from '../../contract/kinds/edge-modules.ts';
import type { JsonObject } from '../json-values.ts';
import { moduleDef } from './stored-modules.ts';

// Type aliases, not interfaces: they must be assignable to Json for rendering.
type PolicyAction = { type: string; config?: JsonObject };
type PolicyRule = { name?: string; expressions: string[]; actions: PolicyAction[] };
type PolicyModule = { enabled: boolean; inbound: PolicyRule[]; outbound: PolicyRule[] };

function asList<T>(value: unknown): T[] {
  return value === undefined ? [] : Array.isArray(value) ? (value as T[]) : [value as T];
}

function storeRule(rule: JsonObject): PolicyRule {
  const out: PolicyRule = {
    expressions: rule.expressions as string[],
    // The checked action holds only type and (when sent) config, and config was kept as parsed: every key,
    // "__proto__" too, is an own property.
    actions: asList<PolicyAction>(rule.actions),
  };
  return rule.name === undefined ? out : { name: rule.name as string, ...out };
}

export const policyModule = moduleDef<PolicyModule>(policyContract, {
  store: (m) => ({
    enabled: (m.enabled as boolean | undefined) ?? true,
    inbound: asList<JsonObject>(m.inbound).map(storeRule),
    outbound: asList<JsonObject>(m.outbound).map(storeRule),
  }),
  render: (m) => ({ enabled: m.enabled, inbound: m.inbound, outbound: m.outbound }),
});
