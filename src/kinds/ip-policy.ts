// IP policy (/ip_policies): a named container for IP policy rules; description and metadata only.
import { describedKeys } from './adopt-keys.ts';
import { crudHooks } from './crud.ts';
import { dropEmptyStrings, pickFields } from './normalize.ts';
import type { Obj, ResourceKind } from './resource-kind.ts';

const FIELDS = ['description', 'metadata'];
const fromLive = (raw: Obj): Obj => dropEmptyStrings(pickFields(raw, FIELDS));

export const ipPolicy: ResourceKind = {
  kind: 'IPPolicy',
  idPrefix: 'ipp_',
  identity: 'marker',
  refs: [],
  immutable: [],
  secrets: [],
  writeOnly: [],
  modules: [],
  toRequest: (spec) => ({ ...spec }),
  fromLive,
  normalizeDesired: (body) => dropEmptyStrings(body),
  adoptKeys: describedKeys,
  ...crudHooks({ path: '/ip_policies', listKey: 'ip_policies', fromLive }),
};
