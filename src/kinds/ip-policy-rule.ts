// IP policy rule (/ip_policy_rules): one CIDR allowed or denied in one policy. The service cannot change a
// rule's action or policy, so those are immutable (a change replaces the rule).
import { fieldsKey } from './adopt-keys.ts';
import { ipPolicyRule as contract } from '../contract/kinds/policies.ts';
import { markerKind } from './marker-kind.ts';
import { refId } from './normalize.ts';

export const ipPolicyRule = markerKind({
  kind: 'IPPolicyRule',
  contract,
  fields: ['description', 'metadata', 'cidr', 'ip_policy_id', 'action'],
  liveShape: (raw) => ({ ...raw, ip_policy_id: raw.ip_policy_id ?? refId(raw.ip_policy) }),
  // Not by description: a rule of another policy with the same words must not be adopted (and replaced).
  adoptKeys: (body) => fieldsKey('rule', body, ['ip_policy_id', 'cidr']),
  brief: (body) => `${String(body.cidr)} ${String(body.action)}`,
  partNoun: 'rules',
});
