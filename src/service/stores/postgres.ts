// The PostgreSQL store: several service instances over one database (`serve --db postgresql://…`). Same model and
// answers as the SQLite store (stores/sqlite.ts); what differs is how transactions are made safe across processes:
//
// - A write starts with `UPDATE meta SET version = version + 1`: that row lock, held to commit, serializes every
//   writer of every instance (SQLite's BEGIN IMMEDIATE), so a claim checked then inserted, a parent read then
//   rewritten, a seq from doc_seq and a created_at from the database's clock all follow commit order. Waiting for
//   it longer than 2 s answers 503 (lock_timeout, like SQLite's busy_timeout).
// - A read runs on one REPEATABLE READ snapshot and reports the version in it; version() reads the latest one.
// - The rate limit is a plpgsql function over an unlogged table, shared by every instance.
//
// Database errors that mean "not now" (lock timeouts, serialization failures, deadlocks, lost or refused
// connections) become StoreUnavailableError with the SQLSTATE or errno only: never the server's text, never the
// URL (it may hold a password). Everything else, and every error the caller's fn throws, passes through unchanged.
// A connection that failed is discarded, so the pool reconnects once the database is back.
import pg from 'pg';
import type { PoolClient, PoolConfig, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import {
  ClaimTakenError, StoreSchemaError, StoreUnavailableError, timestampOf,
  type ClaimHolder, type DocMeta, type RateVerdict, type Referrer, type Store, type StoreOptions, type StoreTx,
} from '../store.ts';
import { docOfRow, type DocRow } from './doc-row.ts';
import { connectFailure } from './postgres-connect.ts';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.ts';
import { POSTGRES_STATEMENTS } from './statements.ts';
import { parsePostgresUrl, type PostgresTarget } from './postgres-url.ts';

/** Held (session-level) while migrating, so instances starting together migrate one at a time. ASCII "edgeops". */
const MIGRATION_LOCK = '28539367893987443';
const LOCK_TIMEOUT = '2s';
const CONNECT_TIMEOUT_MS = 2000;
const PING_TIMEOUT_MS = 2000;
/**
 * A statement gives up after this (503 unavailable, the connection discarded), so a database that froze or was
 * cut off by the network never hangs a request. Longer than LOCK_TIMEOUT, which answers a lock wait first.
 */
const QUERY_TIMEOUT_MS = 5000;

function timed(config: QueryConfig | string): QueryConfig {
  return { query_timeout: QUERY_TIMEOUT_MS, ...(typeof config === 'string' ? { text: config } : config) } as QueryConfig;
}
/**
 * The server ends a session left idle inside a transaction this long: a frozen or cut-off instance must not hold
 * the write lock, which every instance waits for, until TCP notices. No handler legitimately pauses this long.
 */
const IDLE_IN_TRANSACTION_MS = 30_000;

/** The hot statements, prepared once per connection by name. */
const SQL = POSTGRES_STATEMENTS;

type StatementName = keyof typeof SQL;

const READ_BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT version, (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now_ms FROM meta';
function writeBegin(syncCommit: boolean): string {
  return `BEGIN; SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'; SET LOCAL synchronous_commit = ${syncCommit ? 'on' : 'off'}; ` +
    'UPDATE meta SET version = version + 1 RETURNING version, (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now_ms';
}

// --- connection settings ---------------------------------------------------------------------------------------

function clientConfig(target: PostgresTarget): PoolConfig {
  const options = [target.options, target.schema !== undefined ? `-c search_path=${target.schema}` : undefined].filter((o) => o).join(' ');
  return {
    connectionString: target.connectionString,
    ...(options ? { options } : {}),
    application_name: 'edgeops',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    keepAlive: true,
  };
}

// --- errors ----------------------------------------------------------------------------------------------------

const BUSY_SQLSTATES = new Set(['55P03', '40001', '40P01', '57014', '53300']);
const GONE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '25P03']);
const GONE_ERRNOS = new Set([
  'ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN',
  'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'EACCES',
]);
/** pg's own errors, which carry no code: message → the short code reported. */
const GONE_MESSAGES: readonly [RegExp, 'busy' | 'unavailable', string][] = [
  [/^timeout exceeded when trying to connect$/, 'busy', 'pool_timeout'],
  [/^Connection terminated due to connection timeout$/, 'unavailable', 'connect_timeout'],
  [/^Connection terminated/, 'unavailable', 'connection_terminated'],
  [/not queryable|^Client was closed/, 'unavailable', 'connection_closed'],
  [/^Query read timeout$/, 'unavailable', 'query_timeout'],
  [/^Cannot use a pool after calling end/, 'unavailable', 'closed'],
];

/** A driver or server error as the store's 503, or undefined when it is not one. */
function unavailableOf(err: unknown): StoreUnavailableError | undefined {
  if (err instanceof StoreUnavailableError) return err;
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (BUSY_SQLSTATES.has(code)) return new StoreUnavailableError('busy', code);
    if (GONE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || GONE_ERRNOS.has(code)) return new StoreUnavailableError('unavailable', code);
  }
  for (const [re, reason, short] of GONE_MESSAGES) if (re.test(err.message)) return new StoreUnavailableError(reason, short);
  return undefined;
}

function mapPgError(err: unknown): unknown {
  return unavailableOf(err) ?? err;
}

function closedError(): StoreUnavailableError {
  return new StoreUnavailableError('unavailable', 'the store is closed');
}

/** A short description of an error for the log: its code, never the server's text. */
function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : (unavailableOf(err)?.detail ?? 'error');
}

// --- migrations ------------------------------------------------------------------------------------------------

const LATEST = POSTGRES_MIGRATIONS.at(-1)!.version;

/** Brings the schema to the latest version on one connection, under the migration lock. */
async function migrateOn(client: pg.ClientBase, schema: string | undefined): Promise<{ from: number; to: number }> {
  await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await client.query('BEGIN');
    try {
      if (schema !== undefined) {
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await client.query(`SET LOCAL search_path TO "${schema}"`);
      }
      const exists = await client.query<{ t: string | null }>("SELECT to_regclass('meta')::text AS t");
      let from = 0;
      if (exists.rows[0]?.t) {
        from = Number((await client.query<{ schema_version: number }>('SELECT schema_version FROM meta')).rows[0]?.schema_version ?? 0);
      }
      if (from > LATEST) {
        throw new StoreSchemaError(
          `the database${schema !== undefined ? ` schema ${schema}` : ''} has schema version ${from}, newer than this edgeops knows (${LATEST}); use a newer edgeops`,
        );
      }
      for (const m of POSTGRES_MIGRATIONS) {
        if (m.version <= from) continue;
        try {
          await client.query(m.sql);
          await client.query('UPDATE meta SET schema_version = $1', [m.version]);
        } catch (err) {
          const unavailable = unavailableOf(err);
          if (unavailable) throw unavailable;
          const e = err as { code?: unknown; message?: unknown };
          throw new StoreSchemaError(`migrating the PostgreSQL schema to version ${m.version} (${m.name}) failed: ${String(e.message)}${typeof e.code === 'string' ? ` (${e.code})` : ''}`);
        }
      }
      await client.query('COMMIT');
      return { from, to: Math.max(from, LATEST) };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
  }
}

/** Applies the migrations the database lacks, then disconnects (`serve --migrate-only`). */
export async function migratePostgres(url: string): Promise<{ from: number; to: number }> {
  const target = parsePostgresUrl(url);
  const client = new pg.Client(clientConfig(target));
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await migrateOn(client, target.schema);
  } catch (err) {
    throw connectFailure(err, unavailableOf(err), clientConfig(target)) ?? mapPgError(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

// --- the store -------------------------------------------------------------------------------------------------

export async function openPostgresStore(url: string, opts: StoreOptions = {}): Promise<PostgresStore> {
  const target = parsePostgresUrl(url);
  const pool = new pg.Pool({ ...clientConfig(target), max: opts.poolSize ?? 10 });
  const log = opts.log;
  // An idle connection whose server went away (restart, failover, admin kill) is reported here and dropped by
  // the pool; without a listener it would crash the process.
  pool.on('error', (err) => log?.(`postgres: an idle connection failed (${codeOf(err)}); the pool reconnects on demand`));
  try {
    const client = await pool.connect();
    const onError = (): void => undefined;
    client.on('error', onError);
    let broken: unknown;
    try {
      await migrateOn(client, target.schema);
    } catch (err) {
      broken = err;
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken !== undefined);
    }
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw connectFailure(err, unavailableOf(err), clientConfig(target)) ?? mapPgError(err);
  }
  return new PostgresStore(pool, opts);
}

/** One checked-out connection: queries with errors mapped, and whether it is still fit to go back to the pool. */
class Session {
  broken = false;
  private readonly onError = (): void => {
    this.broken = true;
  };

  constructor(readonly client: PoolClient) {
    // A checked-out client has no pool listener: a connection lost between queries would be an unhandled 'error'.
    client.on('error', this.onError);
  }

  async query<R extends QueryResultRow>(config: QueryConfig | string): Promise<QueryResult<R>> {
    try {
      return await this.client.query<R>(timed(config));
    } catch (err) {
      throw this.failed(err);
    }
  }

  /** Runs a prepared hot statement. */
  run<R extends QueryResultRow>(name: StatementName, values: unknown[]): Promise<QueryResult<R>> {
    return this.query<R>({ name: `edgeops_${name}`, text: SQL[name], values });
  }

  /** The last result of a multi-statement simple query. */
  async script<R extends QueryResultRow>(text: string): Promise<QueryResult<R>> {
    const res = (await this.query<R>(text)) as QueryResult<R> | QueryResult<R>[];
    return Array.isArray(res) ? res.at(-1)! : res;
  }

  failed(err: unknown): unknown {
    const mapped = unavailableOf(err);
    if (mapped?.reason === 'unavailable') this.broken = true;
    return mapped ?? err;
  }

  release(): void {
    this.client.off('error', this.onError);
    this.client.release(this.broken);
  }
}

class PostgresStore implements Store {
  readonly backend = 'postgres';
  private ending: Promise<void> | undefined;
  private readonly beginWrite: string;

  constructor(private readonly pool: pg.Pool, opts: StoreOptions = {}) {
    this.beginWrite = writeBegin(opts.durability !== 'relaxed');
  }

  async read<T>(accountId: string, fn: (tx: StoreTx) => Promise<T>): Promise<{ value: T; version: string }> {
    return this.transaction(READ_BEGIN, accountId, async (head, tx) => ({ value: await fn(tx), version: head.version }));
  }

  async write<T>(accountId: string, fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.transaction(this.beginWrite, accountId, (_head, tx) => fn(tx));
  }

  async version(): Promise<string> {
    const res = await this.poolQuery<{ version: string }>({ name: 'edgeops_version', text: SQL.version });
    return String(res.rows[0]!.version);
  }

  async rateTake(key: string, limit: number, windowMs: number): Promise<RateVerdict> {
    const res = await this.poolQuery<{ wait: number }>({ name: 'edgeops_rateTake', text: SQL.rateTake, values: [key, limit, windowMs] });
    const wait = Number(res.rows[0]!.wait);
    return wait === 0 ? { ok: true } : { ok: false, retryAfterSeconds: wait };
  }

  async ping(): Promise<void> {
    await this.poolQuery({ text: 'SELECT 1', query_timeout: PING_TIMEOUT_MS } as QueryConfig);
  }

  async documentCounts(): Promise<Map<string, number>> {
    const res = await this.poolQuery<{ account_id: string; n: string }>({ text: 'SELECT account_id, COUNT(*) AS n FROM docs GROUP BY account_id' });
    return new Map(res.rows.map((r) => [r.account_id, Number(r.n)]));
  }

  close(): Promise<void> {
    return (this.ending ??= this.pool.end().catch(() => undefined));
  }

  private async poolQuery<R extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>> {
    if (this.ending) throw closedError();
    try {
      return await this.pool.query<R>(timed(config));
    } catch (err) {
      throw mapPgError(err);
    }
  }

  /**
   * One transaction on one connection: `begin` (ending in a query returning version and now_ms), fn, COMMIT.
   * A throw rolls back and is rethrown as it was (database errors already mapped where they happened).
   */
  private async transaction<T>(
    begin: string,
    accountId: string,
    fn: (head: { version: string }, tx: StoreTx) => Promise<T>,
  ): Promise<T> {
    if (this.ending) throw closedError();
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw mapPgError(err);
    }
    const session = new Session(client);
    try {
      const head = (await session.script<{ version: string; now_ms: string }>(begin)).rows[0]!;
      const value = await fn({ version: String(head.version) }, this.tx(session, accountId, new Date(Number(head.now_ms))));
      const done = await session.query('COMMIT');
      // A statement failed inside fn and fn went on: PostgreSQL answers COMMIT with ROLLBACK. Never report that as
      // written.
      if (done.command === 'ROLLBACK') throw new Error('the transaction was rolled back: a statement in it failed');
      return value;
    } catch (err) {
      if (!session.broken) {
        try {
          await session.client.query('ROLLBACK');
        } catch {
          session.broken = true;
        }
      }
      throw err;
    } finally {
      session.release();
    }
  }

  private tx(s: Session, accountId: string, clock: Date): StoreTx {
    return {
      accountId,
      now: () => clock,
      get: async <D>(id: string) => {
        const row = (await s.run<DocRow>('get', [id, accountId])).rows[0];
        return row ? docOfRow<D>(row) : undefined;
      },
      insert: async <D>(meta: { id: string; kind: string; parentId?: string | null }, data: D) => {
        const createdAt = timestampOf(clock);
        const parentId = meta.parentId ?? null;
        const res = await s.run<{ seq: string }>('insert', [meta.id, accountId, meta.kind, parentId, createdAt, JSON.stringify(data)]);
        return { id: meta.id, kind: meta.kind, parentId, createdAt, seq: Number(res.rows[0]!.seq), data };
      },
      update: async (id, data) => {
        await s.run('update', [JSON.stringify(data), id, accountId]);
      },
      delete: async (doc: DocMeta) => {
        await s.run('delete', [doc.id, accountId, doc.kind, doc.seq]);
      },
      seqOf: async (id, kind) => {
        const row = (await s.run<{ seq: string }>('seqOf', [id, kind, accountId])).rows[0];
        return row === undefined ? undefined : Number(row.seq);
      },
      list: async <D>(kind: string, opts: { parentId?: string; beforeSeq?: number; limit: number }) => {
        const before = opts.beforeSeq ?? Number.MAX_SAFE_INTEGER;
        const res = opts.parentId === undefined
          ? await s.run<DocRow>('listAll', [accountId, kind, before, opts.limit])
          : await s.run<DocRow>('listChildren', [accountId, kind, opts.parentId, before, opts.limit]);
        return res.rows.map((r) => docOfRow<D>(r));
      },
      setRefs: async (fromId, refs) => {
        await s.run('refsDelete', [fromId]);
        if (refs.length > 0) await s.run('refsInsert', [fromId, refs.map((r) => r.toId), refs.map((r) => r.field)]);
      },
      referrers: async (toId): Promise<Referrer[]> =>
        (await s.run<{ from_id: string; kind: string; field: string }>('referrers', [toId])).rows.map((r) => ({ fromId: r.from_id, kind: r.kind, field: r.field })),
      setClaims: async (ownerId, claims) => {
        await s.run('claimsDelete', [ownerId]);
        for (const c of claims) {
          const res = await s.run('claimsInsert', [c.scope, c.key, ownerId]);
          if (res.rowCount === 0) throw new ClaimTakenError(c.scope, c.key);
        }
      },
      claimHolder: async (scope, key): Promise<ClaimHolder | undefined> => {
        const row = (await s.run<{ owner_id: string; account_id: string }>('claimHolder', [scope, key])).rows[0];
        return row ? { ownerId: row.owner_id, sameAccount: row.account_id === accountId } : undefined;
      },
    };
  }
}
