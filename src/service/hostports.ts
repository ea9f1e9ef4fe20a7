// The `hostports` field shared by TCP, TLS and HTTPS edges: `host:port` strings (what a hostport is, and the key
// it is claimed by, are the contract's: src/contract/values.ts), each served by one edge only, through claims in
// one scope for all three edge kinds.
import { hostportKey } from '../contract/values.ts';
import type { Claim } from './resource-def.ts';

/** One claim per hostport, in the scope every edge kind shares. */
export function hostportClaims(list: readonly string[]): Claim[] {
  return list.map((h, i) => ({ scope: 'hostport', key: hostportKey(h), field: `hostports[${i}]`, conflict: 'ERR_HOSTPORT_IN_USE' }));
}

/** Empty or unset hostports are returned as null, as the public API does. */
export function renderHostports(list: readonly string[]): string[] | null {
  return list.length > 0 ? [...list] : null;
}
