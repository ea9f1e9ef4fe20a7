// String formats the schemas name (`cidr`, `hostport`, `uri`), and the one check on resolved values: no PEM
// private key outside a secret field. Each check returns the reason a value is wrong, so the error says more
// than "invalid": a CIDR with host bits set names the network it probably meant.
import { isIPv4, isIPv6 } from 'node:net';
import type { Json } from '../kinds/resource-kind.ts';
import { childPointer, fieldPath } from './pointer.ts';

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function intToIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

function ipv6ToBigInt(ip: string): bigint {
  let text = ip;
  // An embedded IPv4 tail (`::ffff:10.0.0.1`) stands for the last two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipv4ToInt(v4[1]!);
    text = `${text.slice(0, v4.index)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** Why `value` is not a CIDR range (`10.0.0.0/8`, `2001:db8::/32`), or undefined when it is one. */
export function cidrProblem(value: string): string | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return 'is not a CIDR range: it needs a prefix length, e.g. 10.0.0.0/8 or 10.0.0.1/32';
  const ip = value.slice(0, slash);
  const bitsText = value.slice(slash + 1);
  const v4 = isIPv4(ip);
  if (!v4 && !isIPv6(ip)) return 'is not a CIDR range: the address is not IPv4 or IPv6';
  const max = v4 ? 32 : 128;
  if (!/^(0|[1-9][0-9]{0,2})$/.test(bitsText) || Number(bitsText) > max) {
    return `is not a CIDR range: the prefix length must be 0-${max}`;
  }
  const bits = Number(bitsText);
  if (v4) {
    const hostSize = 2 ** (32 - bits);
    const n = ipv4ToInt(ip);
    const network = n - (n % hostSize);
    if (network !== n) return `is not a network address (did you mean ${intToIpv4(network)}/${bits}?)`;
    return undefined;
  }
  const hostMask = (1n << BigInt(128 - bits)) - 1n;
  if ((ipv6ToBigInt(ip) & hostMask) !== 0n) return 'is not a network address: it has host bits set';
  return undefined;
}

const HOST_LABEL = '[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOSTNAME = new RegExp(`^(\\*\\.)?(${HOST_LABEL}\\.)*${HOST_LABEL}$`);

/** `host:port` with a host name (a leading `*.` wildcard allowed), an IPv4 address or a bracketed IPv6 one. */
export function isHostport(value: string): boolean {
  const colon = value.lastIndexOf(':');
  if (colon <= 0) return false;
  const host = value.slice(0, colon);
  const port = value.slice(colon + 1);
  if (!/^[1-9][0-9]{0,4}$/.test(port) || Number(port) > 65535) return false;
  if (host.startsWith('[') && host.endsWith(']')) return isIPv6(host.slice(1, -1));
  return host.length <= 253 && (isIPv4(host) || HOSTNAME.test(host));
}

/** An absolute http(s) URL (the project file's api_url). */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** The BEGIN line of a PEM private key of any type (PKCS#8, RSA, EC, ENCRYPTED, OPENSSH). */
const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * Pointers of the string values in `fields` that hold a PEM private key, outside the top-level fields named
 * in `secretFields`. Only secret fields are kept out of plans and saved plans; a key anywhere else (a
 * certificate field, alone or appended to a chain; a description) would be printed whole.
 */
export function misplacedPrivateKeys(fields: Json, secretFields: readonly string[]): string[] {
  const found: string[] = [];
  const visit = (value: Json, pointer: string): void => {
    if (typeof value === 'string') {
      if (PRIVATE_KEY_BEGIN.test(value)) found.push(pointer);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, childPointer(pointer, i)));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (pointer === '' && secretFields.includes(key)) continue;
        visit(item, childPointer(pointer, key));
      }
    }
  };
  visit(fields, '');
  return found;
}

/** The error for a private key found by misplacedPrivateKeys; it names the field, never any of the key. */
export function misplacedPrivateKeyMessage(pointer: string): string {
  return `${fieldPath(pointer)}: holds a PEM private key, which is not allowed here: this field is not secret, so plans ` +
    'and saved plans would print it (the key is not shown). Give only certificates here; a private key belongs in ' +
    "a TLSCertificate's private_key_pem";
}

/** The formats the schemas name, as ajv checks them (schema-compile.ts, and the build's precompiled validators). */
export const AJV_FORMATS = {
  cidr: (v: string): boolean => cidrProblem(v) === undefined,
  hostport: isHostport,
  uri: isHttpUrl,
};
