// /ip_policies: the smallest resource, and the worked example of a collection (see
// /work/notes/service-internals.md). Rules reference their policy, so deleting a policy that still has rules
// (or is used by an edge's ip_restriction) is a 409 naming them: the reconciler deletes dependents first.
import { ipPolicy } from '../../contract/kinds/policies.ts';
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields } from '../resource-def.ts';

export interface IpPolicyDoc {
  description?: string;
  metadata?: string;
}

export default defineCollection<IpPolicyDoc>({
  kind: ipPolicy,
  render: (doc, ctx) => ({ ...baseFields(ctx, doc), ...describedFields(doc.data) }),
});
