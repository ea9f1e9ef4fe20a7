// `edgeops serve` as a child process: prints its URL, answers authenticated requests, keeps data in --db (a
// SQLite file in WAL mode), applies --rate-limit, closes cleanly on SIGTERM and SIGINT, and reports a port
// already in use as a configuration error.
import { sqliteDriver } from '../../src/service/stores/sqlite-driver.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, expectError } from '../helpers/service.ts';
import { serve } from './serve-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'edgeops-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('edgeops serve', () => {
  it('serves the API with the given key and database until SIGTERM, and the data survives a restart', async () => {
    const db = join(dir, 'edge.db');
    const first = serve(['--port', '0', '--api-key', 'k1', '--api-key', 'k2', '--db', db]);
    const url = await first.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.output()).toContain('accounts: default (2 keys)');
    const created = await api({ url, apiKey: 'k2' }).post('/ip_policies', { description: 'kept' });
    expect(created.status).toBe(201);
    expect((await api({ url, apiKey: 'wrong' }).get('/ip_policies')).status).toBe(401);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('SIGTERM: closing');

    const second = serve(['--port', '0', '--api-key', 'k1', '--db', db]);
    const url2 = await second.url;
    const got = await api({ url: url2, apiKey: 'k1' }).get(`/ip_policies/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.description).toBe('kept');
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('logs one line per request (method, path, status, ms, account) to stderr, never the key, and none with --quiet', async () => {
    const s = serve(['--port', '0', '--api-key', 'k']);
    const url = await s.url;
    expect((await api({ url, apiKey: 'k' }).post('/ip_policies', {})).status).toBe(201);
    expect((await api({ url, apiKey: 'k' }).get('/ip_policies?limit=1')).status).toBe(200);
    expect((await api({ url, apiKey: 'bad' }).get('/nope')).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    const lines = s.errors().trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^edgeops serve: POST \/ip_policies 201 \d+ms account=default$/);
    expect(lines[1]).toMatch(/^edgeops serve: GET \/ip_policies\?limit=1 200 \d+ms account=default$/);
    expect(lines[2]).toMatch(/^edgeops serve: GET \/nope 401 \d+ms account=-$/);
    expect(s.errors()).not.toContain('Bearer');

    const quiet = serve(['--port', '0', '--api-key', 'k', '--quiet']);
    const quietUrl = await quiet.url;
    expect((await api({ url: quietUrl, apiKey: 'k' }).get('/ip_policies')).status).toBe(200);
    quiet.child.kill('SIGTERM');
    expect(await quiet.exited).toBe(0);
    expect(quiet.errors()).toBe('');
  });

  it('keeps --db in WAL mode, while serving and after it closed', async () => {
    const db = join(dir, 'wal.db');
    const s = serve(['--port', '0', '--api-key', 'k', '--db', db]);
    const url = await s.url;
    expect((await api({ url, apiKey: 'k' }).post('/ip_policies', {})).status).toBe(201);
    const journalMode = async () => {
      const conn = (await sqliteDriver()).open(db);
      try {
        return (conn.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode;
      } finally {
        conn.close();
      }
    };
    expect(await journalMode()).toBe('wal');
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(await journalMode()).toBe('wal');
  });

  it('an answered write survives kill -9 of the service: the reopened file has the row, and commits are synchronous=FULL', async () => {
    const db = join(dir, 'durable.db');
    const s = serve(['--port', '0', '--api-key', 'k', '--db', db]);
    const created = await api({ url: await s.url, apiKey: 'k' }).post('/ip_policies', { description: 'acknowledged' });
    expect(created.status).toBe(201);
    s.child.kill('SIGKILL');
    await s.exited;
    const conn = (await sqliteDriver()).open(db);
    try {
      const row = conn.prepare('SELECT data FROM docs WHERE id = ?').get(created.body.id) as { data: string } | undefined;
      expect(JSON.parse(row?.data ?? '{}').description).toBe('acknowledged');
    } finally {
      conn.close();
    }
    // What makes the 201 hold on power loss too (which kill -9 alone cannot show): the store's pragma.
    const { openSqliteStore } = await import('../../src/service/stores/sqlite.ts');
    type Opened = Awaited<ReturnType<typeof openSqliteStore>>;
    const synchronous = (store: Opened) =>
      ((store as unknown as { db: { prepare(sql: string): { get(): unknown } } }).db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous;
    const full = await openSqliteStore(db);
    const relaxed = await openSqliteStore(join(dir, 'relaxed.db'), 'relaxed');
    try {
      expect([synchronous(full), synchronous(relaxed)]).toEqual([2, 1]);
    } finally {
      await full.close();
      await relaxed.close();
    }
  });

  it('--durability relaxed is accepted and said; a bad mode is refused', async () => {
    const s = serve(['--port', '0', '--durability', 'relaxed']);
    try {
      expect((await api({ url: await s.url, apiKey: 'any' }).post('/ip_policies', {})).status).toBe(201);
      expect(s.output()).toContain('durability: relaxed');
    } finally {
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
    const bad = serve(['--port', '0', '--durability', 'sometimes']);
    await expect(bad.url).rejects.toThrow(/--durability <mode>' argument 'sometimes' is invalid/);
    expect(await bad.exited).toBe(1);
  });

  it('--rate-limit N answers the N+1st request in 60 s with 429 and Retry-After', async () => {
    const s = serve(['--port', '0', '--api-key', 'k', '--rate-limit', '3']);
    try {
      const c = api({ url: await s.url, apiKey: 'k' });
      expect(s.output()).toContain('rate limit: 3 requests per 60 s per key');
      for (let i = 0; i < 3; i++) expect((await c.get('/ip_policies')).status).toBe(200);
      const r = await c.get('/ip_policies');
      expectError(r, 429, 'ERR_RATE_LIMITED');
      const retry = Number(r.headers['retry-after']);
      expect(Number.isInteger(retry) && retry >= 1 && retry <= 60, String(r.headers['retry-after'])).toBe(true);
    } finally {
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  });

  it('a port already in use is a clear error, exit 1', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const busy = serve(['--port', String(port)]);
      await expect(busy.url).rejects.toThrow(`edgeops: port ${port} on 127.0.0.1 is already in use`);
      expect(await busy.exited).toBe(1);
      expect(busy.errors()).not.toContain('internal error');
      expect(busy.output()).toBe('');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('rejects a bad port', async () => {
    const bad = serve(['--port', 'eighty']);
    await expect(bad.url).rejects.toThrow(/--port: port must be an integer from 0 to 65535/);
    expect(await bad.exited).toBe(1);
  });
});
