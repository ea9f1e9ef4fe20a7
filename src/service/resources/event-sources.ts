// /event_subscriptions/{subscription_id}/sources[/{type}]: an id-less sub-resource addressed by its type, kept
// inside the subscription document. The list has no pagination (no next_page_uri), like the public API;
// limit/before_id are accepted and ignored so generic paginating clients still work.
import { loadDoc, saveDoc } from '../collection.ts';
import { ServiceError } from '../errors.ts';
import { checkQuery } from '../pagination.ts';
import { created, noContent, ok, type Ctx, type ResourceModule } from '../resource-def.ts';
import type { StoredDoc } from '../store.ts';
import { eventSubscription } from '../../contract/kinds/event-subscriptions.ts';
import { checkBody } from '../bodies.ts';
import { withoutEchoedIds } from '../echoed-ids.ts';
import { clip } from '../json-values.ts';
import { eventSubscriptions, renderSource, type EventSubscriptionDoc } from './event-subscriptions.ts';

const SOURCES = eventSubscription.subresources!.sources!;
const BASE = SOURCES.path;

function subscription(ctx: Ctx): Promise<StoredDoc<EventSubscriptionDoc>> {
  return loadDoc<EventSubscriptionDoc>(ctx, eventSubscriptions.def, ctx.params.subscription_id!);
}

function existingType(ctx: Ctx, doc: StoredDoc<EventSubscriptionDoc>): string {
  const type = ctx.params.type!;
  if (!doc.data.sources.includes(type)) {
    throw new ServiceError('ERR_EVENT_SOURCE_NOT_FOUND', `${doc.id} has no source of type ${JSON.stringify(clip(type))}`);
  }
  return type;
}

const eventSources: ResourceModule = {
  kinds: [],
  routes: [
    {
      method: 'POST', path: BASE, handler: async (ctx) => {
        const doc = await subscription(ctx);
        const body = checkBody(SOURCES.create, withoutEchoedIds(SOURCES.echoedIds, ctx.body, ctx.params)) as { type: string };
        const type = body.type;
        if (doc.data.sources.includes(type)) throw new ServiceError('ERR_EVENT_SOURCE_EXISTS', `type: ${doc.id} already has a source of type ${type}`);
        await saveDoc(ctx, eventSubscriptions.def, doc, { ...doc.data, sources: [...doc.data.sources, type] });
        return created(renderSource(ctx, doc.id, type));
      },
    },
    {
      method: 'GET', path: BASE, handler: async (ctx) => {
        checkQuery(ctx.query, new Set(['limit', 'before_id']));
        const doc = await subscription(ctx);
        return ok({ sources: doc.data.sources.map((t) => renderSource(ctx, doc.id, t)), uri: ctx.url(ctx.path) });
      },
    },
    {
      method: 'GET', path: `${BASE}/:type`, handler: async (ctx) => {
        const doc = await subscription(ctx);
        return ok(renderSource(ctx, doc.id, existingType(ctx, doc)));
      },
    },
    {
      // Sources have no updatable fields; PATCH confirms the source exists and echoes it.
      method: 'PATCH', path: `${BASE}/:type`, handler: async (ctx) => {
        const doc = await subscription(ctx);
        const type = existingType(ctx, doc);
        checkBody(SOURCES.update, withoutEchoedIds(SOURCES.echoedIds, ctx.body, ctx.params));
        return ok(renderSource(ctx, doc.id, type));
      },
    },
    {
      method: 'DELETE', path: `${BASE}/:type`, handler: async (ctx) => {
        const doc = await subscription(ctx);
        const type = existingType(ctx, doc);
        await saveDoc(ctx, eventSubscriptions.def, doc, { ...doc.data, sources: doc.data.sources.filter((t) => t !== type) });
        return noContent();
      },
    },
  ],
};

export default eventSources;
