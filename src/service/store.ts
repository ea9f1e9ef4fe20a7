// What the service keeps, behind one interface with two backends: SQLite (stores/sqlite.ts, the embedded
// default) and PostgreSQL (stores/postgres.ts, for several instances on one database). Every resource is a
// JSON document in `docs`, ordered by a sequence assigned under the write lock, so the order is commit order
// (stable newest-first even within one millisecond, and across instances). `refs` records which document
// references which (400 on dangling references, 409 on deleting a referenced one); `claims` holds values that
// must be unique across kinds and accounts (hostports); `tombstones` keep a deleted id's position so
// `before_id` still pages.
//
// Every request runs in one transaction of one account: `read` on one consistent snapshot, `write` holding
// the store's single write lock from start to commit. Serialized writers are what make the checks here
// correct on N instances: a claim checked then inserted, a parent document read then rewritten (module PUTs,
// event sources), a sequence number and a created_at from the database's clock taken after the lock.
import type { JsonObject } from './json-values.ts';

/** How a commit is flushed: 'full' answers a write once it survives a power loss; 'relaxed' may lose it. */
export type Durability = 'full' | 'relaxed';

/** How a store is opened (`edgeops serve`'s flags): every backend takes the same options. */
export interface StoreOptions {
  durability?: Durability;
  /** PostgreSQL connections per instance. */
  poolSize?: number;
  log?: (line: string) => void;
}

/** The account every row belongs to until accounts are configured. */
export const DEFAULT_ACCOUNT = 'default';

export interface DocMeta {
  id: string;
  kind: string;
  parentId: string | null;
  createdAt: string;
  seq: number;
}

export interface StoredDoc<D = JsonObject> extends DocMeta {
  data: D;
}

export interface Referrer {
  fromId: string;
  kind: string;
  field: string;
}

/** Who holds a claimed value: the owning document, and whether it is in the caller's account. */
export interface ClaimHolder {
  ownerId: string;
  sameAccount: boolean;
}

/** The reads and writes of one transaction, all within its account. */
export interface StoreTx {
  readonly accountId: string;
  /** The database's clock: in a write, read after the write lock, so created_at follows commit order. */
  now(): Date;
  get<D = JsonObject>(id: string): Promise<StoredDoc<D> | undefined>;
  /** Inserts with created_at from now(). */
  insert<D>(meta: { id: string; kind: string; parentId?: string | null }, data: D): Promise<StoredDoc<D>>;
  update<D>(id: string, data: D): Promise<void>;
  /** Removes the document with its outgoing refs and claims, and leaves a tombstone for paging. */
  delete(doc: DocMeta): Promise<void>;
  /** Position of an id (live or deleted) of this kind, for `before_id`. */
  seqOf(id: string, kind: string): Promise<number | undefined>;
  /** Newest first, strictly older than beforeSeq. */
  list<D = JsonObject>(kind: string, opts: { parentId?: string; beforeSeq?: number; limit: number }): Promise<StoredDoc<D>[]>;
  /** Replaces every outgoing reference of fromId. */
  setRefs(fromId: string, refs: readonly { toId: string; field: string }[]): Promise<void>;
  referrers(toId: string): Promise<Referrer[]>;
  /** Replaces every claim of ownerId; a value another document holds throws ClaimTakenError. */
  setClaims(ownerId: string, claims: readonly { scope: string; key: string }[]): Promise<void>;
  /** The holder of a claimed value in any account. */
  claimHolder(scope: string, key: string): Promise<ClaimHolder | undefined>;
}

export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface Store {
  /** 'sqlite' or 'postgres', for logs and the start-up banner. */
  readonly backend: string;
  /**
   * fn on one consistent snapshot, and the store's version at that snapshot: a cached answer made from it is
   * valid while version() still returns the same value.
   */
  read<T>(accountId: string, fn: (tx: StoreTx) => Promise<T>): Promise<{ value: T; version: string }>;
  /** fn holding the write lock; a throw rolls back everything fn wrote. */
  write<T>(accountId: string, fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /** Changes in the same transaction as every write, from any instance or process. */
  version(): Promise<string>;
  /** Admits and counts one request of `key`, or says how long until a slot frees, across every instance. */
  rateTake(key: string, limit: number, windowMs: number): Promise<RateVerdict>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  /** How many documents each account holds, for the start-up check that every account with data has a key. */
  documentCounts(): Promise<Map<string, number>>;
  close(): Promise<void>;
}

/** A claimed value held by another document: the write is refused with the claim's conflict code. */
export class ClaimTakenError extends Error {
  constructor(readonly scope: string, readonly key: string) {
    super(`${scope} ${key} is claimed`);
    this.name = 'ClaimTakenError';
  }
}

/**
 * The database cannot carry out the request now, though nothing is wrong with it: 'busy' (a lock wait timed
 * out, a serialization failure, a deadlock) or 'unavailable' (no connection). Answered 503 with Retry-After;
 * nothing was written.
 */
export class StoreUnavailableError extends Error {
  constructor(readonly reason: 'busy' | 'unavailable', readonly detail: string) {
    super(`store ${reason}: ${detail}`);
    this.name = 'StoreUnavailableError';
  }
}

/** The database holds a schema this build does not know, or cannot be migrated: refused at start. */
export class StoreSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreSchemaError';
  }
}

/** created_at as the public API writes it, from the transaction's clock. */
export { nowTimestamp as timestampOf } from './ids.ts';
