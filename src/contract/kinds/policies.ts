// IP policies and their rules. A rule belongs to one policy for life: its policy and action are create-only
// (the reconciler replaces a rule instead). A cidr is an IPv4/IPv6 address or range, stored as sent.
import type { ContractKind } from '../kind.ts';
import { description, id, metadata, object, optional } from '../schema.ts';

declare module '../kind.ts' {
  interface KindNames {
    ip_policy: true;
    ip_policy_rule: true;
  }
}

const common = { description, metadata };

export const ipPolicy: ContractKind = {
  kind: 'ip_policy',
  prefix: 'ipp',
  label: 'IP policy',
  path: '/ip_policies',
  listKey: 'ip_policies',
  create: object(common),
  update: object(common),
  immutable: [],
  modules: [],
  refs: [],
  checks: [],
  echoedIds: ['id'],
};

const ruleCreate = object({
  ...common,
  cidr: {
    type: 'string', rule: 'cidr',
    description: 'An IPv4 or IPv6 address or CIDR range (10.0.0.0/8); no host bits beyond the mask, no zone id.',
  },
  ip_policy_id: id,
  action: { type: 'string', enum: ['allow', 'deny'], errorCode: 'ERR_ACTION_INVALID' },
}, ['cidr', 'ip_policy_id', 'action']);

export const ipPolicyRule: ContractKind = {
  kind: 'ip_policy_rule',
  prefix: 'ipr',
  label: 'IP policy rule',
  path: '/ip_policy_rules',
  listKey: 'ip_policy_rules',
  create: ruleCreate,
  update: optional(ruleCreate, ['ip_policy_id', 'action']),
  immutable: ['action', 'ip_policy_id'],
  modules: [],
  refs: [{ field: 'ip_policy_id', kinds: ['ip_policy'] }],
  checks: [],
  echoedIds: ['id'],
};
