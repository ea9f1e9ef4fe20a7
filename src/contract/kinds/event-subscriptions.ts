// Event subscriptions, and their sources: an id-less sub-resource addressed by its type, kept inside the
// subscription. This service serves no event destinations, so destination_ids takes only the empty list in
// practice (every id is a reference error), but its shape is the public API's.
import type { ContractKind } from '../kind.ts';
import { description, metadata, object } from '../schema.ts';

declare module '../kind.ts' {
  interface KindNames {
    event_subscription: true;
  }
}

const eventType = {
  type: 'string' as const, rule: 'event_type' as const,
  description: 'An event type such as ip_policy_created.v0 (^[a-z_]+\\.v[0-9]+$, at most 128 characters).',
};

const fields = object({
  description,
  metadata,
  sources: {
    type: 'array',
    items: object({ type: eventType }, ['type']),
    distinct: { by: 'exact', property: 'type', code: 'ERR_EVENT_TYPE_DUPLICATE' },
    description: 'The event types to subscribe to; replaced whole when sent.',
  },
  destination_ids: { type: 'array', items: { type: 'string' }, description: 'Ids of event destinations.' },
});

export const eventSubscription: ContractKind = {
  kind: 'event_subscription',
  prefix: 'esb',
  label: 'event subscription',
  path: '/event_subscriptions',
  listKey: 'event_subscriptions',
  create: fields,
  update: fields,
  immutable: [],
  modules: [],
  refs: [],
  checks: [],
  echoedIds: ['id'],
  subresources: {
    sources: {
      path: '/event_subscriptions/:subscription_id/sources',
      create: object({ type: eventType }, ['type']),
      // A source has no field to change: PATCH only confirms it, and its body holds at most the echoed ids.
      update: object({}),
      // The official client repeats the path's subscription_id (and, on PATCH, the type) in the body.
      echoedIds: ['subscription_id', 'type'],
    },
  },
};
