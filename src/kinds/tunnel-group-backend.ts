// Tunnel group backend (/backends/tunnel_group): selects tunnels by labels. The live `tunnels` list is
// the service's observation, not configuration, so it is dropped.
import { describedKeys, labelKeys } from './adopt-keys.ts';
import { crudHooks } from './crud.ts';
import { dropEmptyStrings, isObj, pickFields } from './normalize.ts';
import type { Obj, ResourceKind } from './resource-kind.ts';

const FIELDS = ['description', 'metadata', 'labels'];

/** No labels and `labels: {}` select the same (no) tunnels. */
function normalize(body: Obj): Obj {
  const out = dropEmptyStrings(body);
  if (!isObj(out.labels)) out.labels = {};
  return out;
}

const fromLive = (raw: Obj): Obj => normalize(pickFields(raw, FIELDS));

export const tunnelGroupBackend: ResourceKind = {
  kind: 'TunnelGroupBackend',
  idPrefix: 'bkdtg_',
  identity: 'marker',
  refs: [],
  immutable: [],
  secrets: [],
  writeOnly: [],
  modules: [],
  toRequest: (spec) => ({ ...spec }),
  fromLive,
  normalizeDesired: normalize,
  adoptKeys: (body, name) => [...labelKeys(body), ...describedKeys(body, name)],
  ...crudHooks({ path: '/backends/tunnel_group', listKey: 'backends', fromLive, clear: { labels: {} } }),
};
