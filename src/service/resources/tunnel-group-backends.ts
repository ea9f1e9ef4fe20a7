// /backends/tunnel_group. This service runs no tunnels, so `tunnels` is always the empty list.
// labels are optional on create (default {}) and replaced whole when a PATCH sends them.
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields, type KindDef } from '../resource-def.ts';
import { description, metadata, parseBody, stringMap } from '../validate.ts';

export interface TunnelGroupBackendDoc {
  description?: string;
  metadata?: string;
  labels: Record<string, string>;
}

export const tunnelGroupBackendKind: KindDef = {
  kind: 'tunnel_group_backend',
  prefix: 'bkdtg',
  label: 'tunnel group backend',
  path: '/backends/tunnel_group',
  notFound: 'ERR_TUNNEL_GROUP_BACKEND_NOT_FOUND',
};

const fields = { description, metadata, labels: stringMap() };

export default defineCollection<TunnelGroupBackendDoc>({
  kind: tunnelGroupBackendKind,
  listKey: 'backends',
  create: (body) => ({ labels: {}, ...parseBody(body, fields) }),
  update: (body, current) => ({ ...current.data, ...parseBody(body, fields) }),
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    labels: doc.data.labels,
    tunnels: [],
  }),
});
