// Schema migrations and `edgeops serve` settings on PostgreSQL, as an operator meets them: instances starting at
// the same moment on a fresh schema all come up (the migration runs once, under the advisory lock);
// `serve --migrate-only` applies the migrations and exits, and says so again when there is nothing to do; a schema
// newer than this build is refused with a clear message (exit 1, no stack, the URL's password masked) and
// startService rejects with StoreSchemaError; EDGEOPS_DATABASE_URL stands in for --db; --pool-size caps the
// connections an instance opens. PostgreSQL project only (vitest.config.ts: test/scale).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/server.ts';
import { StoreSchemaError } from '../../src/service/store.ts';
import { POSTGRES_MIGRATIONS } from '../../src/service/stores/postgres-migrations.ts';
import { parsePostgresUrl } from '../../src/service/stores/postgres-url.ts';
import { cleanEnv, edgeops, ROOT, type RunResult } from '../cli/run.ts';
import { api, expectError } from '../helpers/service.ts';

const LATEST = POSTGRES_MIGRATIONS.at(-1)!.version;
const BASE = inject('pgUrl');
/** The test server trusts every local connection, so this password is never checked: it must never be shown. */
const PASSWORD = 'migr4te-secret';
const KEY = 'migrations-key';

const schemas: string[] = [];
function freshSchema(): string {
  const name = `mig_${randomBytes(6).toString('hex')}`;
  schemas.push(name);
  return name;
}

/** The run's PostgreSQL URL for `schema`, with a password in it (postgresql://postgres:PASSWORD@/postgres?host=…). */
function urlOf(schema: string, extra = ''): string {
  const withPassword = BASE.replace(/^postgres(ql)?:\/\/postgres@/, `postgresql://postgres:${PASSWORD}@`);
  if (withPassword === BASE) throw new Error(`the test URL ${BASE} has no postgres@ user to add a password to`);
  return `${withPassword}${withPassword.includes('?') ? '&' : '?'}schema=${schema}${extra}`;
}

async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(BASE).connectionString });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
afterAll(async () => {
  for (const s of schemas) await sql(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
});

/** An answer of the CLI that a user can act on: exit 1, one clear line, no stack, no internal error, no password. */
function expectClearFailure(r: RunResult, ...says: string[]): void {
  expect({ code: r.code, stdout: r.stdout }, r.stderr).toEqual({ code: 1, stdout: '' });
  for (const text of says) expect(r.stderr).toContain(text);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at |Error:/i);
  expect(r.stderr).not.toContain(PASSWORD);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
}

/** `edgeops serve ARGS` running, with `env` on top of a clean environment: its URL once it listens. */
function serveWithEnv(args: string[], env: Record<string, string>): { url: Promise<string>; output(): string; stop(): Promise<number | null> } {
  const child = spawn(process.execPath, [join(ROOT, 'bin/edgeops.js'), 'serve', ...args], { cwd: ROOT, env: cleanEnv(env), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)[\s\S]*Press Ctrl-C to stop/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`serve exited early: ${stderr}`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  cleanups.push(stop);
  return { url, output: () => stdout + stderr, stop };
}

describe('instances starting together', () => {
  it('two instances started at the same moment on a fresh schema both come up and serve one set of data', async () => {
    const schema = freshSchema();
    const db = urlOf(schema);
    // Two in this process and two --migrate-only processes, all at once.
    const [a, b, m1, m2] = await Promise.all([
      startService({ host: '127.0.0.1', port: 0, apiKeys: [KEY], db, quiet: true }),
      startService({ host: '127.0.0.1', port: 0, apiKeys: [KEY], db, quiet: true }),
      edgeops(['serve', '--migrate-only', '--db', db]),
      edgeops(['serve', '--migrate-only', '--db', db]),
    ]);
    cleanups.push(() => a.close(), () => b.close());
    for (const m of [m1, m2]) {
      expect(m.code, m.stderr).toBe(0);
      expect(m.stdout).toMatch(new RegExp(`: schema (already at version ${LATEST}|migrated from version 0 to ${LATEST})\\n$`));
    }

    const created = await api({ url: a.url, apiKey: KEY }).post('/ip_policies', { description: 'from A' });
    expect(created.status, created.text).toBe(201);
    const seen = await api({ url: b.url, apiKey: KEY }).get(`/ip_policies/${created.body.id}`);
    expect({ status: seen.status, description: seen.body.description }).toEqual({ status: 200, description: 'from A' });
    expect(await sql(`SELECT schema_version, count(*) OVER () AS n FROM "${schema}".meta`)).toEqual([{ schema_version: LATEST, n: '1' }]);
  });
});

describe('edgeops serve --migrate-only', () => {
  it('applies the migrations and exits 0 saying from and to; a second run says it is already at the latest', async () => {
    const schema = freshSchema();
    const first = await edgeops(['serve', '--migrate-only', '--db', urlOf(schema)]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^postgresql://postgres:\\*\\*\\*@/postgres\\?host=\\S+&schema=${schema}: schema migrated from version 0 to ${LATEST}\\n$`));
    expect(first.stdout + first.stderr).not.toContain(PASSWORD);
    expect(first.stdout).not.toContain('listening');
    expect(await sql(`SELECT schema_version FROM "${schema}".meta`)).toEqual([{ schema_version: LATEST }]);
    expect(await sql('SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1', [schema])).toEqual([{ n: expect.any(Number) }]);

    const again = await edgeops(['serve', '--migrate-only', '--db', urlOf(schema)]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`: schema already at version ${LATEST}\\n$`));

    // A schema migrated ahead of time serves at once.
    const svc = await startService({ host: '127.0.0.1', port: 0, apiKeys: [KEY], db: urlOf(schema), quiet: true });
    cleanups.push(() => svc.close());
    expect((await api({ url: svc.url, apiKey: KEY }).post('/ip_policies', {})).status).toBe(201);
  });

  it('without --db or EDGEOPS_DATABASE_URL it is refused: an in-memory database has nothing to migrate', async () => {
    expectClearFailure(await edgeops(['serve', '--migrate-only']), '--migrate-only needs --db');
  });
});

describe('a schema newer than this edgeops', () => {
  it('edgeops serve exits 1 with a clear message and the password masked; startService rejects with StoreSchemaError', async () => {
    const schema = freshSchema();
    const ahead = LATEST + 5;
    expect((await edgeops(['serve', '--migrate-only', '--db', urlOf(schema)])).code).toBe(0);
    await sql(`UPDATE "${schema}".meta SET schema_version = ${ahead}`);

    const says = [`schema version ${ahead}`, `newer than this edgeops knows (${LATEST})`, 'use a newer edgeops', 'postgres:***@'];
    expectClearFailure(await edgeops(['serve', '--port', '0', '--api-key', KEY, '--db', urlOf(schema)]), ...says);
    expectClearFailure(await edgeops(['serve', '--migrate-only', '--db', urlOf(schema)]), ...says);
    expectClearFailure(await edgeops(['serve', '--port', '0', '--migrate-only'], { env: { EDGEOPS_DATABASE_URL: urlOf(schema) } }), ...says);

    const err = await startService({ host: '127.0.0.1', port: 0, db: urlOf(schema), quiet: true }).then(
      (svc) => {
        cleanups.push(() => svc.close());
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreSchemaError);
    expect((err as Error).message).toContain(`schema version ${ahead}`);
    expect((err as Error).message).not.toContain(PASSWORD);
    // Refused, not touched.
    expect(await sql(`SELECT schema_version FROM "${schema}".meta`)).toEqual([{ schema_version: ahead }]);
  });

  it('a database that cannot be reached is a clear exit 1 too, with the password masked', async () => {
    const url = `postgresql://postgres:${PASSWORD}@/postgres?host=/nonexistent-edgeops-socket-dir&schema=x`;
    const said = ['cannot open the PostgreSQL database', 'postgres:***@'];
    expectClearFailure(await edgeops(['serve', '--port', '0', '--db', url]), ...said);
    expectClearFailure(await edgeops(['serve', '--migrate-only', '--db', url]), ...said);
  });
});

describe('EDGEOPS_DATABASE_URL and --pool-size', () => {
  it('EDGEOPS_DATABASE_URL is the database when --db is absent, and --db wins over it', async () => {
    const schema = freshSchema();
    const migrated = await edgeops(['serve', '--migrate-only'], { env: { EDGEOPS_DATABASE_URL: urlOf(schema) } });
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(new RegExp(`&schema=${schema}: schema migrated from version 0 to ${LATEST}\\n$`));
    expect(migrated.stdout).not.toContain(PASSWORD);

    const s = serveWithEnv(['--port', '0', '--api-key', KEY, '--quiet'], { EDGEOPS_DATABASE_URL: urlOf(schema) });
    const url = await s.url;
    expect(s.output()).toMatch(/storage: postgres, postgresql:\/\/postgres:\*\*\*@\/postgres\?host=\S+, pool of 10\n/);
    expect(s.output()).not.toContain(PASSWORD);
    const created = await api({ url, apiKey: KEY }).post('/ip_policies', { description: 'via the environment' });
    expect(created.status, created.text).toBe(201);
    expect(await sql(`SELECT id FROM "${schema}".docs`)).toEqual([{ id: created.body.id }]);
    expect(await s.stop()).toBe(0);

    // --db given: the environment's URL (here one that cannot work) is not used.
    const other = freshSchema();
    const both = await edgeops(['serve', '--migrate-only', '--db', urlOf(other)], { env: { EDGEOPS_DATABASE_URL: 'postgresql://nobody@/nowhere?host=/nonexistent' } });
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toContain(`&schema=${other}: schema migrated`);
  });

  it('--pool-size N: the instance opens at most N connections, and requests beyond them are 503s, not hangs', async () => {
    const schema = freshSchema();
    const app = `edgeops_pool_${randomBytes(4).toString('hex')}`;
    const s = serveWithEnv(['--port', '0', '--api-key', KEY, '--quiet', '--pool-size', '3', '--db', urlOf(schema, `&application_name=${app}`)], {});
    const url = await s.url;
    expect(s.output()).toContain(', pool of 3\n');
    const c = api({ url, apiKey: KEY });
    expect((await c.post('/ip_policies', {})).status).toBe(201);

    // Hold the write lock: every write waits in its connection (2 s lock timeout), the pool runs dry.
    const holder = new pg.Client({ connectionString: parsePostgresUrl(BASE).connectionString });
    holder.on('error', () => undefined);
    await holder.connect();
    let most = 0;
    try {
      await holder.query('BEGIN');
      await holder.query(`UPDATE "${schema}".meta SET version = version`);
      const writes = Promise.all(Array.from({ length: 8 }, () => c.post('/ip_policies', {})));
      let settled = false;
      void writes.finally(() => {
        settled = true;
      });
      while (!settled) {
        const [{ n }] = await sql<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [app]);
        most = Math.max(most, n);
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const r of await writes) {
        expectError(r, 503, 'ERR_STORE_BUSY');
        expect(r.headers['retry-after']).toBe('1');
      }
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
    expect(most).toBe(3);
    expect((await c.post('/ip_policies', {})).status).toBe(201);
    expect(await s.stop()).toBe(0);
  });
});
