// The `hostports` field shared by TCP, TLS and HTTPS edges: `host:port` strings, unique within the list, and
// (through claims in one scope for all three edge kinds) served by one edge only.
import { isIP } from 'node:net';
import { ServiceError } from '../errors.ts';
import type { Claim } from '../resource-def.ts';
import { clip, fieldPath, type Validator } from '../validate.ts';

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const PORT = /^[1-9][0-9]{0,4}$/;

/** Why `text` is not `host:port`, or undefined when it is. Hosts: a DNS name (a leading `*.` allowed), IPv4, or [IPv6]. */
export function hostportProblem(text: string): string | undefined {
  const colon = text.lastIndexOf(':');
  if (colon <= 0) return 'is not host:port';
  const host = text.slice(0, colon);
  const port = text.slice(colon + 1);
  if (!PORT.test(port) || Number(port) > 65535) return 'has no port from 1 to 65535';
  if (host.startsWith('[')) {
    // Brackets are how a URL authority writes IPv6; a zone id (%eth0) names no address on the edge.
    if (!host.endsWith(']') || isIP(host.slice(1, -1)) !== 6 || host.includes('%')) return 'has an invalid IPv6 address';
    return undefined;
  }
  if (isIP(host) === 4) return undefined;
  return hostnameProblem(host);
}

function hostnameProblem(host: string): string | undefined {
  const name = host.startsWith('*.') ? host.slice(2) : host;
  if (name.length === 0 || name.length > 253) return 'has an invalid host name';
  const labels = name.split('.');
  if (!labels.every((l) => LABEL.test(l))) return 'has an invalid host name';
  // An all-digit last label is an IPv4 address gone wrong (1.2.3.999), not a name.
  if (/^[0-9]+$/.test(labels.at(-1)!)) return 'has an invalid IPv4 address';
  return undefined;
}

/**
 * The claim key of a valid hostport: host names compare case-insensitively (`A.example.com:1` is
 * `a.example.com:1`) and IPv6 addresses by value (`[2001:db8:0::1]:1` is `[2001:db8::1]:1`).
 */
export function hostportKey(hostport: string): string {
  if (hostport.startsWith('[')) {
    const colon = hostport.lastIndexOf(':');
    // URL drops a scheme's default port from `host`, so only the address goes through it.
    return `${new URL(`http://${hostport.slice(0, colon)}`).hostname}${hostport.slice(colon)}`;
  }
  return hostport.toLowerCase();
}

/** Validator for the list: each entry valid, no entry twice. Returned as sent. */
export const hostports: Validator<string[]> = (value, path) => {
  if (!Array.isArray(value)) throw new ServiceError('ERR_FIELD_TYPE', `${path}: expected a list of strings`);
  const seen = new Set<string>();
  return value.map((item, i) => {
    const p = fieldPath(path, i);
    if (typeof item !== 'string') throw new ServiceError('ERR_FIELD_TYPE', `${p}: expected a string`);
    const problem = hostportProblem(item);
    if (problem) throw new ServiceError('ERR_HOSTPORT_INVALID', `${p}: ${JSON.stringify(clip(item))} ${problem}`);
    const key = hostportKey(item);
    if (seen.has(key)) throw new ServiceError('ERR_HOSTPORT_DUPLICATE', `${p}: ${JSON.stringify(clip(item))} is listed twice`);
    seen.add(key);
    return item;
  });
};

/** One claim per hostport, in the scope every edge kind shares. */
export function hostportClaims(list: readonly string[]): Claim[] {
  return list.map((h, i) => ({ scope: 'hostport', key: hostportKey(h), field: `hostports[${i}]`, conflict: 'ERR_HOSTPORT_IN_USE' }));
}

/** Empty or unset hostports are returned as null, as the public API does. */
export function renderHostports(list: readonly string[]): string[] | null {
  return list.length > 0 ? [...list] : null;
}
