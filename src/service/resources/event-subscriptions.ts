// /event_subscriptions. Sources are stored inside the subscription as a list of types (in the order added)
// and are also served one by one under /event_subscriptions/{id}/sources (event-sources.ts). This service
// delivers no events and serves no event destinations, so any destination id is a 400 reference error and
// `destinations` is always [].
import { eventSubscription } from '../../contract/kinds/event-subscriptions.ts';
import { defineCollection } from '../collection.ts';
import { ServiceError } from '../errors.ts';
import { baseFields, describedFields, type Ctx } from '../resource-def.ts';
import type { StoredDoc } from '../store.ts';
import { clip, type JsonObject } from '../json-values.ts';

export interface EventSubscriptionDoc {
  description?: string;
  metadata?: string;
  /** Event types, in the order they were added. */
  sources: string[];
}

async function checkDestinations(ids: string[] | undefined, ctx: Ctx): Promise<void> {
  const [id] = ids ?? [];
  if (id === undefined) return;
  const doc = await ctx.tx.get(id);
  const field = 'destination_ids[0]';
  if (doc) throw new ServiceError('ERR_REFERENCE_WRONG_KIND', `${field}: ${id} is a ${ctx.kindOf(doc.kind)?.label ?? doc.kind}, expected an event destination`);
  throw new ServiceError('ERR_REFERENCE_NOT_FOUND', `${field}: no event destination with id ${JSON.stringify(clip(id))} (this service serves no event destinations)`);
}

/** A checked body as stored: sources as their types; destination ids refused (none can exist). */
async function parse(body: JsonObject, ctx: Ctx): Promise<Omit<EventSubscriptionDoc, 'sources'> & { sources?: string[] }> {
  const { destination_ids, sources, ...rest } = body as { destination_ids?: string[]; sources?: { type: string }[] };
  await checkDestinations(destination_ids, ctx);
  return sources === undefined ? rest : { ...rest, sources: sources.map((s) => s.type) };
}

function sourceUri(ctx: Ctx, subscriptionId: string, type: string): string {
  return ctx.url(`/event_subscriptions/${encodeURIComponent(subscriptionId)}/sources/${encodeURIComponent(type)}`);
}

export function renderSource(ctx: Ctx, subscriptionId: string, type: string): { type: string; uri: string } {
  return { type, uri: sourceUri(ctx, subscriptionId, type) };
}

export const eventSubscriptions = defineCollection<EventSubscriptionDoc>({
  kind: eventSubscription,
  create: async (body, ctx) => ({ sources: [], ...await parse(body, ctx) }),
  update: async (body, current, ctx) => ({ ...current.data, ...await parse(body, ctx) }),
  render: (doc: StoredDoc<EventSubscriptionDoc>, ctx) => ({
    ...baseFields(ctx, doc),
    ...describedFields(doc.data),
    sources: doc.data.sources.map((t) => renderSource(ctx, doc.id, t)),
    destinations: [],
  }),
});

export default eventSubscriptions;
