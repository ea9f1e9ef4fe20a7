// The string values the API checks beyond their JSON type: an IP policy rule's `cidr` and an edge's
// `hostports`. The service refuses a value with the problem's code (400); the manifest pipeline reports the
// same problem at the value's position before any request, so the two can never disagree.
import { isIPv4, SocketAddress } from 'node:net';
import { quoteValue, type RuleProblem } from './rule-error.ts';

// --- CIDR -----------------------------------------------------------------------------------------------

const PREFIX = /^(0|[1-9][0-9]{0,2})$/;

function ipv4Bits(addr: string): bigint {
  return addr.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function ipv6Bits(addr: string): bigint {
  let text = addr;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipv4Bits(v4[1]!);
    text = `${text.slice(0, v4.index)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** The address `bits` in the family's usual text (IPv6 compressed, as the URL parser writes it). */
function addressText(bits: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((bits >> shift) & 0xffn)).join('.');
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((bits >> shift) & 0xffffn).toString(16));
  return new URL(`http://[${groups.join(':')}]`).hostname.slice(1, -1);
}

/**
 * 4, 6 or 0, as node:net's isIP answers for an address with no zone id (%...; callers refuse those first). An
 * IPv6 text is read by the C library (inet_pton, through SocketAddress) rather than by isIPv6, whose large
 * pattern Node builds on first use: a few milliseconds of every run that checks an IPv6 range.
 */
function ipFamily(text: string): 0 | 4 | 6 {
  if (isIPv4(text)) return 4;
  if (!text.includes(':')) return 0;
  try {
    new SocketAddress({ address: text, family: 'ipv6' });
    return 6;
  } catch {
    return 0;
  }
}

/**
 * Why `text` is not an IP policy rule's cidr, or undefined when it is one. The API documents "an IP or IP
 * range in CIDR notation": an IPv4 or IPv6 address (meaning /32 or /128) or a range whose address is the
 * network address (no host bits set). A zone id (fe80::1%eth0) names an interface of one host, not addresses
 * a policy can match, so it is refused.
 */
export function cidrProblem(text: string): RuleProblem | undefined {
  const invalid = (why: string): RuleProblem => ({ code: 'ERR_CIDR_INVALID', message: `${quoteValue(text)} is not an IP address or CIDR range: ${why}` });
  const parts = text.split('/');
  if (parts.length > 2) return invalid('it has more than one "/"');
  const [addr, prefix] = parts as [string, string | undefined];
  if (addr.includes('%')) return invalid('an IPv6 zone (%...) names no address a policy can match');
  const family = ipFamily(addr);
  if (family !== 4 && family !== 6) return invalid('the address is not IPv4 or IPv6');
  if (prefix === undefined) return undefined;
  const max = family === 4 ? 32 : 128;
  if (!PREFIX.test(prefix) || Number(prefix) > max) return invalid(`the prefix length must be 0-${max}`);
  const hostBits = BigInt(max - Number(prefix));
  const value = family === 4 ? ipv4Bits(addr) : ipv6Bits(addr);
  const network = (value >> hostBits) << hostBits;
  if (network === value) return undefined;
  return {
    code: 'ERR_CIDR_HOST_BITS_SET',
    message: `${quoteValue(text)} has host bits set; use the network address of the range (did you mean ${addressText(network, family)}/${prefix}?)`,
  };
}

// --- hostports ------------------------------------------------------------------------------------------

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const PORT = /^[1-9][0-9]{0,4}$/;

function hostProblem(host: string): string | undefined {
  if (host.startsWith('[')) {
    // Brackets are how a URL authority writes IPv6; a zone id (%eth0) names no address on the edge.
    if (host.includes('%')) return 'has an IPv6 zone (%...), which names no address on the edge';
    if (!host.endsWith(']') || ipFamily(host.slice(1, -1)) !== 6) return 'has an invalid IPv6 address';
    return undefined;
  }
  // isIPv4, not isIP: a host name is no IPv6 address either way, and Node builds isIPv6's large pattern on its
  // first use, a few milliseconds of every run that checks a hostport.
  if (isIPv4(host)) return undefined;
  const name = host.startsWith('*.') ? host.slice(2) : host;
  if (name.length === 0 || name.length > 253) return 'has an invalid host name';
  const labels = name.split('.');
  if (!labels.every((l) => LABEL.test(l))) return 'has an invalid host name';
  // An all-digit last label is an IPv4 address gone wrong (1.2.3.999, 1.2.3), not a name.
  if (/^[0-9]+$/.test(labels.at(-1)!)) return 'has an invalid IPv4 address';
  return undefined;
}

/**
 * Why `text` is not a hostport, or undefined when it is one: `host:port` with a port from 1 to 65535 (no
 * leading zero) and a host that is a DNS name (a leading `*.` allowed), an IPv4 address or an IPv6 address in
 * brackets.
 */
export function hostportProblem(text: string): RuleProblem | undefined {
  const problem = hostportReason(text);
  return problem === undefined ? undefined : { code: 'ERR_HOSTPORT_INVALID', message: `${quoteValue(text)} ${problem}` };
}

function hostportReason(text: string): string | undefined {
  const colon = text.lastIndexOf(':');
  if (colon <= 0) return 'is not host:port';
  const port = text.slice(colon + 1);
  if (!PORT.test(port) || Number(port) > 65535) return 'has no port from 1 to 65535';
  return hostProblem(text.slice(0, colon));
}

/**
 * The key one hostport is claimed by: host names compare case-insensitively (`A.example.com:1` is
 * `a.example.com:1`) and IPv6 addresses by value (`[2001:db8:0::1]:1` is `[2001:db8::1]:1`). Total: a value
 * that is not a hostport is keyed by its lower case.
 */
export function hostportKey(hostport: string): string {
  if (hostport.startsWith('[')) {
    const colon = hostport.lastIndexOf(':');
    // Only the address goes through URL, which would drop a scheme's default port.
    const address = hostport.slice(0, colon);
    if (URL.canParse(`http://${address}`)) return `${new URL(`http://${address}`).hostname}${hostport.slice(colon)}`;
  }
  return hostport.toLowerCase();
}

/**
 * The rules above by the JSON Schema `format` names the request-body and manifest schemas give them: ajv checks
 * a value with `check`, and a failing value's code and words come from `problem`.
 */
export const VALUE_FORMATS = {
  cidr: { check: (v: string): boolean => cidrProblem(v) === undefined, problem: cidrProblem },
  hostport: { check: (v: string): boolean => hostportProblem(v) === undefined, problem: hostportProblem },
} as const;
