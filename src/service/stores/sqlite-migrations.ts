// The SQLite schema, as numbered migrations. PRAGMA user_version holds the number applied; a database made
// before the numbering (its tables there, user_version 0) is version 1, which these statements leave as it is.
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'documents, references, claims, tombstones',
    sql: `
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
);`,
  },
  {
    version: 2,
    name: 'every document and tombstone in an account',
    sql: `
ALTER TABLE docs ADD COLUMN account_id TEXT NOT NULL DEFAULT 'default';
ALTER TABLE tombstones ADD COLUMN account_id TEXT NOT NULL DEFAULT 'default';
DROP INDEX IF EXISTS docs_by_kind;
DROP INDEX IF EXISTS docs_by_kind_seq;
CREATE INDEX docs_by_account_kind ON docs(account_id, kind, parent_id, seq);
CREATE INDEX docs_by_account_kind_seq ON docs(account_id, kind, seq);`,
  },
];
