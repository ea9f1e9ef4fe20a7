// Tunnel group backend (/backends/tunnel_group): selects tunnels by labels. The live `tunnels` list is
// the service's observation, not configuration, so it is dropped.
import { describedKeys, labelKeys } from './adopt-keys.ts';
import { tunnelGroupBackend as contract } from '../contract/kinds/backends.ts';
import { markerKind } from './marker-kind.ts';
import { dropEmptyStrings, isObj } from './normalize.ts';

export const tunnelGroupBackend = markerKind({
  kind: 'TunnelGroupBackend',
  contract,
  fields: ['description', 'metadata', 'labels'],
  // No labels and `labels: {}` select the same (no) tunnels.
  normalize: (body) => {
    const out = dropEmptyStrings(body);
    if (!isObj(out.labels)) out.labels = {};
    return out;
  },
  adoptKeys: (body, name) => [...labelKeys(body), ...describedKeys(body, name)],
  clear: { labels: {} },
});
