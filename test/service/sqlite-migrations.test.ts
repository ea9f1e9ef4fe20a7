// SQLite databases from before the schema was numbered (edgeops 0.2.0: user_version 0, no account_id) open with
// their data intact, in the default account, answering byte for byte what that release answered on them; a
// database newer than this build is refused (startService, `serve`, `serve --migrate-only`); and
// `serve --migrate-only --db FILE` migrates an SQLite file as it does a PostgreSQL schema.
//
// The old database is made here the way the 0.2.0 store made it: its schema text verbatim, WAL, and its own
// statements for each create and delete (a deleted document leaves a tombstone; AUTOINCREMENT remembers its
// seq). The expected answers are what 0.2.0's service answered on those rows, captured from that release. Only
// SQLite files, so it runs the same in either test project.
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, migrateStore, type RunningService } from '../../src/service/server.ts';
import { StoreSchemaError } from '../../src/service/store.ts';
import { SQLITE_MIGRATIONS } from '../../src/service/stores/sqlite-migrations.ts';
import { sqliteDriver } from '../../src/service/stores/sqlite-driver.ts';
import { edgeops } from '../cli/run.ts';
import { api, expectError, tempDbFile } from '../helpers/service.ts';

const LATEST = SQLITE_MIGRATIONS.at(-1)!.version;
const KEY = 'old-db-key';
const OTHER_KEY = 'other-account-key';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
});

function tempFile(): string {
  const tmp = tempDbFile();
  cleanups.push(tmp.cleanup);
  return tmp.dbFile;
}

/** edgeops 0.2.0's schema (src/service/store.ts SCHEMA), verbatim. */
const OLD_SCHEMA = `
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

const id = (prefix: string, tag: string): string => `${prefix}_${tag.padEnd(27, '0')}`;
const IDS = {
  office: id('ipp', 'Office'),
  gone: id('ipp', 'Gone'),
  third: id('ipp', 'Third'),
  rule: id('ipr', 'Rule'),
  tcp: id('edgtcp', 'Tcp'),
  https: id('edghts', 'Https'),
  route: id('edghtsrt', 'Route'),
  goneLast: id('ipp', 'GoneLast'),
};
const at = (second: number): string => `2025-01-02T03:04:0${second}Z`;

// The store's own SQLite driver (node:sqlite from Node 22.13, better-sqlite3 before: its native module loads in
// the Node it was built for only), with the two better-sqlite3 helpers this file uses.
const driver = await sqliteDriver();
type OldDb = ReturnType<typeof openDb>;
function openDb(file: string, opts: { fileMustExist?: boolean } = {}) {
  if (opts.fileMustExist && !existsSync(file)) throw new Error(`no database at ${file}`);
  const db = driver.open(file);
  return {
    exec: (sql: string) => db.exec(sql),
    prepare: (sql: string) => db.prepare(sql),
    close: () => db.close(),
    /** A setting (`name = value`) is run; a read gives its row, or with `simple` its value. */
    pragma: (sql: string, o?: { simple: true }): unknown => {
      if (sql.includes('=')) return db.exec(`PRAGMA ${sql}`);
      const row = db.prepare(`PRAGMA ${sql}`).get() as Record<string, unknown> | undefined;
      return o?.simple ? Object.values(row ?? {})[0] : row;
    },
    transaction: <A extends unknown[]>(fn: (...args: A) => void) => (...args: A): void => {
      db.exec('BEGIN');
      try {
        fn(...args);
        db.exec('COMMIT');
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
    },
  };
}

/** A 0.2.0 database at `file`: documents made and deleted with that store's own statements, in its order. */
function makeOldDatabase(file: string): void {
  const db = openDb(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(OLD_SCHEMA);
    const insert = db.prepare('INSERT INTO docs (id, kind, parent_id, created_at, data) VALUES (?, ?, ?, ?, ?)');
    const refsInsert = db.prepare('INSERT OR IGNORE INTO refs (from_id, to_id, field) VALUES (?, ?, ?)');
    const claimsInsert = db.prepare('INSERT OR REPLACE INTO claims (scope, key, owner_id) VALUES (?, ?, ?)');
    const remove = (docId: string, kind: string) => {
      const { seq } = db.prepare('SELECT seq FROM docs WHERE id = ?').get(docId) as { seq: number };
      db.prepare('DELETE FROM docs WHERE id = ?').run(docId);
      db.prepare('DELETE FROM refs WHERE from_id = ?').run(docId);
      db.prepare('DELETE FROM claims WHERE owner_id = ?').run(docId);
      db.prepare('INSERT OR REPLACE INTO tombstones (id, kind, seq) VALUES (?, ?, ?)').run(docId, kind, seq);
    };
    const create = db.transaction((docId: string, kind: string, parent: string | null, createdAt: string, data: unknown) => {
      insert.run(docId, kind, parent, createdAt, JSON.stringify(data));
    });
    create(IDS.office, 'ip_policy', null, at(1), { description: 'office', metadata: 'm1' });
    create(IDS.gone, 'ip_policy', null, at(2), { description: 'gone' });
    db.transaction(() => remove(IDS.gone, 'ip_policy'))();
    create(IDS.third, 'ip_policy', null, at(3), { description: 'third' });
    db.transaction(() => {
      insert.run(IDS.rule, 'ip_policy_rule', null, at(4), JSON.stringify({ cidr: '10.0.0.0/8', action: 'allow', ip_policy_id: IDS.office, description: 'r' }));
      refsInsert.run(IDS.rule, IDS.office, 'ip_policy_id');
    })();
    db.transaction(() => {
      insert.run(IDS.tcp, 'tcp_edge', null, at(5), JSON.stringify({ hostports: ['1.tcp.ngrok.io:12345'], description: 'tcp', backend: null, ip_restriction: null, policy: null, traffic_policy: null }));
      claimsInsert.run('hostport', '1.tcp.ngrok.io:12345', IDS.tcp);
    })();
    db.transaction(() => {
      insert.run(IDS.https, 'https_edge', null, at(6), JSON.stringify({ hostports: ['web.example.com:443'], description: 'web', mutual_tls: null, tls_termination: null }));
      claimsInsert.run('hostport', 'web.example.com:443', IDS.https);
    })();
    create(IDS.route, 'https_edge_route', IDS.https, at(7), {
      match_type: 'path_prefix', match: '/api', description: 'api', backend: null, ip_restriction: null, response_headers: null, traffic_policy: null,
    });
    // The newest document of all is a deleted one: its seq lives on in sqlite_sequence and its tombstone only.
    create(IDS.goneLast, 'ip_policy', null, at(8), { description: 'gone too' });
    db.transaction(() => remove(IDS.goneLast, 'ip_policy'))();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
  } finally {
    db.close();
  }
}

/** What edgeops 0.2.0 answered on these rows (captured from that release), at base URL `b`. */
function oldAnswers(b: string): Record<string, unknown> {
  const office = { id: IDS.office, uri: `${b}/ip_policies/${IDS.office}`, created_at: at(1), description: 'office', metadata: 'm1' };
  const third = { id: IDS.third, uri: `${b}/ip_policies/${IDS.third}`, created_at: at(3), description: 'third' };
  const route = {
    edge_id: IDS.https, id: IDS.route, description: 'api', created_at: at(7), uri: `${b}/edges/https/${IDS.https}/routes/${IDS.route}`,
    match_type: 'path_prefix', match: '/api', backend: null, ip_restriction: null, response_headers: null, traffic_policy: null,
    circuit_breaker: null, compression: null, request_headers: null, webhook_verification: null, oauth: null, saml: null, oidc: null,
    websocket_tcp_converter: null, user_agent_filter: null, policy: null,
  };
  return {
    '/ip_policies': { ip_policies: [third, office], uri: `${b}/ip_policies`, next_page_uri: null },
    [`/ip_policies?before_id=${IDS.gone}`]: { ip_policies: [office], uri: `${b}/ip_policies`, next_page_uri: null },
    [`/ip_policies/${IDS.office}`]: office,
    [`/ip_policy_rules/${IDS.rule}`]: {
      id: IDS.rule, uri: `${b}/ip_policy_rules/${IDS.rule}`, created_at: at(4), description: 'r', cidr: '10.0.0.0/8',
      ip_policy: { id: IDS.office, uri: `${b}/ip_policies/${IDS.office}` }, action: 'allow',
    },
    [`/edges/tcp/${IDS.tcp}`]: {
      id: IDS.tcp, description: 'tcp', created_at: at(5), uri: `${b}/edges/tcp/${IDS.tcp}`, hostports: ['1.tcp.ngrok.io:12345'],
      backend: null, ip_restriction: null, policy: null, traffic_policy: null,
    },
    [`/edges/https/${IDS.https}`]: {
      id: IDS.https, description: 'web', created_at: at(6), uri: `${b}/edges/https/${IDS.https}`, hostports: ['web.example.com:443'],
      mutual_tls: null, tls_termination: null, routes: [route],
    },
    [`/edges/https/${IDS.https}/routes/${IDS.route}`]: route,
  };
}

function inspect<T>(file: string, fn: (db: OldDb) => T): T {
  const db = openDb(file, { fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

async function serveFile(file: string): Promise<RunningService> {
  const svc = await startService({ host: '127.0.0.1', port: 0, apiKeys: [KEY], accounts: [`other=${OTHER_KEY}`], db: file, quiet: true });
  cleanups.push(() => svc.close());
  return svc;
}

describe('a database from before the numbering (0.2.0)', () => {
  it('opens with every document, reference, claim and tombstone intact, answering what 0.2.0 answered', async () => {
    const file = tempFile();
    makeOldDatabase(file);
    const svc = await serveFile(file);
    const c = api({ url: svc.url, apiKey: KEY });

    for (const [path, expected] of Object.entries(oldAnswers(svc.url))) {
      const r = await c.get(path);
      expect({ path, status: r.status }, r.text).toEqual({ path, status: 200 });
      // Byte for byte: same ids, created_at, field order and nulls.
      expect(r.text, path).toBe(JSON.stringify(expected));
    }
    expect(inspect(file, (db) => db.pragma('user_version', { simple: true }))).toBe(LATEST);
    expect(inspect(file, (db) => ({
      docs: db.prepare('SELECT DISTINCT account_id FROM docs').all(),
      tombstones: db.prepare('SELECT id, account_id, seq FROM tombstones ORDER BY seq').all(),
      journal: db.pragma('journal_mode', { simple: true }),
    }))).toEqual({
      docs: [{ account_id: 'default' }],
      tombstones: [{ id: IDS.gone, account_id: 'default', seq: 2 }, { id: IDS.goneLast, account_id: 'default', seq: 8 }],
      journal: 'wal',
    });
  });

  it('its rows live on as before: claims block a duplicate hostport, references block a delete, tombstones page', async () => {
    const file = tempFile();
    makeOldDatabase(file);
    const svc = await serveFile(file);
    const c = api({ url: svc.url, apiKey: KEY });

    expectError(await c.post('/edges/tcp', { hostports: ['1.tcp.ngrok.io:12345'] }), 400, 'ERR_HOSTPORT_IN_USE', IDS.tcp);
    expectError(await c.post('/edges/tls', { hostports: ['web.example.com:443'] }), 400, 'ERR_HOSTPORT_IN_USE', IDS.https);
    expectError(await c.patch(`/edges/tcp/${IDS.tcp}`, { hostports: ['web.example.com:443'] }), 400, 'ERR_HOSTPORT_IN_USE', IDS.https);
    expectError(await c.del(`/ip_policies/${IDS.office}`), 409, 'ERR_RESOURCE_IN_USE');

    // The newest seq was a deleted document's: a new one comes after it, so before_id on the deleted id still
    // pages exactly the documents that were older.
    const made = await c.post('/ip_policies', { description: 'after the upgrade' });
    expect(made.status, made.text).toBe(201);
    expect((await c.get('/ip_policies')).body.ip_policies.map((p: { id: string }) => p.id)).toEqual([made.body.id, IDS.third, IDS.office]);
    expect((await c.get(`/ip_policies?before_id=${IDS.goneLast}`)).body.ip_policies.map((p: { id: string }) => p.id)).toEqual([IDS.third, IDS.office]);
    expect((await c.get(`/ip_policies?before_id=${IDS.gone}&limit=5`)).body.ip_policies.map((p: { id: string }) => p.id)).toEqual([IDS.office]);
    expect(inspect(file, (db) => (db.prepare('SELECT seq FROM docs WHERE id = ?').get(made.body.id) as { seq: number }).seq)).toBe(9);

    // Removing the referrer frees the policy; removing the edge frees its hostport.
    expect((await c.del(`/ip_policy_rules/${IDS.rule}`)).status).toBe(204);
    expect((await c.del(`/ip_policies/${IDS.office}`)).status).toBe(204);
    expect((await c.del(`/edges/tcp/${IDS.tcp}`)).status).toBe(204);
    expect((await c.post('/edges/tcp', { hostports: ['1.tcp.ngrok.io:12345'] })).status).toBe(201);
  });

  it('its data is the default account: another account sees none of it, and cannot take its hostports', async () => {
    const file = tempFile();
    makeOldDatabase(file);
    const svc = await serveFile(file);
    const other = api({ url: svc.url, apiKey: OTHER_KEY });
    expect((await other.get('/ip_policies')).body.ip_policies).toEqual([]);
    expectError(await other.get(`/ip_policies/${IDS.office}`), 404, 'ERR_IP_POLICY_NOT_FOUND');
    expectError(await other.get(`/edges/https/${IDS.https}/routes/${IDS.route}`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    const taken = await other.post('/edges/tcp', { hostports: ['1.tcp.ngrok.io:12345'] });
    expectError(taken, 400, 'ERR_HOSTPORT_IN_USE');
    // Held in another account: not named.
    expect(taken.body.msg).not.toContain(IDS.tcp);
  });

  it('is migrated once: reopening changes nothing, and migrateStore then reports it at the latest version', async () => {
    const file = tempFile();
    makeOldDatabase(file);
    expect(await migrateStore(file)).toEqual({ from: 1, to: LATEST });
    const schema = () => inspect(file, (db) => db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all());
    const after = schema();
    expect(await migrateStore(file)).toEqual({ from: LATEST, to: LATEST });
    const svc = await serveFile(file);
    expect((await api({ url: svc.url, apiKey: KEY }).get('/ip_policies')).body.ip_policies).toHaveLength(2);
    await svc.close();
    expect(schema()).toEqual(after);
    expect(after.map((r) => (r as { name: string }).name)).not.toContain('docs_by_kind');
  });
});

describe('a database newer than this edgeops', () => {
  async function newerFile(): Promise<string> {
    const file = tempFile();
    const svc = await serveFile(file);
    expect((await api({ url: svc.url, apiKey: KEY }).post('/ip_policies', { description: 'kept' })).status).toBe(201);
    await svc.close();
    inspect(file, (db) => db.pragma(`user_version = ${LATEST + 3}`));
    return file;
  }

  it('startService and migrateStore reject it with StoreSchemaError, and leave it as it was', async () => {
    const file = await newerFile();
    for (const attempt of [startService({ host: '127.0.0.1', port: 0, db: file, quiet: true }), migrateStore(file)]) {
      const err = await attempt.then((v) => v, (e: unknown) => e);
      expect(err).toBeInstanceOf(StoreSchemaError);
      expect((err as Error).message).toBe(`the database has schema version ${LATEST + 3}, newer than this edgeops knows (${LATEST}); use a newer edgeops`);
    }
    expect(inspect(file, (db) => ({
      version: db.pragma('user_version', { simple: true }),
      docs: (db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n,
    }))).toEqual({ version: LATEST + 3, docs: 1 });
  });

  it('edgeops serve --db FILE and serve --migrate-only exit 1 with a clear message', async () => {
    const file = await newerFile();
    const message = `edgeops: --db ${file}: the database has schema version ${LATEST + 3}, newer than this edgeops knows (${LATEST}); use a newer edgeops\n`;
    for (const args of [['serve', '--port', '0', '--db', file], ['serve', '--migrate-only', '--db', file]]) {
      const r = await edgeops(args);
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 1, stdout: '', stderr: message });
    }
  });
});

describe('edgeops serve --migrate-only on SQLite', () => {
  it('migrates a 0.2.0 file, then says it is already at the latest; a new file is made at the latest', async () => {
    const file = tempFile();
    makeOldDatabase(file);
    const first = await edgeops(['serve', '--migrate-only', '--db', file]);
    expect({ code: first.code, stdout: first.stdout, stderr: first.stderr }).toEqual({ code: 0, stdout: `${file}: schema migrated from version 1 to ${LATEST}\n`, stderr: '' });
    const again = await edgeops(['serve', '--migrate-only', '--db', file]);
    expect({ code: again.code, stdout: again.stdout }).toEqual({ code: 0, stdout: `${file}: schema already at version ${LATEST}\n` });
    expect(inspect(file, (db) => db.pragma('user_version', { simple: true }))).toBe(LATEST);

    const fresh = tempFile();
    const made = await edgeops(['serve', '--migrate-only', '--db', fresh]);
    expect({ code: made.code, stdout: made.stdout }).toEqual({ code: 0, stdout: `${fresh}: schema migrated from version 0 to ${LATEST}\n` });
    expect(inspect(fresh, (db) => db.pragma('user_version', { simple: true }))).toBe(LATEST);
  });

  it('several at once on one 0.2.0 file: one migrates it, the others find it done', async () => {
    const file = tempFile();
    makeOldDatabase(file);
    const runs = await Promise.all([1, 2, 3].map(() => edgeops(['serve', '--migrate-only', '--db', file])));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const said = runs.map((r) => r.stdout.replace(`${file}: schema `, '').trim()).sort();
    expect(said).toEqual([`already at version ${LATEST}`, `already at version ${LATEST}`, `migrated from version 1 to ${LATEST}`]);
    expect(inspect(file, (db) => (db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n)).toBe(6);
  });
});
