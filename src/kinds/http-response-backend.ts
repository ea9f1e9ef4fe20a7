// HTTP response backend (/backends/http_response): a fixed body, headers and status code.
import { describedKeys } from './adopt-keys.ts';
import { crudHooks } from './crud.ts';
import { dropEmptyStrings, isObj, lowerKeys, pickFields } from './normalize.ts';
import type { Obj, ResourceKind } from './resource-kind.ts';

const FIELDS = ['description', 'metadata', 'body', 'headers', 'status_code'];
/** What the service stores when no status_code is sent. */
export const DEFAULT_STATUS_CODE = 200;

/** Header names lower-cased as the service returns them; no headers = `{}` = null; status 200 by default. */
function normalize(body: Obj): Obj {
  const out = dropEmptyStrings(body);
  if (isObj(out.headers) && Object.keys(out.headers).length > 0) out.headers = lowerKeys(out.headers);
  else delete out.headers;
  out.status_code ??= DEFAULT_STATUS_CODE;
  return out;
}

const fromLive = (raw: Obj): Obj => normalize(pickFields(raw, FIELDS));

export const httpResponseBackend: ResourceKind = {
  kind: 'HTTPResponseBackend',
  idPrefix: 'bkdhr_',
  identity: 'marker',
  refs: [],
  immutable: [],
  secrets: [],
  writeOnly: [],
  modules: [],
  toRequest: (spec) => ({ ...spec }),
  fromLive,
  normalizeDesired: normalize,
  adoptKeys: describedKeys,
  ...crudHooks({
    path: '/backends/http_response',
    listKey: 'backends',
    fromLive,
    clear: { headers: {}, body: '' },
  }),
};
