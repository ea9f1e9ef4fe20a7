// SIGTERM on `edgeops serve` as an orchestrator sends it: the request in flight still gets its 201 (and its write
// is kept), a new connection after the signal is refused, and the process exits 0 as soon as the request is done,
// long before the 10 s grace; a request still arriving at the end of the grace is cut off and the process still
// exits 0.
// On an SQLite file and once on PostgreSQL, where the pool is closed too (no connection left behind).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { parsePostgresUrl } from '../../src/service/stores/postgres-url.ts';
import { sqliteDriver } from '../../src/service/stores/sqlite-driver.ts';
import { api, type ApiResponse } from '../helpers/service.ts';
import { serve, type ServeChild } from './serve-child.ts';

const KEY = 'drain-key';
const dir = mkdtempSync(join(tmpdir(), 'edgeops-drain-'));
const children: ServeChild[] = [];
afterEach(() => {
  for (const s of children.splice(0)) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(args: string[]): ServeChild {
  const s = serve(['--port', '0', '--api-key', KEY, ...args]);
  children.push(s);
  return s;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('open');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  for (const end = Date.now() + ms; !check(); await sleep(20)) if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
}

/** The exit code, or 'running' if the process has not exited within ms. */
function exitWithin(s: ServeChild, ms: number): Promise<number | null | 'running'> {
  return Promise.race([s.exited, sleep(ms).then(() => 'running' as const)]);
}

/**
 * SIGTERM while a POST (made slow by --faults latency) is in flight: the answer and timings, and whether a new
 * connection was refused once the process said it was closing.
 */
async function sigtermDuringPost(s: ServeChild, latencyMs: number): Promise<{ created: ApiResponse; exit: number | null | 'running'; afterSignalMs: number; fresh: string }> {
  const url = await s.url;
  const port = Number(new URL(url).port);
  const c = api({ url, apiKey: KEY });
  expect((await c.get('/ip_policies')).status).toBe(200);
  const sent = Date.now();
  const inFlight = c.post('/ip_policies', { description: 'in flight at SIGTERM' });
  await sleep(300);
  s.child.kill('SIGTERM');
  const signalled = Date.now();
  await until(() => s.output().includes('SIGTERM: closing'), 5000, 'the closing line');
  const fresh = await tryConnect(port);
  const created = await inFlight;
  expect(Date.now() - sent).toBeGreaterThanOrEqual(latencyMs - 50);
  const exit = await exitWithin(s, 5000);
  return { created, exit, afterSignalMs: Date.now() - signalled, fresh };
}

describe('SIGTERM on edgeops serve', () => {
  it('on SQLite: the request in flight gets its 201, new connections are refused, and the process exits 0 once it is done', async () => {
    const db = join(dir, 'drain.db');
    const s = start(['--db', db, '--faults', 'POST.latency=1500']);
    const { created, exit, afterSignalMs, fresh } = await sigtermDuringPost(s, 1500);
    expect(created.status, created.text).toBe(201);
    expect(fresh).toBe('ECONNREFUSED');
    expect(exit).toBe(0);
    // With the request, not at the end of the 10 s grace.
    expect(afterSignalMs).toBeLessThan(5000);
    expect(s.output()).toContain('SIGTERM: closing (requests in flight get up to 10 s)');
    expect(s.errors()).not.toMatch(/unexpected error|Error:/);

    // The store's own driver: better-sqlite3's native module loads in the Node it was built for only.
    const conn = (await sqliteDriver()).open(db);
    try {
      const row = conn.prepare('SELECT data FROM docs WHERE id = ?').get(created.body.id) as { data: string } | undefined;
      expect(JSON.parse(row?.data ?? '{}').description).toBe('in flight at SIGTERM');
    } finally {
      conn.close();
    }
  });

  it('on PostgreSQL: the same, and the pool is closed: no connection of the instance is left', async () => {
    const schema = `drain_${randomBytes(5).toString('hex')}`;
    const app = `edgeops_drain_${randomBytes(4).toString('hex')}`;
    const base = inject('pgUrl');
    const db = `${base}${base.includes('?') ? '&' : '?'}schema=${schema}&application_name=${app}`;
    const client = new pg.Client({ connectionString: parsePostgresUrl(base).connectionString });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const s = start(['--db', db, '--pool-size', '4', '--faults', 'POST.latency=1500']);
      await s.url;
      const connections = async () =>
        (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [app])).rows[0]!.n;
      const { created, exit, afterSignalMs, fresh } = await sigtermDuringPost(s, 1500);
      expect(created.status, created.text).toBe(201);
      expect(fresh).toBe('ECONNREFUSED');
      expect(exit).toBe(0);
      expect(afterSignalMs).toBeLessThan(5000);
      expect(s.output()).toContain('storage: postgres');

      const rows = (await client.query(`SELECT id FROM "${schema}".docs WHERE id = $1`, [created.body.id])).rows;
      expect(rows).toEqual([{ id: created.body.id }]);
      // The server notices a closed connection at once; allow it a moment to drop the backend.
      let left = await connections();
      for (let i = 0; i < 50 && left > 0; i++, await sleep(20)) left = await connections();
      expect(left).toBe(0);
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await client.end();
    }
  });

  it('a request still arriving at the end of the 10 s grace is cut off there, and the process still exits 0', async () => {
    const s = start(['--quiet']);
    const port = Number(new URL(await s.url).port);
    // A slow client: the headers and half the body, then nothing.
    const socket = connect(port, '127.0.0.1');
    let closed = false;
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /ip_policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nService-Version: 2\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"description":`);
    await sleep(200);
    const signalled = Date.now();
    s.child.kill('SIGTERM');
    try {
      expect(await exitWithin(s, 14_000)).toBe(0);
      const took = Date.now() - signalled;
      expect(took).toBeGreaterThanOrEqual(9_500);
      expect(took).toBeLessThan(13_000);
      await until(() => closed, 2000, 'the slow client cut off');
    } finally {
      socket.destroy();
    }
  }, 30_000);

  /**
   * http.Server keeps half-open sockets, and a refused CONNECT's socket is one it no longer tracks: a client that
   * keeps its half open must not hold the process up after SIGTERM.
   */
  it('exits after SIGTERM even while a refused CONNECT client keeps its half of the connection open', async () => {
    const s = start(['--quiet']);
    const url = await s.url;
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.allowHalfOpen = true;
    socket.on('error', () => undefined);
    let answer = '';
    socket.on('data', (d: Buffer) => {
      answer += d.toString('latin1');
    });
    try {
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      await until(() => answer.includes('\r\n\r\n'), 3000, 'the 405');
      expect(answer).toMatch(/^HTTP\/1\.1 405 /);
      s.child.kill('SIGTERM');
      expect(await exitWithin(s, 3000)).toBe(0);
    } finally {
      socket.destroy();
    }
  });
});
