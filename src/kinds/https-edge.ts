// HTTPS edge (/edges/https): hostports plus mutual_tls and tls_termination (always at the edge). Its routes
// are their own kind (HTTPSEdgeRoute), so the embedded `routes` list is dropped here.
import { hostportKeys } from './adopt-keys.ts';
import { crudHooks, moduleHooks } from './crud.ts';
import { MUTUAL_TLS_REF, edgeNormalizer } from './edge-kind.ts';
import { httpsTlsTermination, mutualTls } from './edge-modules.ts';
import { pickFields } from './normalize.ts';
import type { Obj, ResourceKind } from './resource-kind.ts';

const PATH = '/edges/https';
export const HTTPS_EDGES_LIST_KEY = 'https_edges';
const MODULES = { mutual_tls: mutualTls, tls_termination: httpsTlsTermination };
const MODULE_NAMES = Object.keys(MODULES);
const FIELDS = ['description', 'metadata', 'hostports', ...MODULE_NAMES];

const normalize = edgeNormalizer(MODULES);
const fromLive = (raw: Obj): Obj => normalize(pickFields(raw, FIELDS));

export const httpsEdge: ResourceKind = {
  kind: 'HTTPSEdge',
  idPrefix: 'edghts_',
  identity: 'marker',
  refs: [MUTUAL_TLS_REF],
  immutable: [],
  secrets: [],
  writeOnly: [],
  modules: MODULE_NAMES,
  toRequest: (spec) => ({ ...spec }),
  fromLive,
  normalizeDesired: normalize,
  adoptKeys: hostportKeys,
  ...crudHooks({ path: PATH, listKey: HTTPS_EDGES_LIST_KEY, fromLive, modules: MODULE_NAMES }),
  ...moduleHooks((live) => `${PATH}/${live.id}`),
};
