// A strict reader of PEM text (RFC 7468): whitespace, then BEGIN/END blocks separated by whitespace, and nothing
// else. Anything outside the blocks (explanatory text, a truncated block, trailing garbage) is refused rather than
// skipped, so what the service stores is exactly what it parsed (and what the manifest pipeline checks is what
// the service will parse). Error messages say where, never what: the text may be a private key, and no part of
// it is ever echoed.
import { RuleError, type RuleCode } from './rule-error.ts';

export interface PemBlock {
  label: string; // e.g. CERTIFICATE, PRIVATE KEY, EC PRIVATE KEY
  headers: boolean; // RFC 1421 headers (Proc-Type, DEK-Info): only legacy encrypted keys carry them
  der: Buffer;
}

// The END label must repeat the BEGIN label; the body is matched lazily so a block ends at its own END line.
const BLOCK = /-----BEGIN ([A-Z0-9]+(?: [A-Z0-9]+)*)-----[ \t]*\r?\n([\s\S]*?)-----END \1-----/y;
const WHITESPACE = /\s*/y;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// Bound the work per request: a chain is a handful of certificates, a CA bundle a few hundred at most.
const MAX_BLOCKS = 500;

type PemErrorCode = Extract<RuleCode, 'ERR_PEM_EMPTY' | 'ERR_PEM_TRAILING_DATA' | 'ERR_PEM_INVALID' | 'ERR_KEY_INVALID'>;

/**
 * Split `text` into PEM blocks, or throw a RuleError. `codes` picks the error codes, so the same reader serves
 * certificate fields (ERR_PEM_*) and the private key field (ERR_KEY_INVALID throughout).
 */
export function readPemBlocks(text: string, codes: { empty: PemErrorCode; outside: PemErrorCode; malformed: PemErrorCode }): PemBlock[] {
  const blocks: PemBlock[] = [];
  let at = skipWhitespace(text, 0);
  while (at < text.length) {
    if (blocks.length === MAX_BLOCKS) {
      throw new RuleError(codes.malformed, `more than ${MAX_BLOCKS} PEM blocks`);
    }
    BLOCK.lastIndex = at;
    const m = BLOCK.exec(text);
    if (!m) {
      const what = text.startsWith('-----BEGIN ', at) ? 'an unterminated or malformed PEM block' : 'text that is not part of a PEM block';
      throw new RuleError(codes.outside, `${what} at character ${at + 1}; only PEM blocks and whitespace are allowed`);
    }
    blocks.push(decodeBody(m[1]!, m[2]!, blocks.length + 1, codes.malformed));
    at = skipWhitespace(text, BLOCK.lastIndex);
  }
  if (blocks.length === 0) throw new RuleError(codes.empty, 'no PEM block found');
  return blocks;
}

function skipWhitespace(text: string, at: number): number {
  WHITESPACE.lastIndex = at;
  WHITESPACE.exec(text);
  return WHITESPACE.lastIndex;
}

function decodeBody(label: string, body: string, index: number, code: PemErrorCode): PemBlock {
  const lines = body.split(/\r?\n/);
  // RFC 1421 headers come first and end at a blank line.
  const headers = lines.length > 0 && /^[A-Za-z-]+:/.test(lines[0]!);
  const dataLines = headers ? lines.slice(lines.findIndex((l) => l.trim() === '') + 1) : lines;
  const base64 = dataLines.join('').replace(/[ \t]/g, '');
  if (base64.length === 0 || base64.length % 4 !== 0 || !BASE64.test(base64)) {
    throw new RuleError(code, `PEM block ${index} does not hold valid base64`);
  }
  return { label, headers, der: Buffer.from(base64, 'base64') };
}

/** How a label is named in messages: a private key generically (a message must never look like key material); others by their label, whose alphabet is [A-Z0-9 ]. */
export function describeLabel(label: string): string {
  return /PRIVATE KEY/.test(label) ? 'a private key' : `a "${label}" block`;
}
