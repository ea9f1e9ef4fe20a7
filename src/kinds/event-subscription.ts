// Event subscription (/event_subscriptions). Its sources are managed by the EventSources kind (natural key =
// subscription id), so they are neither sent on create nor compared here.
import { describedKeys } from './adopt-keys.ts';
import { crudHooks } from './crud.ts';
import { dropEmptyStrings, pickFields, refIds } from './normalize.ts';
import type { Obj, ResourceKind } from './resource-kind.ts';

const FIELDS = ['description', 'metadata', 'destination_ids'];

function normalize(body: Obj): Obj {
  const out = dropEmptyStrings(body);
  delete out.sources;
  if (!Array.isArray(out.destination_ids)) out.destination_ids = [];
  return out;
}

const fromLive = (raw: Obj): Obj =>
  normalize(pickFields({ ...raw, destination_ids: raw.destination_ids ?? refIds(raw.destinations) }, FIELDS));

export const eventSubscription: ResourceKind = {
  kind: 'EventSubscription',
  idPrefix: 'esb_',
  identity: 'marker',
  refs: [],
  immutable: [],
  secrets: [],
  writeOnly: [],
  modules: [],
  toRequest: ({ sources: _sources, ...spec }) => ({ ...spec }),
  fromLive,
  normalizeDesired: normalize,
  adoptKeys: describedKeys,
  ...crudHooks({
    path: '/event_subscriptions',
    listKey: 'event_subscriptions',
    fromLive,
    clear: { destination_ids: [] },
  }),
};
