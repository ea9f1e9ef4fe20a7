// Ids look like the public API's: a kind prefix, "_", then 27 base62 characters drawn from crypto randomness.
import { randomBytes } from 'node:crypto';
import { ID_SUFFIX_LENGTH } from '../contract/protocol.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomSuffix(length = ID_SUFFIX_LENGTH): string {
  let out = '';
  while (out.length < length) {
    // 248 = 4 * 62: bytes at or above it are dropped so every character is equally likely.
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomSuffix()}`;
}

export function newOperationId(): string {
  return newId('op');
}

/** RFC 3339 UTC with `Z`, second precision, as the public API returns created_at. */
export function nowTimestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
