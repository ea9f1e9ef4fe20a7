// PostgreSQL refusing the service at start, as an operator meets it: a wrong password, an unknown role, a missing
// database, a port nothing listens on, TLS the server does not offer. Each is exit 1 with one sentence naming
// the server (host and port, or socket), the database and the user, saying what to change and where the URL
// came from (--db or EDGEOPS_DATABASE_URL), and never the password. Against the run's own cluster, which trusts
// local connections: the wrong-password case adds a pg_hba.conf line asking one role of its own for a password.
// PostgreSQL project only (vitest.config.ts: test/scale).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectFailure } from '../../src/service/stores/postgres-connect.ts';
import { parsePostgresUrl } from '../../src/service/stores/postgres-url.ts';
import { edgeops, type RunResult } from '../cli/run.ts';

const BASE = inject('pgUrl');
const SOCKET_DIR = decodeURIComponent(/[?&]host=([^&]+)/.exec(BASE)![1]!);
const SOCKET = `${SOCKET_DIR}/.s.PGSQL.5432`;
const ROLE = `pw_${randomBytes(5).toString('hex')}`;
const PASSWORD = `right-${randomBytes(8).toString('hex')}`;
const WRONG = `wrong-${randomBytes(8).toString('hex')}`;

async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, url = BASE): Promise<T[]> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(url).connectionString });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

const url = (user: string, password: string | undefined, database: string, params = ''): string =>
  `postgresql://${user}${password === undefined ? '' : `:${password}`}@/${database}?host=${encodeURIComponent(SOCKET_DIR)}${params}`;

let hbaFile = '';
let hbaBefore = '';
beforeAll(async () => {
  await sql(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${PASSWORD}'`);
  [{ hba_file: hbaFile }] = await sql<{ hba_file: string }>('SHOW hba_file');
  hbaBefore = readFileSync(hbaFile, 'utf8');
  // First match wins: only this role is asked for a password; every other test keeps trust.
  writeFileSync(hbaFile, `local all ${ROLE} scram-sha-256\n${hbaBefore}`);
  await sql('SELECT pg_reload_conf()');
  // The reload is asynchronous: wait until the right password is the only way in.
  for (let i = 0; ; i++) {
    const refused = await sql('SELECT 1', url(ROLE, WRONG, 'postgres')).then(() => false, () => true);
    if (refused) break;
    if (i > 100) throw new Error('pg_hba.conf reload did not take effect');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await sql('SELECT 1 AS one', url(ROLE, PASSWORD, 'postgres'))).toEqual([{ one: 1 }]);
});
afterAll(async () => {
  if (hbaBefore) writeFileSync(hbaFile, hbaBefore);
  await sql('SELECT pg_reload_conf()');
  await sql(`DROP ROLE IF EXISTS ${ROLE}`);
});

/** One `edgeops: ` line on stderr, exit 1, nothing on stdout, no password. */
function refusal(r: RunResult, ...secrets: string[]): string {
  expect({ code: r.code, stdout: r.stdout }, r.stderr).toEqual({ code: 1, stdout: '' });
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  for (const secret of secrets) expect(r.stderr).not.toContain(secret);
  return lines[0]!.replace(/^edgeops: /, '');
}

const shown = (u: string): string => u.replace(/:[^:@/]+@/, ':***@');

describe('PostgreSQL refusing the service at start', () => {
  it('a wrong password: the server, user and database, and which setting to correct (--db or EDGEOPS_DATABASE_URL)', async () => {
    const bad = url(ROLE, WRONG, 'postgres');
    const sentence = (source: string) => `${source} ${shown(bad)}: cannot open the PostgreSQL database: the PostgreSQL server on the socket ${SOCKET} refused the password of user "${ROLE}" on database "postgres"; correct the password in ${source} (or the role's, ALTER ROLE "${ROLE}" PASSWORD '...')`;
    expect(refusal(await edgeops(['serve', '--port', '0', '--api-key', 'k', '--db', bad]), WRONG, PASSWORD)).toBe(sentence('--db'));
    expect(refusal(await edgeops(['serve', '--port', '0', '--api-key', 'k'], { env: { EDGEOPS_DATABASE_URL: bad } }), WRONG, PASSWORD)).toBe(sentence('EDGEOPS_DATABASE_URL'));
    expect(refusal(await edgeops(['serve', '--migrate-only'], { env: { EDGEOPS_DATABASE_URL: bad } }), WRONG, PASSWORD)).toBe(sentence('EDGEOPS_DATABASE_URL'));
  });

  it('an unknown role and a missing database', async () => {
    const role = `nobody_${randomBytes(4).toString('hex')}`;
    const noRole = url(role, WRONG, 'postgres');
    expect(refusal(await edgeops(['serve', '--port', '0', '--api-key', 'k', '--db', noRole]), WRONG)).toBe(
      `--db ${shown(noRole)}: cannot open the PostgreSQL database: the PostgreSQL server on the socket ${SOCKET} has no role "${role}" (for database "postgres"); correct the user in --db, or create the role: CREATE ROLE "${role}" LOGIN PASSWORD '...'`,
    );
    const database = `missing_${randomBytes(4).toString('hex')}`;
    const noDb = url('postgres', WRONG, database);
    expect(refusal(await edgeops(['serve', '--port', '0', '--api-key', 'k'], { env: { EDGEOPS_DATABASE_URL: noDb } }), WRONG)).toBe(
      `EDGEOPS_DATABASE_URL ${shown(noDb)}: cannot open the PostgreSQL database: the PostgreSQL server on the socket ${SOCKET} has no database "${database}" (user "postgres"); correct the database in EDGEOPS_DATABASE_URL, or create it: CREATE DATABASE "${database}" OWNER "postgres"`,
    );
  });

  it('a port nothing listens on', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    await new Promise((resolve) => holder.close(resolve));
    const closed = `postgres://edgeops:${WRONG}@127.0.0.1:${port}/edgeops`;
    expect(refusal(await edgeops(['serve', '--port', '0', '--api-key', 'k', '--db', closed]), WRONG)).toBe(
      `--db postgres://edgeops:***@127.0.0.1:${port}/edgeops: cannot open the PostgreSQL database: nothing accepts connections for user "edgeops" on database "edgeops" at 127.0.0.1 port ${port}: is PostgreSQL running and listening there? Correct the host and port in --db if not`,
    );
  });

  it('TLS asked for by the URL and not offered by the server', async () => {
    const tls = url('postgres', WRONG, 'postgres', '&sslmode=require');
    const r = await edgeops(['serve', '--port', '0', '--api-key', 'k', '--db', tls]);
    // pg itself warns on stderr about what sslmode=require will mean in its next major version.
    const said = refusal({ ...r, stderr: r.stderr.split('\n').filter((line) => line.startsWith('edgeops: ')).join('\n') }, WRONG);
    expect(r.stderr).not.toContain(WRONG);
    expect(said).toBe(
      `--db ${shown(tls)}: cannot open the PostgreSQL database: the PostgreSQL server on the socket ${SOCKET} does not offer TLS, which the sslmode in --db requires (user "postgres" on database "postgres"); enable ssl on the server, or change sslmode in --db`,
    );
  });

  it('a server that takes this user over TLS only (its pg_hba.conf has hostssl alone), as the server words it', () => {
    // Over the test cluster's unix socket there is no TLS to require, so the server's refusal is given as pg hands it on.
    const refused = Object.assign(new Error('no pg_hba.conf entry for host "10.0.0.5", user "edgeops", database "edge", no encryption'), { code: '28000' });
    const failure = connectFailure(refused, undefined, { connectionString: `postgres://edgeops:${WRONG}@db.internal:6543/edge` });
    expect(failure?.explain('EDGEOPS_DATABASE_URL')).toBe(
      'the PostgreSQL server at db.internal port 6543 accepts user "edgeops" on database "edge" only over TLS; add ?sslmode=require to the URL in EDGEOPS_DATABASE_URL',
    );
    expect(failure?.message).not.toContain(WRONG);
  });
});
