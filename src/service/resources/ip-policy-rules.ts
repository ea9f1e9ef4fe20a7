// /ip_policy_rules. A rule belongs to one IP policy for life: `action` and `ip_policy_id` are create-only (a
// PATCH naming them is a 400, the reconciler replaces the rule instead). The cidr is stored as sent: a bare
// address is accepted and means /32 or /128; a range with host bits set is refused rather than normalized,
// so what a client sent is what it reads back.
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields, type KindDef } from '../resource-def.ts';
import { cidr, description, metadata, oneOf, parseBody, string } from '../validate.ts';

export interface IpPolicyRuleDoc {
  description?: string;
  metadata?: string;
  cidr: string;
  ip_policy_id: string;
  action: 'allow' | 'deny';
}

export const ipPolicyRuleKind: KindDef = {
  kind: 'ip_policy_rule',
  prefix: 'ipr',
  label: 'IP policy rule',
  path: '/ip_policy_rules',
  notFound: 'ERR_IP_POLICY_RULE_NOT_FOUND',
};

const createFields = {
  description,
  metadata,
  cidr: cidr(),
  ip_policy_id: string({ nonEmpty: true }),
  action: oneOf(['allow', 'deny'], 'ERR_ACTION_INVALID'),
};
const updateFields = { description, metadata, cidr: cidr() };

export default defineCollection<IpPolicyRuleDoc>({
  kind: ipPolicyRuleKind,
  listKey: 'ip_policy_rules',
  create: (body) => parseBody(body, createFields, { required: ['cidr', 'ip_policy_id', 'action'] }) as IpPolicyRuleDoc,
  update: (body, current) => ({ ...current.data, ...parseBody(body, updateFields, { immutable: ['action', 'ip_policy_id'] }) }),
  refs: (data) => [{ field: 'ip_policy_id', id: data.ip_policy_id, kinds: ['ip_policy'] }],
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    cidr: doc.data.cidr,
    ip_policy: ctx.ref(doc.data.ip_policy_id),
    action: doc.data.action,
  }),
});
