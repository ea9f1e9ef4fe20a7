// /ip_policy_rules. A rule belongs to one IP policy for life: `action` and `ip_policy_id` are create-only (a
// PATCH naming them is a 400, the reconciler replaces the rule instead). The cidr is stored as sent: a bare
// address is accepted and means /32 or /128; a range with host bits set is refused rather than normalized,
// so what a client sent is what it reads back.
import { ipPolicyRule } from '../../contract/kinds/policies.ts';
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields } from '../resource-def.ts';

interface IpPolicyRuleDoc {
  description?: string;
  metadata?: string;
  cidr: string;
  ip_policy_id: string;
  action: 'allow' | 'deny';
}

export default defineCollection<IpPolicyRuleDoc>({
  kind: ipPolicyRule,
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    cidr: doc.data.cidr,
    ip_policy: ctx.ref(doc.data.ip_policy_id),
    action: doc.data.action,
  }),
});
