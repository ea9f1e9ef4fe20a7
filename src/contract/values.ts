// CIDR and hostport rules, shared by the service and the manifest pipeline. A problem is `{code, message}`;
// the message names the value, and whoever reports it puts the field's path in front.
import { isIP } from 'node:net';

export interface RuleProblem {
  code: 'ERR_CIDR_INVALID' | 'ERR_CIDR_HOST_BITS_SET' | 'ERR_HOSTPORT_INVALID';
  message: string;
}

/** Keeps messages short when a client sends a huge string. */
function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** An IPv4/IPv6 address or CIDR range. A bare address means /32 or /128. Host bits beyond the mask are refused. */
export function cidrProblem(text: string): RuleProblem | undefined {
  const invalid = { code: 'ERR_CIDR_INVALID' as const, message: `${JSON.stringify(clip(text))} is not an IP address or CIDR range` };
  const parts = text.split('/');
  if (parts.length > 2) return invalid;
  const [addr, mask] = parts as [string, string | undefined];
  const family = isIP(addr);
  // Zone ids (fe80::1%eth0) are valid for isIP but meaningless in a policy.
  if (family === 0 || addr.includes('%')) return invalid;
  const bits = family === 4 ? 32 : 128;
  if (mask === undefined) return undefined;
  if (!/^(0|[1-9][0-9]{0,2})$/.test(mask) || Number(mask) > bits) return invalid;
  const value = family === 4 ? ipv4Bits(addr) : ipv6Bits(addr);
  const hostBits = BigInt(bits - Number(mask));
  if (hostBits > 0n && (value & ((1n << hostBits) - 1n)) !== 0n) {
    return { code: 'ERR_CIDR_HOST_BITS_SET', message: `${JSON.stringify(text)} has host bits set; use the network address of the range` };
  }
  return undefined;
}

function ipv4Bits(addr: string): bigint {
  return addr.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function ipv6Bits(addr: string): bigint {
  let text = addr;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipv4Bits(v4[1]!);
    text = text.slice(0, v4.index) + `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const PORT = /^[1-9][0-9]{0,4}$/;

/** Why `text` is not `host:port`. Hosts: a DNS name (a leading `*.` allowed), IPv4, or [IPv6]. */
export function hostportProblem(text: string): RuleProblem | undefined {
  const problem = hostportFault(text);
  return problem === undefined ? undefined : { code: 'ERR_HOSTPORT_INVALID', message: `${JSON.stringify(clip(text))} ${problem}` };
}

function hostportFault(text: string): string | undefined {
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
