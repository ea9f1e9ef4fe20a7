// /ip_policies: the smallest resource, and the worked example of a collection (see
// /work/notes/service-internals.md). Rules reference their policy, so deleting a policy that still has rules
// (or is used by an edge's ip_restriction) is a 409 naming them: the reconciler deletes dependents first.
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields, type KindDef } from '../resource-def.ts';
import { description, metadata, parseBody } from '../validate.ts';

export interface IpPolicyDoc {
  description?: string;
  metadata?: string;
}

export const ipPolicyKind: KindDef = {
  kind: 'ip_policy',
  prefix: 'ipp',
  label: 'IP policy',
  path: '/ip_policies',
  notFound: 'ERR_IP_POLICY_NOT_FOUND',
};

const fields = { description, metadata };

export default defineCollection<IpPolicyDoc>({
  kind: ipPolicyKind,
  listKey: 'ip_policies',
  create: (body) => parseBody(body, fields),
  update: (body, current) => ({ ...current.data, ...parseBody(body, fields) }),
  render: (doc, ctx) => ({ ...baseFields(ctx, doc), ...describedFields(doc.data) }),
});
