// Who a request acts for. Every API key belongs to one account, and every read and write of the request is
// scoped to that account (store.ts). Keys are kept as SHA-256 digests only and compared in constant time; an
// account's name is what logs show, never its key. With no key configured at all, any bearer token is
// accepted and acts for the default account (a local sandbox).
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { DEFAULT_ACCOUNT } from './store.ts';

export interface AccountKey {
  account: string;
  /** SHA-256 of the key. */
  digest: Buffer;
  /** Where the key was configured, for start-up messages: '--api-key', '--account', 'accounts.yaml:3:5'. */
  source: string;
}

/** A configuration the service refuses at start; the message names where, never a key. */
export class AccountsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountsConfigError';
  }
}

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
// Lower-case only, as sha256sum prints it: a digest mistyped into some other shape must not quietly become a
// plain key, which the text committed in the file would then be.
const SHA256_KEY = /^sha256:([0-9a-f]{64})$/;

export function keyDigest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function accountName(name: string, where: string): string {
  if (!ACCOUNT_NAME.test(name)) {
    // Not echoed: a key pasted where the name goes would otherwise be printed.
    throw new AccountsConfigError(`${where}: an account name must be 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit`);
  }
  return name;
}

/** A key as configured: plain, or `sha256:<hex>` of the key so the file need not hold the key itself. */
function configuredKey(account: string, key: string, source: string): AccountKey {
  if (key.trim() === '') throw new AccountsConfigError(`${source}: an empty API key for account ${account}`);
  // A client sends its key as "Authorization: Bearer <key>": a key with whitespace in it could never match.
  if (/\s/.test(key)) throw new AccountsConfigError(`${source}: an API key of account ${account} holds whitespace, which no "Authorization: Bearer" header can carry`);
  const hashed = SHA256_KEY.exec(key);
  if (!hashed && key.startsWith('sha256:')) {
    throw new AccountsConfigError(`${source}: an API key of account ${account} starts with "sha256:" but is not a digest: a digest is "sha256:" and exactly 64 lower-case hex digits, as printf %s "$KEY" | sha256sum prints them`);
  }
  return { account, digest: hashed ? Buffer.from(hashed[1]!, 'hex') : keyDigest(key), source };
}

/** `--api-key KEY`: a key of the default account. */
export function apiKeyFlag(key: string): AccountKey {
  return configuredKey(DEFAULT_ACCOUNT, key, '--api-key');
}

/** `--account NAME=KEY`. */
export function accountFlag(value: string): AccountKey {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new AccountsConfigError('--account: expected NAME=KEY');
  const account = accountName(value.slice(0, eq), '--account');
  return configuredKey(account, value.slice(eq + 1), `--account ${account}`);
}

/** `--accounts FILE`: YAML mapping account name -> list of keys (plain or sha256:<hex>). */
export function accountsFile(file: string): AccountKey[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AccountsConfigError(`${file}: cannot read the accounts file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (node: Node | null | undefined, fallback = 0): string => {
    const pos = lines.linePos(node?.range?.[0] ?? fallback);
    return `${file}:${pos.line}:${pos.col}`;
  };
  // A YAML error's own message may quote the line, and so a key: only its position is shown.
  if (doc.errors.length > 0) throw new AccountsConfigError(`${at(undefined, doc.errors[0]!.pos[0])}: not valid YAML (${doc.errors[0]!.code})`);
  if (!isMap(doc.contents)) throw new AccountsConfigError(`${at(doc.contents)}: expected a mapping of account name to a list of API keys`);
  const keys: AccountKey[] = [];
  for (const pair of doc.contents.items) {
    const nameNode = pair.key as Node;
    if (!isScalar(nameNode) || typeof nameNode.value !== 'string') throw new AccountsConfigError(`${at(nameNode)}: an account name must be a string`);
    const account = accountName(nameNode.value, at(nameNode));
    const list = pair.value as Node | null;
    if (!isSeq(list) || list.items.length === 0) throw new AccountsConfigError(`${at(list ?? nameNode)}: account ${account} needs a list of one or more API keys`);
    for (const item of list.items as Node[]) {
      if (!isScalar(item) || typeof item.value !== 'string') throw new AccountsConfigError(`${at(item)}: an API key of account ${account} must be a string`);
      keys.push(configuredKey(account, item.value, at(item)));
    }
  }
  return keys;
}

/** The configured keys, checked as a whole: a key under two accounts is refused, naming both places. */
export class Accounts {
  private readonly keys: readonly AccountKey[];

  constructor(keys: readonly AccountKey[]) {
    const seen: AccountKey[] = [];
    for (const key of keys) {
      const earlier = seen.find((k) => k.digest.equals(key.digest));
      if (earlier && earlier.account !== key.account) {
        throw new AccountsConfigError(`${key.source}: this API key is also a key of account ${earlier.account} (${earlier.source}); a key belongs to one account`);
      }
      if (!earlier) seen.push(key);
    }
    this.keys = seen;
  }

  /** No keys configured: any bearer token is accepted, for the default account. */
  get open(): boolean {
    return this.keys.length === 0;
  }

  /** Each configured account with its number of keys, for the start-up banner: 'default (2 keys)'. */
  summary(): string[] {
    const counts = new Map<string, number>();
    for (const k of this.keys) counts.set(k.account, (counts.get(k.account) ?? 0) + 1);
    return [...counts].map(([name, n]) => `${name} (${n} ${n === 1 ? 'key' : 'keys'})`);
  }

  /** Whether some configured key acts for this account (with none configured, any token acts for the default one). */
  reaches(account: string): boolean {
    return this.open ? account === DEFAULT_ACCOUNT : this.keys.some((k) => k.account === account);
  }

  /**
   * The account of the key with this digest (keyDigest), or undefined. Every configured key is compared, so the
   * time says nothing of which matched.
   */
  accountOf(digest: Buffer): string | undefined {
    if (this.open) return DEFAULT_ACCOUNT;
    let found: string | undefined;
    for (const k of this.keys) if (timingSafeEqual(k.digest, digest) && found === undefined) found = k.account;
    return found;
  }
}
