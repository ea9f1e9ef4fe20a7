// The event sources of one event subscription, managed as a set: natural key = subscription id, and a
// manifest document states the full set of types. Live sets come from the subscriptions list's embedded
// `sources`; changes are POSTs of missing types and DELETEs of extra ones.
import { ApiError } from '../errors.ts';
import { deleteIfPresent } from './crud.ts';
import { naturalKind } from './natural-kind.ts';
import { isObj } from './normalize.ts';
import type { Api, Json, LiveItem, Obj, ResourceKind } from './resource-kind.ts';

const SUBSCRIPTIONS = '/event_subscriptions';
const sourcesPath = (subscriptionId: Json | undefined): string => `${SUBSCRIPTIONS}/${String(subscriptionId)}/sources`;

/** A set: order carries no meaning, duplicates none. */
function typeSet(types: Json | undefined): string[] {
  const list = Array.isArray(types) ? types.filter((t): t is string => typeof t === 'string') : [];
  return [...new Set(list)].sort();
}

function typesOf(sources: Json | undefined): string[] {
  return typeSet(Array.isArray(sources) ? sources.filter(isObj).map((s) => s.type ?? null) : []);
}

function normalize(body: Obj): Obj {
  return { subscription_id: body.subscription_id ?? null, types: typeSet(body.types) };
}

async function sourceExists(api: Api, itemPath: string): Promise<boolean> {
  try {
    await api.get(itemPath);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}

/**
 * POST one missing type, safe to repeat. After an ambiguous failure (5xx, a connection dropped after the
 * service committed) the client retries only when a GET of the source answers 404; a source found by that GET,
 * or a 409 to a retried POST for a source that now exists, means an earlier attempt landed and lost its answer.
 */
async function addSource(api: Api, subscriptionId: Json | undefined, type: string): Promise<void> {
  const path = sourcesPath(subscriptionId);
  const itemPath = `${path}/${encodeURIComponent(type)}`;
  let checks = 0;
  let landed = false;
  const checked = api.retryPostIf?.(async () => {
    checks++;
    landed = await sourceExists(api, itemPath);
    return !landed;
  }) ?? api;
  try {
    await checked.post(path, { type });
  } catch (err) {
    if (landed) return;
    if (checks > 0 && err instanceof ApiError && err.status === 409 && (await sourceExists(api, itemPath))) return;
    throw err;
  }
}

/**
 * Make the subscription's sources exactly `desired`. Reads the current set first rather than trusting the
 * plan's view, so a retried or repeated apply never POSTs a type twice.
 */
async function sync(api: Api, body: Obj): Promise<LiveItem> {
  const subscriptionId = body.subscription_id;
  const want = typeSet(body.types);
  const have = typesOf((await api.get(sourcesPath(subscriptionId))).sources);
  for (const type of want.filter((t) => !have.includes(t))) await addSource(api, subscriptionId, type);
  for (const type of have.filter((t) => !want.includes(t))) {
    await deleteIfPresent(api, `${sourcesPath(subscriptionId)}/${encodeURIComponent(type)}`);
  }
  const raw: Obj = { subscription_id: subscriptionId ?? null, types: want };
  return { id: String(subscriptionId), raw };
}

export const eventSources: ResourceKind = naturalKind({
  kind: 'EventSources',
  refs: [{ pointer: '/subscription_id', kinds: ['EventSubscription'] }],
  immutable: ['subscription_id'],
  normalize,
  naturalKey: (body) => String(body.subscription_id),
  async fetch(ctx) {
    const subs = await ctx.listOnce(SUBSCRIPTIONS, 'event_subscriptions');
    return subs
      .filter((s) => typesOf(s.sources).length > 0)
      .map((s) => ({ id: String(s.id), raw: { subscription_id: s.id ?? null, types: typesOf(s.sources) } }));
  },
  write: sync,
  async delete(api, live) {
    for (const type of typeSet(live.raw.types)) {
      await deleteIfPresent(api, `${sourcesPath(live.raw.subscription_id)}/${encodeURIComponent(type)}`);
    }
  },
});
