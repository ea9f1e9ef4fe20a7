// Shared body validators. A Validator checks one JSON value at a path ("backend.backend_id", "labels.app",
// "ip_policy_ids[2]") and returns the typed value or throws a ServiceError naming that path.
// parseBody/object() reject unknown fields and treat `null` like an absent field unless wrapped in nullable().
// Maps keyed by the client (labels, headers) are built through a Map so that a key named "__proto__" is kept
// as an own property, and no number that is not finite (JSON 1e999 parses to Infinity) is ever accepted.
import { isIP } from 'node:net';
import { ServiceError, type ErrorCode } from './errors.ts';

import { isObj as isPlainObject, type Json, type JsonObject } from '../contract/json.ts';
export { isPlainObject, type Json, type JsonObject };

export type Validator<T> = ((value: unknown, path: string) => T) & { keepNull?: boolean };
export type Shape = Record<string, Validator<unknown>>;
export type Parsed<S extends Shape> = { [K in keyof S]?: S[K] extends Validator<infer T> ? T : never };

export const DESCRIPTION_MAX_BYTES = 255;
export const METADATA_MAX_BYTES = 4096;

export function fieldPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function wrongType(path: string, expected: string, value: unknown): ServiceError {
  return new ServiceError('ERR_FIELD_TYPE', `${path}: expected ${expected}, got ${typeName(value)}`);
}

export function string(opts: { maxBytes?: number; tooLong?: ErrorCode; nonEmpty?: boolean } = {}): Validator<string> {
  return (value, path) => {
    if (typeof value !== 'string') throw wrongType(path, 'a string', value);
    if (opts.nonEmpty && value === '') throw new ServiceError('ERR_FIELD_INVALID', `${path}: must not be empty`);
    if (opts.maxBytes !== undefined && Buffer.byteLength(value, 'utf8') > opts.maxBytes) {
      throw new ServiceError(opts.tooLong ?? 'ERR_FIELD_INVALID', `${path}: longer than ${opts.maxBytes} bytes`);
    }
    return value;
  };
}

export const description: Validator<string> = string({ maxBytes: DESCRIPTION_MAX_BYTES, tooLong: 'ERR_DESCRIPTION_TOO_LONG' });
export const metadata: Validator<string> = string({ maxBytes: METADATA_MAX_BYTES, tooLong: 'ERR_METADATA_TOO_LONG' });

export function boolean(): Validator<boolean> {
  return (value, path) => {
    if (typeof value !== 'boolean') throw wrongType(path, 'a boolean', value);
    return value;
  };
}

/**
 * JSON text such as 1e999 parses to Infinity, which JSON.stringify would store as null: refused wherever a
 * body holds a number, naming the field.
 */
export function nonFinite(path: string, code: ErrorCode = 'ERR_FIELD_INVALID'): ServiceError {
  return new ServiceError(code, `${path}: number out of range (not finite)`);
}

export function integer(min: number, max: number, outOfRange: ErrorCode = 'ERR_FIELD_INVALID'): Validator<number> {
  return (value, path) => {
    if (typeof value === 'number' && !Number.isFinite(value)) throw nonFinite(path, outOfRange);
    if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType(path, 'an integer', value);
    if (value < min || value > max) throw new ServiceError(outOfRange, `${path}: must be from ${min} to ${max}, got ${value}`);
    return value;
  };
}

export function oneOf<const T extends string>(values: readonly T[], invalid: ErrorCode = 'ERR_FIELD_INVALID'): Validator<T> {
  return (value, path) => {
    if (typeof value !== 'string') throw wrongType(path, 'a string', value);
    if (!(values as readonly string[]).includes(value)) {
      throw new ServiceError(invalid, `${path}: must be one of ${values.join(', ')}, got ${JSON.stringify(clip(value))}`);
    }
    return value as T;
  };
}

export function list<T>(item: Validator<T>, opts: { nonEmpty?: ErrorCode; max?: number } = {}): Validator<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) throw wrongType(path, 'a list', value);
    if (opts.nonEmpty && value.length === 0) throw new ServiceError(opts.nonEmpty, `${path}: must not be empty`);
    if (opts.max !== undefined && value.length > opts.max) {
      throw new ServiceError('ERR_FIELD_INVALID', `${path}: at most ${opts.max} items`);
    }
    return value.map((v, i) => item(v, fieldPath(path, i)));
  };
}

/** Map<string, string>. Keys must be non-empty; `lowerKeys` folds them (header names), rejecting case duplicates. */
export function stringMap(opts: { lowerKeys?: boolean; key?: (key: string, path: string) => void; value?: Validator<string> } = {}): Validator<Record<string, string>> {
  return (value, path) => {
    if (!isPlainObject(value)) throw wrongType(path, 'an object of strings', value);
    // A Map, then fromEntries: assigning out["__proto__"] on a plain object would set its prototype instead.
    const out = new Map<string, string>();
    for (const [rawKey, v] of Object.entries(value)) {
      const keyPath = fieldPath(path, rawKey);
      if (rawKey === '') throw new ServiceError('ERR_MAP_KEY_INVALID', `${path}: keys must not be empty`);
      opts.key?.(rawKey, keyPath);
      const str = (opts.value ?? string())(v, keyPath);
      const key = opts.lowerKeys ? rawKey.toLowerCase() : rawKey;
      if (out.has(key)) throw new ServiceError('ERR_HEADER_DUPLICATE', `${path}: "${clip(rawKey)}" given twice (names ignore case)`);
      out.set(key, str);
    }
    return Object.fromEntries(out);
  };
}

/** Keeps an explicit null instead of dropping it (for fields where null means "clear"). */
export function nullable<T>(inner: Validator<T>): Validator<T | null> {
  const v: Validator<T | null> = (value, path) => (value === null ? null : inner(value, path));
  v.keepNull = true;
  return v;
}

/** A nested object with a fixed set of fields; see parseObject. */
export function object<S extends Shape>(shape: S, required: readonly (keyof S & string)[] = []): Validator<Parsed<S>> {
  return (value, path) => parseObject(value, path, shape, required);
}

export function parseObject<S extends Shape>(value: unknown, path: string, shape: S, required: readonly (keyof S & string)[] = []): Parsed<S> {
  if (!isPlainObject(value)) throw wrongType(path || 'body', 'an object', value);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const p = fieldPath(path, key);
    if (!Object.hasOwn(shape, key)) {
      throw new ServiceError('ERR_UNKNOWN_FIELD', `unknown field "${clip(p)}"; allowed: ${Object.keys(shape).join(', ') || 'none'}`);
    }
    const validator = shape[key]!;
    if (v === null && !validator.keepNull) continue;
    out[key] = validator(v, p);
  }
  for (const key of required) {
    if (out[key] === undefined || out[key] === null) throw new ServiceError('ERR_FIELD_REQUIRED', `${fieldPath(path, key)}: required`);
  }
  return out as Parsed<S>;
}

/** A request body: top-level fields are named bare ("cidr"). `immutable` fields answer ERR_FIELD_NOT_UPDATABLE. */
export function parseBody<S extends Shape>(body: unknown, shape: S, opts: { required?: readonly (keyof S & string)[]; immutable?: readonly string[] } = {}): Parsed<S> {
  if (isPlainObject(body) && opts.immutable) {
    for (const key of opts.immutable) {
      if (Object.hasOwn(body, key)) throw new ServiceError('ERR_FIELD_NOT_UPDATABLE', `${key}: cannot be changed after creation`);
    }
  }
  return parseObject(body, '', shape, opts.required ?? []);
}

/** An IPv4/IPv6 address or CIDR range. A bare address means /32 or /128. Host bits beyond the mask are refused. */
export function cidr(): Validator<string> {
  return (value, path) => {
    if (typeof value !== 'string') throw wrongType(path, 'a string', value);
    const problem = cidrProblem(value);
    if (problem) throw new ServiceError(problem.code, `${path}: ${problem.message}`);
    return value;
  };
}

export function cidrProblem(text: string): { code: ErrorCode; message: string } | undefined {
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

/** Keeps error messages short when a client sends a huge string. */
export function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Field values: any visible character, space and tab; no CR, LF, NUL or other controls (header injection).
const HEADER_VALUE = /^[\t\x20-\x7e\u0080-\uffff]*$/;

/** An HTTP header name (RFC 9110 token). */
export function headerName(): Validator<string> {
  return (value, path) => {
    if (typeof value !== 'string') throw wrongType(path, 'a string', value);
    if (!TOKEN.test(value)) throw new ServiceError('ERR_HEADER_NAME_INVALID', `${path}: ${JSON.stringify(clip(value))} is not a valid header name`);
    return value;
  };
}

/** Header name -> value; names lower-cased, names equal ignoring case refused (ERR_HEADER_DUPLICATE). */
export function headerMap(): Validator<Record<string, string>> {
  return stringMap({
    lowerKeys: true,
    key: (key, path) => {
      if (!TOKEN.test(key)) throw new ServiceError('ERR_HEADER_NAME_INVALID', `${path}: ${JSON.stringify(clip(key))} is not a valid header name`);
    },
    value: (value, path) => {
      if (typeof value !== 'string') throw wrongType(path, 'a string', value);
      if (!HEADER_VALUE.test(value)) throw new ServiceError('ERR_HEADER_VALUE_INVALID', `${path}: header values must not contain control characters`);
      return value;
    },
  });
}
