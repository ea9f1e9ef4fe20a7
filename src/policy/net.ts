// The IP and CIDR values of the Kubernetes CEL library (kubernetes/apiserver pkg/cel/library/ip.go, cidr.go),
// with its names: ip(), cidr(), isIP(), isCIDR(), family(), prefixLength(), containsIP(), containsCIDR(),
// masked(), ip(), isUnspecified(), isLoopback(). An address is a bigint, so both families share the arithmetic.
import { isIPv4, isIPv6 } from 'node:net';

export class IpValue {
  constructor(
    readonly family: 4 | 6,
    readonly value: bigint,
  ) {}

  toString(): string {
    return formatIp(this.family, this.value);
  }
}

export class CidrValue {
  constructor(
    readonly ip: IpValue,
    readonly prefixLength: number,
  ) {}

  /** The bits of the network part. */
  get mask(): bigint {
    const bits = BigInt(this.ip.family === 4 ? 32 : 128);
    const host = bits - BigInt(this.prefixLength);
    return ((1n << bits) - 1n) ^ ((1n << host) - 1n);
  }

  containsIp(ip: IpValue): boolean {
    return ip.family === this.ip.family && (ip.value & this.mask) === (this.ip.value & this.mask);
  }

  containsCidr(other: CidrValue): boolean {
    return other.ip.family === this.ip.family && other.prefixLength >= this.prefixLength && this.containsIp(other.ip);
  }

  masked(): CidrValue {
    return new CidrValue(new IpValue(this.ip.family, this.ip.value & this.mask), this.prefixLength);
  }

  toString(): string {
    return `${this.ip}/${this.prefixLength}`;
  }
}

function ipv4(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6(text: string): bigint {
  let body = text;
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (v4) {
    const n = ipv4(v4[1]!);
    body = `${body.slice(0, -v4[1]!.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = body.includes('::') ? body.split('::') : [body, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function formatIp(family: 4 | 6, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::').replace(/:{3,}/, '::');
}

/** The address, or undefined when `text` is none (Kubernetes refuses zones and IPv4-mapped forms alike; so do we zones). */
export function parseIp(text: string): IpValue | undefined {
  if (isIPv4(text)) return new IpValue(4, ipv4(text));
  if (isIPv6(text) && !text.includes('%')) return new IpValue(6, ipv6(text));
  return undefined;
}

export function parseCidr(text: string): CidrValue | undefined {
  const slash = text.lastIndexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIp(text.slice(0, slash));
  const bits = text.slice(slash + 1);
  if (!ip || !/^\d{1,3}$/.test(bits)) return undefined;
  const prefix = Number(bits);
  if (prefix > (ip.family === 4 ? 32 : 128)) return undefined;
  return new CidrValue(ip, prefix);
}
