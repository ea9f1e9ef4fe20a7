// The SQL both stores run, in one file: the statements that read and write alike on both are written once, with
// the dialect's placeholder (`?` in SQLite, `$1` in PostgreSQL); each store's own statements sit beside them,
// each difference said once. The differences are of the databases, not of behaviour (a document, its refs and
// claims, its tombstone and the referrers' order are the same on both; test/scale/differential.test.ts compares):
// - a new document's seq: SQLite's rowid, PostgreSQL's doc_seq sequence (returned);
// - a delete: SQLite deletes the row, its refs and claims, then writes the tombstone, statement by statement;
//   PostgreSQL's foreign keys cascade them and one statement deletes and writes the tombstone;
// - referrers are ordered by the referring document's seq; PostgreSQL also keeps each document's refs in the
//   order they were inserted (ord), which SQLite's rowid order gives already;
// - a taken claim: SQLite's insert fails (and the store reads the holder), PostgreSQL's returns no row, so the
//   transaction stays usable as SQLite's does.
import { DOC_COLUMNS } from './doc-row.ts';

/** The placeholder of the n-th (1-based) value of a statement. */
type Placeholder = (n: number) => string;

/** The statements written once: the same text on both databases but for the placeholders. */
function shared($: Placeholder) {
  return {
    get: `SELECT ${DOC_COLUMNS} FROM docs WHERE id = ${$(1)} AND account_id = ${$(2)}`,
    update: `UPDATE docs SET data = ${$(1)} WHERE id = ${$(2)} AND account_id = ${$(3)}`,
    listAll: `SELECT ${DOC_COLUMNS} FROM docs WHERE account_id = ${$(1)} AND kind = ${$(2)} AND seq < ${$(3)} ORDER BY seq DESC LIMIT ${$(4)}`,
    listChildren: `SELECT ${DOC_COLUMNS} FROM docs WHERE account_id = ${$(1)} AND kind = ${$(2)} AND parent_id = ${$(3)} AND seq < ${$(4)} ORDER BY seq DESC LIMIT ${$(5)}`,
    refsDelete: `DELETE FROM refs WHERE from_id = ${$(1)}`,
    claimsDelete: `DELETE FROM claims WHERE owner_id = ${$(1)}`,
    claimHolder: `SELECT c.owner_id, d.account_id FROM claims c JOIN docs d ON d.id = c.owner_id WHERE c.scope = ${$(1)} AND c.key = ${$(2)}`,
  };
}

export const SQLITE_STATEMENTS = {
  ...shared(() => '?'),
  insert: 'INSERT INTO docs (id, account_id, kind, parent_id, created_at, data) VALUES (?, ?, ?, ?, ?, ?)',
  delete: 'DELETE FROM docs WHERE id = ?',
  tombstone: 'INSERT OR REPLACE INTO tombstones (id, account_id, kind, seq) VALUES (?, ?, ?, ?)',
  seqOf: 'SELECT seq FROM docs WHERE id = ? AND kind = ? AND account_id = ? UNION ALL SELECT seq FROM tombstones WHERE id = ? AND kind = ? AND account_id = ? LIMIT 1',
  refsInsert: 'INSERT OR IGNORE INTO refs (from_id, to_id, field) VALUES (?, ?, ?)',
  referrers: 'SELECT r.from_id, d.kind, r.field FROM refs r JOIN docs d ON d.id = r.from_id WHERE r.to_id = ? ORDER BY d.seq',
  claimsInsert: 'INSERT INTO claims (scope, key, owner_id) VALUES (?, ?, ?)',
  dataVersion: 'PRAGMA data_version',
  ping: 'SELECT 1 AS one',
};

export const POSTGRES_STATEMENTS = {
  ...shared((n) => `$${n}`),
  insert: "INSERT INTO docs (seq, id, account_id, kind, parent_id, created_at, data) VALUES (nextval('doc_seq'), $1, $2, $3, $4, $5, $6) RETURNING seq",
  // Outgoing refs and claims go with the document (ON DELETE CASCADE); a ref to it fails the statement (23503).
  delete: `WITH gone AS (DELETE FROM docs WHERE id = $1)
    INSERT INTO tombstones (id, account_id, kind, seq) VALUES ($1, $2, $3, $4)
    ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, kind = excluded.kind, seq = excluded.seq`,
  seqOf: `(SELECT seq FROM docs WHERE id = $1 AND kind = $2 AND account_id = $3)
    UNION ALL (SELECT seq FROM tombstones WHERE id = $1 AND kind = $2 AND account_id = $3) LIMIT 1`,
  refsInsert: `INSERT INTO refs (from_id, to_id, field, ord)
    SELECT $1, r.to_id, r.field, r.ord FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS r (to_id, field, ord)
    ON CONFLICT DO NOTHING`,
  referrers: 'SELECT r.from_id, d.kind, r.field FROM refs r JOIN docs d ON d.id = r.from_id WHERE r.to_id = $1 ORDER BY d.seq, r.ord',
  // ON CONFLICT instead of catching 23505: a taken value returns no row and leaves the transaction usable, as a
  // failed insert does in SQLite. The primary key is still what refuses it.
  claimsInsert: 'INSERT INTO claims (scope, key, owner_id) VALUES ($1, $2, $3) ON CONFLICT (scope, key) DO NOTHING RETURNING owner_id',
  version: 'SELECT version FROM meta',
  rateTake: 'SELECT edgeops_rate_take($1, $2, $3) AS wait',
};
