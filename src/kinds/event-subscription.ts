// Event subscription (/event_subscriptions). Its sources are managed by the EventSources kind (natural key =
// subscription id), so they are neither sent on create nor compared here.
import { describedKeys } from './adopt-keys.ts';
import { eventSubscription as contract } from '../contract/kinds/event-subscriptions.ts';
import { markerKind } from './marker-kind.ts';
import { dropEmptyStrings, refIds } from './normalize.ts';

export const eventSubscription = markerKind({
  kind: 'EventSubscription',
  contract,
  fields: ['description', 'metadata', 'destination_ids'],
  liveShape: (raw) => ({ ...raw, destination_ids: raw.destination_ids ?? refIds(raw.destinations) }),
  normalize: (body) => {
    const out = dropEmptyStrings(body);
    delete out.sources;
    if (!Array.isArray(out.destination_ids)) out.destination_ids = [];
    return out;
  },
  toRequest: ({ sources: _sources, ...spec }) => ({ ...spec }),
  adoptKeys: describedKeys,
  clear: { destination_ids: [] },
});
