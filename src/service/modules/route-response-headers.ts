// The response_headers module of an HTTPS edge route: {enabled, add: {name: value}, remove: [name]}.
// The contract checks the names (HTTP tokens, unique ignoring case in either list) and values (no control
// characters); names in `add` are stored lower-cased (as the public API returns them), names in `remove` are
// kept as sent. Unsent `add` is returned as {} and unsent `remove` as []. Its endpoints (PUT/GET/DELETE
// /edges/https/{edge_id}/routes/{id}/response_headers) are built with the route's other module endpoints.
import { responseHeadersModule as responseHeadersContract } from '../../contract/kinds/edge-modules.ts';
import { moduleDef } from './stored-modules.ts';

type ResponseHeadersModule = { enabled: boolean; add: Record<string, string>; remove: string[] };

/** Header names lower-cased; fromEntries keeps a header named "__proto__" as an own key. */
export function lowerCaseNames(headers: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries((headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
}

export const responseHeadersModule = moduleDef<ResponseHeadersModule>(responseHeadersContract, {
  store: (m) => ({ enabled: (m.enabled as boolean | undefined) ?? true, add: lowerCaseNames(m.add), remove: (m.remove as string[] | undefined) ?? [] }),
  render: (m) => ({ enabled: m.enabled, add: m.add, remove: m.remove }),
});
