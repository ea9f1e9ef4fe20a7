// The SQLite store: one connection, the embedded default (`serve --db FILE`, in memory without one, `--local`).
// SQLite's own locking serializes writers across processes on one file; within this process, transactions run
// one at a time through a promise queue, since an `await` inside a handler would otherwise let another
// request's statements into the open transaction.
import { RateLimiter } from '../rate-limit.ts';
import {
  ClaimTakenError, StoreSchemaError, StoreUnavailableError, timestampOf,
  type ClaimHolder, type DocMeta, type Durability, type RateVerdict, type Referrer, type Store, type StoreTx,
} from '../store.ts';
import { docOfRow, type DocRow } from './doc-row.ts';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.ts';
import { SQLITE_STATEMENTS } from './statements.ts';
import { sqliteDriver, type SqliteDatabase, type SqliteStatement } from './sqlite-driver.ts';

export async function openSqliteStore(file: string | undefined, durability: Durability = 'full'): Promise<SqliteStore> {
  const driver = await sqliteDriver();
  const db = driver.open(file ?? ':memory:');
  try {
    return new SqliteStore(db, durability, driver.name);
  } catch (err) {
    db.close();
    throw err;
  }
}

class SqliteStore implements Store {
  readonly backend: string;
  private readonly stmt: Record<string, SqliteStatement>;
  /** Writes committed through this connection; with data_version (other connections' commits), see version(). */
  private writes = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly limiter = new Map<string, RateLimiter>();
  private closed = false;
  /** The schema versions before and after opening. */
  readonly migrated: { from: number; to: number };

  constructor(private readonly db: SqliteDatabase, durability: Durability, driverName: string) {
    this.backend = `sqlite (${driverName})`;
    // First: node:sqlite waits for no lock unless told to, and the next statements may meet another process's.
    db.exec('PRAGMA busy_timeout = 2000');
    db.exec('PRAGMA journal_mode = WAL');
    // In WAL mode NORMAL syncs only at checkpoints, so a commit already answered 201 can vanish on power loss;
    // FULL syncs the WAL at every commit. A client that trusts a 201 needs FULL.
    db.exec(`PRAGMA synchronous = ${durability === 'relaxed' ? 'NORMAL' : 'FULL'}`);
    this.migrated = migrate(db);
    // Prepared once: statement compilation is the costliest part of a small query.
    this.stmt = Object.fromEntries(Object.entries(SQLITE_STATEMENTS).map(([name, sql]) => [name, db.prepare(sql)]));
  }

  read<T>(accountId: string, fn: (tx: StoreTx) => Promise<T>): Promise<{ value: T; version: string }> {
    return this.serialized(async () => {
      this.db.exec('BEGIN');
      try {
        const version = this.currentVersion();
        const value = await fn(this.tx(accountId, new Date()));
        this.db.exec('COMMIT');
        return { value, version };
      } catch (err) {
        this.db.exec('ROLLBACK');
        throw err;
      }
    });
  }

  write<T>(accountId: string, fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.serialized(async () => {
      try {
        this.db.exec('BEGIN IMMEDIATE');
      } catch (err) {
        throw busy(err);
      }
      try {
        const value = await fn(this.tx(accountId, new Date()));
        this.db.exec('COMMIT');
        return value;
      } catch (err) {
        this.db.exec('ROLLBACK');
        throw busy(err);
      } finally {
        this.writes++;
      }
    });
  }

  async version(): Promise<string> {
    if (this.closed) throw new StoreUnavailableError('unavailable', 'the store is closed');
    return this.currentVersion();
  }

  async rateTake(key: string, limit: number, windowMs: number): Promise<RateVerdict> {
    const id = `${limit}/${windowMs}`;
    let limiter = this.limiter.get(id);
    if (!limiter) this.limiter.set(id, (limiter = new RateLimiter(limit, windowMs)));
    return limiter.take(key);
  }

  async ping(): Promise<void> {
    if (this.closed) throw new StoreUnavailableError('unavailable', 'the store is closed');
    this.stmt.ping!.get();
  }

  async documentCounts(): Promise<Map<string, number>> {
    if (this.closed) throw new StoreUnavailableError('unavailable', 'the store is closed');
    const rows = this.db.prepare('SELECT account_id, COUNT(*) AS n FROM docs GROUP BY account_id').all() as { account_id: string; n: number | bigint }[];
    return new Map(rows.map((r) => [r.account_id, Number(r.n)]));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    this.db.close();
  }

  /** Equal versions mean equal data: this connection's writes, and every commit of another connection. */
  private currentVersion(): string {
    return `${this.writes}.${(this.stmt.dataVersion!.get() as { data_version: number }).data_version}`;
  }

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('unavailable', 'the store is closed'));
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private tx(accountId: string, clock: Date): StoreTx {
    const s = this.stmt;
    return {
      accountId,
      now: () => clock,
      get: async <D>(id: string) => {
        const row = s.get!.get(id, accountId) as DocRow | undefined;
        return row ? docOfRow<D>(row) : undefined;
      },
      insert: async <D>(meta: { id: string; kind: string; parentId?: string | null }, data: D) => {
        const createdAt = timestampOf(clock);
        const info = s.insert!.run(meta.id, accountId, meta.kind, meta.parentId ?? null, createdAt, JSON.stringify(data));
        return { id: meta.id, kind: meta.kind, parentId: meta.parentId ?? null, createdAt, seq: Number(info.lastInsertRowid), data };
      },
      update: async (id, data) => {
        s.update!.run(JSON.stringify(data), id, accountId);
      },
      delete: async (doc: DocMeta) => {
        s.delete!.run(doc.id);
        s.refsDelete!.run(doc.id);
        s.claimsDelete!.run(doc.id);
        s.tombstone!.run(doc.id, accountId, doc.kind, doc.seq);
      },
      seqOf: async (id, kind) => {
        const row = s.seqOf!.get(id, kind, accountId, id, kind, accountId) as { seq: number } | undefined;
        return row === undefined ? undefined : Number(row.seq);
      },
      list: async <D>(kind: string, opts: { parentId?: string; beforeSeq?: number; limit: number }) => {
        const before = opts.beforeSeq ?? Number.MAX_SAFE_INTEGER;
        const rows = (opts.parentId === undefined
          ? s.listAll!.all(accountId, kind, before, opts.limit)
          : s.listChildren!.all(accountId, kind, opts.parentId, before, opts.limit)) as DocRow[];
        return rows.map((r) => docOfRow<D>(r));
      },
      setRefs: async (fromId, refs) => {
        s.refsDelete!.run(fromId);
        for (const r of refs) s.refsInsert!.run(fromId, r.toId, r.field);
      },
      referrers: async (toId): Promise<Referrer[]> =>
        (s.referrers!.all(toId) as { from_id: string; kind: string; field: string }[]).map((r) => ({ fromId: r.from_id, kind: r.kind, field: r.field })),
      setClaims: async (ownerId, claims) => {
        s.claimsDelete!.run(ownerId);
        for (const c of claims) {
          try {
            s.claimsInsert!.run(c.scope, c.key, ownerId);
          } catch (err) {
            if (isConstraint(err)) throw new ClaimTakenError(c.scope, c.key);
            throw err;
          }
        }
      },
      claimHolder: async (scope, key): Promise<ClaimHolder | undefined> => {
        const row = s.claimHolder!.get(scope, key) as { owner_id: string; account_id: string } | undefined;
        return row ? { ownerId: row.owner_id, sameAccount: row.account_id === accountId } : undefined;
      },
    };
  }
}

/** Applies the migrations this database lacks, in one immediate transaction (so two processes never both do). */
function migrate(db: SqliteDatabase): { from: number; to: number } {
  const latest = SQLITE_MIGRATIONS.at(-1)!.version;
  db.exec('BEGIN IMMEDIATE');
  try {
    let current = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    if (current > latest) {
      throw new StoreSchemaError(`the database has schema version ${current}, newer than this edgeops knows (${latest}); use a newer edgeops`);
    }
    if (current === 0 && db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'docs'").get()) current = 1;
    for (const m of SQLITE_MIGRATIONS) if (m.version > current) db.exec(m.sql);
    db.exec(`PRAGMA user_version = ${latest}`);
    db.exec('COMMIT');
    return { from: current, to: latest };
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

function sqliteCode(err: unknown): string {
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_')) return e.code;
  // node:sqlite reports ERR_SQLITE_ERROR with the numeric result code in errcode.
  const codes: Record<number, string> = { 5: 'SQLITE_BUSY', 6: 'SQLITE_LOCKED', 19: 'SQLITE_CONSTRAINT' };
  return typeof e?.errcode === 'number' ? (codes[e.errcode & 0xff] ?? '') : '';
}

function isConstraint(err: unknown): boolean {
  return sqliteCode(err).startsWith('SQLITE_CONSTRAINT');
}

/** SQLite's lock timeout as the store's 503; anything else unchanged. */
function busy(err: unknown): unknown {
  const code = sqliteCode(err);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return new StoreUnavailableError('busy', code);
  return err;
}
