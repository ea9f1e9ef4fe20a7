// The PostgreSQL schema, as numbered migrations (see sqlite-migrations.ts for the SQLite one). `meta.schema_version`
// holds the number applied; stores/postgres.ts applies the missing ones at start, under an advisory lock, in one
// transaction, in the schema the URL's `?schema=` names (or the connection's default one).
//
// Ids, kinds and account ids are compared byte for byte (COLLATE "C"), whatever the database's locale. Document
// data is the JSON text the service wrote, kept verbatim (never jsonb, which reorders keys, drops duplicates and
// rewrites numbers), so both stores answer the same bytes.
import type { Migration } from './sqlite-migrations.ts';

export type { Migration };

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'meta, documents, references, claims, tombstones, rate limit',
    sql: `
-- One row. Every write transaction bumps version first: the row lock serializes writers across instances (so
-- seq, created_at and every check-then-write follow commit order) and the version tells read caches what changed.
CREATE TABLE meta (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  version bigint NOT NULL DEFAULT 0,
  schema_version int NOT NULL DEFAULT 0
);
INSERT INTO meta (one, version, schema_version) VALUES (true, 0, 0);

-- nextval() runs after the meta lock, so seq order is commit order.
CREATE SEQUENCE doc_seq;

CREATE TABLE docs (
  seq bigint PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  account_id text COLLATE "C" NOT NULL DEFAULT 'default',
  kind text COLLATE "C" NOT NULL,
  parent_id text COLLATE "C",
  created_at text NOT NULL,
  data text NOT NULL
);
CREATE INDEX docs_top ON docs (account_id, kind, seq DESC);
CREATE INDEX docs_child ON docs (account_id, kind, parent_id, seq DESC);

-- Deleting a document drops its outgoing references; deleting one still referenced fails (23503), never silently.
-- ord keeps the order setRefs was given, for referrers() of one document through several fields.
CREATE TABLE refs (
  from_id text COLLATE "C" NOT NULL REFERENCES docs (id) ON DELETE CASCADE,
  to_id text COLLATE "C" NOT NULL REFERENCES docs (id),
  field text COLLATE "C" NOT NULL,
  ord int NOT NULL DEFAULT 0,
  PRIMARY KEY (from_id, to_id, field)
);
CREATE INDEX refs_by_target ON refs (to_id);

-- Values unique across every kind and every account (hostports); the primary key is the backstop.
CREATE TABLE claims (
  scope text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  owner_id text COLLATE "C" NOT NULL REFERENCES docs (id) ON DELETE CASCADE,
  PRIMARY KEY (scope, key)
);
CREATE INDEX claims_by_owner ON claims (owner_id);

-- A deleted id's position, so before_id still pages past it.
CREATE TABLE tombstones (
  id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL DEFAULT 'default',
  kind text COLLATE "C" NOT NULL,
  seq bigint NOT NULL
);

-- The request rate limit shared by every instance: per key, the times (ms, the database's clock) of the admitted
-- requests in the window, oldest first. Unlogged: no WAL, and emptied after a crash, which only forgets recent
-- requests.
CREATE UNLOGGED TABLE rate_hits (
  rate_key text COLLATE "C" PRIMARY KEY,
  hits bigint[] NOT NULL
);

-- The sliding log of rate-limit.ts: admits and records one request of key (0), or returns the whole seconds
-- (>= 1) until the oldest admitted request leaves the window. Refused requests are not recorded, so a client
-- that waits as told gets through. One row lock per key orders concurrent callers on every instance.
CREATE FUNCTION edgeops_rate_take(key text, lim int, window_ms bigint) RETURNS int
LANGUAGE plpgsql
SET search_path FROM CURRENT
SET lock_timeout = '2s'
AS $fn$
DECLARE
  v_hits bigint[];
  v_now bigint;
BEGIN
  SELECT h.hits INTO v_hits FROM rate_hits h WHERE h.rate_key = key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO rate_hits (rate_key, hits) VALUES (key, '{}') ON CONFLICT (rate_key) DO NOTHING;
    SELECT h.hits INTO v_hits FROM rate_hits h WHERE h.rate_key = key FOR UPDATE;
  END IF;
  -- The clock is read once the row is locked, so times are appended in order.
  v_now := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
  v_hits := ARRAY(SELECT u.t FROM unnest(v_hits) WITH ORDINALITY AS u (t, i) WHERE u.t > v_now - window_ms ORDER BY u.i);
  IF cardinality(v_hits) >= lim THEN
    RETURN greatest(1, ceil((coalesce(v_hits[1], v_now) + window_ms - v_now) / 1000.0))::int;
  END IF;
  UPDATE rate_hits SET hits = v_hits || v_now WHERE rate_key = key;
  RETURN 0;
END
$fn$;`,
  },
];
