// /event_subscriptions. Sources are stored inside the subscription as a list of types (in the order added)
// and are also served one by one under /event_subscriptions/{id}/sources (event-sources.ts). This service
// delivers no events and serves no event destinations, so any destination id is a 400 reference error and
// `destinations` is always [].
import { defineCollection } from '../collection.ts';
import { ServiceError } from '../errors.ts';
import { baseFields, describedFields, type Ctx, type KindDef } from '../resource-def.ts';
import type { StoredDoc } from '../store.ts';
import { clip, description, list, metadata, object, parseBody, string, type Validator } from '../validate.ts';

export interface EventSubscriptionDoc {
  description?: string;
  metadata?: string;
  /** Event types, in the order they were added. */
  sources: string[];
}

export const eventSubscriptionKind: KindDef = {
  kind: 'event_subscription',
  prefix: 'esb',
  label: 'event subscription',
  path: '/event_subscriptions',
  notFound: 'ERR_EVENT_SUBSCRIPTION_NOT_FOUND',
};

const EVENT_TYPE = /^[a-z_]+\.v[0-9]+$/;

export const eventType: Validator<string> = (value, path) => {
  const text = string()(value, path);
  if (text.length > 128 || !EVENT_TYPE.test(text)) {
    throw new ServiceError('ERR_EVENT_TYPE_INVALID', `${path}: ${JSON.stringify(clip(text))} is not an event type like ip_policy_created.v0`);
  }
  return text;
};

const sourceTypes: Validator<string[]> = (value, path) => {
  const types = list(object({ type: eventType }, ['type']))(value, path).map((s) => s.type!);
  types.forEach((t, i) => {
    if (types.indexOf(t) !== i) throw new ServiceError('ERR_EVENT_TYPE_DUPLICATE', `${path}[${i}].type: ${t} is listed twice`);
  });
  return types;
};

// Validated for shape here; every element is then refused in checkDestinations, since none can exist.
const destinationIds = list(string());

const fields = { description, metadata, sources: sourceTypes, destination_ids: destinationIds };

function checkDestinations(ids: string[] | undefined, ctx: Ctx): void {
  ids?.forEach((id, i) => {
    const doc = ctx.store.get(id);
    const field = `destination_ids[${i}]`;
    if (doc) throw new ServiceError('ERR_REFERENCE_WRONG_KIND', `${field}: ${id} is a ${ctx.kindOf(doc.kind)?.label ?? doc.kind}, expected an event destination`);
    throw new ServiceError('ERR_REFERENCE_NOT_FOUND', `${field}: no event destination with id ${JSON.stringify(clip(id))} (this service serves no event destinations)`);
  });
}

function parse(body: Record<string, unknown>, ctx: Ctx): Omit<EventSubscriptionDoc, 'sources'> & { sources?: string[] } {
  const { destination_ids, ...rest } = parseBody(body, fields);
  checkDestinations(destination_ids, ctx);
  return rest;
}

export function sourceUri(ctx: Ctx, subscriptionId: string, type: string): string {
  return ctx.url(`/event_subscriptions/${encodeURIComponent(subscriptionId)}/sources/${encodeURIComponent(type)}`);
}

export function renderSource(ctx: Ctx, subscriptionId: string, type: string): { type: string; uri: string } {
  return { type, uri: sourceUri(ctx, subscriptionId, type) };
}

export const eventSubscriptions = defineCollection<EventSubscriptionDoc>({
  kind: eventSubscriptionKind,
  listKey: 'event_subscriptions',
  create: (body, ctx) => ({ sources: [], ...parse(body, ctx) }),
  update: (body, current, ctx) => ({ ...current.data, ...parse(body, ctx) }),
  render: (doc: StoredDoc<EventSubscriptionDoc>, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    sources: doc.data.sources.map((t) => renderSource(ctx, doc.id, t)),
    destinations: [],
  }),
});

export default eventSubscriptions;
