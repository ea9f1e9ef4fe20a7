// HTTP response backend (/backends/http_response): a fixed body, headers and status code.
import { describedKeys } from './adopt-keys.ts';
import { httpResponseBackend as contract } from '../contract/kinds/backends.ts';
import { markerKind } from './marker-kind.ts';
import { dropEmptyStrings, isObj, lowerKeys } from './normalize.ts';

/** What the service stores when no status_code is sent. */
const DEFAULT_STATUS_CODE = 200;

export const httpResponseBackend = markerKind({
  kind: 'HTTPResponseBackend',
  contract,
  fields: ['description', 'metadata', 'body', 'headers', 'status_code'],
  // Header names lower-cased as the service returns them; no headers = `{}` = null; status 200 by default.
  normalize: (body) => {
    const out = dropEmptyStrings(body);
    if (isObj(out.headers) && Object.keys(out.headers).length > 0) out.headers = lowerKeys(out.headers);
    else delete out.headers;
    out.status_code ??= DEFAULT_STATUS_CODE;
    return out;
  },
  adoptKeys: describedKeys,
  clear: { headers: {}, body: '' },
});
