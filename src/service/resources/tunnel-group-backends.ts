// /backends/tunnel_group. This service runs no tunnels, so `tunnels` is always the empty list.
// labels are optional on create (default {}) and replaced whole when a PATCH sends them.
import { tunnelGroupBackend } from '../../contract/kinds/backends.ts';
import { defineCollection } from '../collection.ts';
import { baseFields, describedFields } from '../resource-def.ts';

interface TunnelGroupBackendDoc {
  description?: string;
  metadata?: string;
  labels: Record<string, string>;
}

export default defineCollection<TunnelGroupBackendDoc>({
  kind: tunnelGroupBackend,
  create: (body) => ({ labels: {}, ...body }),
  render: (doc, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    labels: doc.data.labels,
    tunnels: [],
  }),
});
