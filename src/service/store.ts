// The one place that talks to SQLite. Every resource is a JSON document in `docs`, ordered by an insertion
// sequence (stable newest-first even within one millisecond). `refs` records which document references which
// (for 400 on dangling references and 409 on deleting a referenced one); `claims` holds values that must be
// unique across kinds (hostports); `tombstones` keep a deleted id's position so `before_id` still pages.
import Database from 'better-sqlite3';
import type { JsonObject } from './validate.ts';

/** How a commit is flushed: see ServiceOptions.durability. */
export type Durability = 'full' | 'relaxed';

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

const SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  parent_id TEXT,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS docs_by_kind ON docs(kind, parent_id, seq);
CREATE INDEX IF NOT EXISTS docs_by_kind_seq ON docs(kind, seq);
CREATE TABLE IF NOT EXISTS refs (
  from_id TEXT NOT NULL,
  to_id TEXT NOT NULL,
  field TEXT NOT NULL,
  PRIMARY KEY (from_id, to_id, field)
);
CREATE INDEX IF NOT EXISTS refs_by_target ON refs(to_id);
CREATE TABLE IF NOT EXISTS claims (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX IF NOT EXISTS claims_by_owner ON claims(owner_id);
CREATE TABLE IF NOT EXISTS tombstones (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  seq INTEGER NOT NULL
);
`;

interface Row {
  seq: number;
  id: string;
  kind: string;
  parent_id: string | null;
  created_at: string;
  data: string;
}

function toDoc<D>(row: Row): StoredDoc<D> {
  return { seq: row.seq, id: row.id, kind: row.kind, parentId: row.parent_id, createdAt: row.created_at, data: JSON.parse(row.data) as D };
}

export class Store {
  private readonly db: Database.Database;
  private readonly stmt;
  /** Writes made through this Store; with SQLite's data_version (other connections' commits), see version(). */
  private writes = 0;

  /** `file` omitted or ':memory:' = in-memory database. */
  constructor(file?: string, durability: Durability = 'full') {
    this.db = new Database(file ?? ':memory:');
    this.db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL syncs only at checkpoints, so a commit already answered 201 can vanish on power loss;
    // FULL syncs the WAL at every commit. A client that trusts a 201 needs FULL.
    this.db.pragma(`synchronous = ${durability === 'relaxed' ? 'NORMAL' : 'FULL'}`);
    this.db.pragma('busy_timeout = 2000');
    this.db.exec(SCHEMA);
    const db = this.db;
    // Prepared once: statement compilation is the costliest part of a small query.
    this.stmt = {
      get: db.prepare<[string], Row>('SELECT * FROM docs WHERE id = ?'),
      locate: db.prepare<[string], { kind: string; parent_id: string | null }>('SELECT kind, parent_id FROM docs WHERE id = ?'),
      insert: db.prepare('INSERT INTO docs (id, kind, parent_id, created_at, data) VALUES (?, ?, ?, ?, ?)'),
      update: db.prepare('UPDATE docs SET data = ? WHERE id = ?'),
      delete: db.prepare('DELETE FROM docs WHERE id = ?'),
      tombstone: db.prepare('INSERT OR REPLACE INTO tombstones (id, kind, seq) VALUES (?, ?, ?)'),
      seqOf: db.prepare<[string, string, string, string], { seq: number }>(
        'SELECT seq FROM docs WHERE id = ? AND kind = ? UNION ALL SELECT seq FROM tombstones WHERE id = ? AND kind = ? LIMIT 1'),
      listAll: db.prepare<[string, number, number], Row>('SELECT * FROM docs WHERE kind = ? AND seq < ? ORDER BY seq DESC LIMIT ?'),
      listChildren: db.prepare<[string, string, number, number], Row>(
        'SELECT * FROM docs WHERE kind = ? AND parent_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?'),
      count: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM docs WHERE kind = ?'),
      refsDelete: db.prepare('DELETE FROM refs WHERE from_id = ?'),
      refsInsert: db.prepare('INSERT OR IGNORE INTO refs (from_id, to_id, field) VALUES (?, ?, ?)'),
      referrers: db.prepare<[string], { from_id: string; kind: string; field: string }>(
        'SELECT r.from_id, d.kind, r.field FROM refs r JOIN docs d ON d.id = r.from_id WHERE r.to_id = ? ORDER BY d.seq'),
      claimsDelete: db.prepare('DELETE FROM claims WHERE owner_id = ?'),
      claimsInsert: db.prepare('INSERT OR REPLACE INTO claims (scope, key, owner_id) VALUES (?, ?, ?)'),
      claimOwner: db.prepare<[string, string], { owner_id: string }>('SELECT owner_id FROM claims WHERE scope = ? AND key = ?'),
      dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    };
  }

  /**
   * Runs fn in one SQLite transaction: a throw rolls back everything fn wrote. Nested calls join the outer one.
   * `read` takes no write lock (a consistent snapshot for GETs); `write` takes it at once, so two writers
   * never both read and then conflict on upgrading.
   */
  transaction<T>(fn: () => T, mode: 'read' | 'write' = 'write'): T {
    if (this.db.inTransaction) return fn();
    const tx = this.db.transaction(fn);
    return mode === 'read' ? tx.deferred() : tx.immediate();
  }

  /**
   * Changes whenever the stored data may have: on every write through this Store and on every commit another
   * connection (another process on the same file) makes. Equal versions mean equal data.
   */
  version(): string {
    return `${this.writes}.${this.stmt.dataVersion.get()}`;
  }

  get<D = JsonObject>(id: string): StoredDoc<D> | undefined {
    const row = this.stmt.get.get(id);
    return row ? toDoc<D>(row) : undefined;
  }

  /** Kind and parent of a document without reading its data: enough to build its uri. */
  locate(id: string): { kind: string; parentId: string | null } | undefined {
    const row = this.stmt.locate.get(id);
    return row ? { kind: row.kind, parentId: row.parent_id } : undefined;
  }

  insert<D>(meta: { id: string; kind: string; parentId?: string | null; createdAt: string }, data: D): StoredDoc<D> {
    this.writes++;
    const info = this.stmt.insert.run(meta.id, meta.kind, meta.parentId ?? null, meta.createdAt, JSON.stringify(data));
    return { id: meta.id, kind: meta.kind, parentId: meta.parentId ?? null, createdAt: meta.createdAt, seq: Number(info.lastInsertRowid), data };
  }

  update<D>(id: string, data: D): void {
    this.writes++;
    this.stmt.update.run(JSON.stringify(data), id);
  }

  /** Removes the document with its outgoing refs and claims, and leaves a tombstone for paging. */
  delete(doc: DocMeta): void {
    this.writes++;
    this.stmt.delete.run(doc.id);
    this.stmt.refsDelete.run(doc.id);
    this.stmt.claimsDelete.run(doc.id);
    this.stmt.tombstone.run(doc.id, doc.kind, doc.seq);
  }

  /** Position of an id (live or deleted) of this kind, for `before_id`. */
  seqOf(id: string, kind: string): number | undefined {
    return this.stmt.seqOf.get(id, kind, id, kind)?.seq;
  }

  /** Newest first, strictly older than beforeSeq. */
  list<D = JsonObject>(kind: string, opts: { parentId?: string; beforeSeq?: number; limit: number }): StoredDoc<D>[] {
    const before = opts.beforeSeq ?? Number.MAX_SAFE_INTEGER;
    const rows = opts.parentId === undefined
      ? this.stmt.listAll.all(kind, before, opts.limit)
      : this.stmt.listChildren.all(kind, opts.parentId, before, opts.limit);
    return rows.map((r) => toDoc<D>(r));
  }

  count(kind: string): number {
    return this.stmt.count.get(kind)?.n ?? 0;
  }

  /** Replaces every outgoing reference of fromId. */
  setRefs(fromId: string, refs: readonly { toId: string; field: string }[]): void {
    this.writes++;
    this.stmt.refsDelete.run(fromId);
    for (const r of refs) this.stmt.refsInsert.run(fromId, r.toId, r.field);
  }

  referrers(toId: string): Referrer[] {
    return this.stmt.referrers.all(toId).map((r) => ({ fromId: r.from_id, kind: r.kind, field: r.field }));
  }

  /** Replaces every claim of ownerId. Callers check claimOwner first; this overwrites silently. */
  setClaims(ownerId: string, claims: readonly { scope: string; key: string }[]): void {
    this.writes++;
    this.stmt.claimsDelete.run(ownerId);
    for (const c of claims) this.stmt.claimsInsert.run(c.scope, c.key, ownerId);
  }

  claimOwner(scope: string, key: string): string | undefined {
    return this.stmt.claimOwner.get(scope, key)?.owner_id;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
