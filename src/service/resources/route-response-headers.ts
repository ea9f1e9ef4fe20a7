// The response_headers module of an HTTPS edge route: {enabled, add: {name: value}, remove: [name]}.
// Header names must be HTTP tokens (RFC 9110 tchar); names in `add` are lower-cased (as the public API
// returns them), names in `remove` are kept as sent; two names equal ignoring case are a 400 in either list.
// Unsent `add` is returned as {} and unsent `remove` as []. Its endpoints (PUT/GET/DELETE
// /edges/https/{edge_id}/routes/{id}/response_headers) are built with the route's other module endpoints.
import { ServiceError } from '../errors.ts';
import { boolean, clip, fieldPath, isPlainObject, parseObject, type Validator } from '../validate.ts';
import type { ModuleDef } from './edge-module-rules.ts';

export type ResponseHeadersModule = { enabled: boolean; add: Record<string, string>; remove: string[] };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Control characters other than horizontal tab would split or corrupt the header line.
const BAD_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

function headerName(name: string, path: string): void {
  if (!TOKEN.test(name)) {
    throw new ServiceError('ERR_HEADER_NAME_INVALID', `${path}: ${JSON.stringify(clip(name))} is not a valid HTTP header name`);
  }
}

const add: Validator<Record<string, string>> = (value, path) => {
  if (!isPlainObject(value)) throw new ServiceError('ERR_FIELD_TYPE', `${path}: expected an object of header name to value`);
  // A Map, then fromEntries: a plain object would swallow a header named "__proto__".
  const out = new Map<string, string>();
  for (const [name, v] of Object.entries(value)) {
    const p = fieldPath(path, name);
    headerName(name, p);
    if (typeof v !== 'string') throw new ServiceError('ERR_FIELD_TYPE', `${p}: expected a string`);
    if (BAD_VALUE.test(v)) throw new ServiceError('ERR_HEADER_VALUE_INVALID', `${p}: the value holds control characters`);
    const key = name.toLowerCase();
    if (out.has(key)) throw new ServiceError('ERR_HEADER_DUPLICATE', `${p}: ${JSON.stringify(clip(name))} is given twice (names ignore case)`);
    out.set(key, v);
  }
  return Object.fromEntries(out);
};

const remove: Validator<string[]> = (value, path) => {
  if (!Array.isArray(value)) throw new ServiceError('ERR_FIELD_TYPE', `${path}: expected a list of header names`);
  const seen = new Set<string>();
  return value.map((name, i) => {
    const p = fieldPath(path, i);
    if (typeof name !== 'string') throw new ServiceError('ERR_FIELD_TYPE', `${p}: expected a string`);
    headerName(name, p);
    if (seen.has(name.toLowerCase())) throw new ServiceError('ERR_HEADER_DUPLICATE', `${p}: ${JSON.stringify(clip(name))} is given twice (names ignore case)`);
    seen.add(name.toLowerCase());
    return name;
  });
};

export const responseHeadersModule: ModuleDef<ResponseHeadersModule> = {
  name: 'response_headers',
  parse(value, path) {
    const m = parseObject(value, path, { enabled: boolean(), add, remove });
    return { enabled: m.enabled ?? true, add: m.add ?? {}, remove: m.remove ?? [] };
  },
  render: (m) => ({ enabled: m.enabled, add: m.add, remove: m.remove }),
  refs: () => [],
};
