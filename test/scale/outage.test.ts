// A PostgreSQL that goes away under a running instance, on a cluster of this file's own (so it can be stopped and
// started again without touching the test run's one): while it is down every API request is a 503 with the
// error envelope and Retry-After (never a 500, never a hang), /healthz stays 200 and /readyz is 503; once it is
// back the same instance serves again with no restart, its data intact. And a writer holding the write lock
// (the meta row) past the lock timeout makes a write a 503 ERR_STORE_BUSY while reads go on.
// PostgreSQL project only (vitest.config.ts: test/scale).
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startService, type RunningService } from '../../src/service/server.ts';
import { parsePostgresUrl } from '../../src/service/stores/postgres-url.ts';
import { expectError, type ApiResponse } from '../helpers/service.ts';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';
import { pausable, socketDirOf, type PausableCluster } from '../support/postgres-pause.ts';

const KEY = 'outage-key';
/** Longer than anything the store waits for (connect 2 s, lock 2 s, ping 2 s): a request still open is a hang. */
const BOUND_MS = 8_000;
/** A password the server (trust auth) ignores: it must show up in no answer and no log line. */
const PASSWORD = 'outage-s3cret';

let cluster: PostgresCluster | undefined;
let db: PausableCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
  db = pausable(cluster);
});
afterAll(async () => {
  await cluster?.stop();
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** The cluster's URL for a schema of its own, with a password in it. */
function urlFor(schema: string): string {
  return `${cluster!.url.replace('postgresql://postgres@', `postgresql://postgres:${PASSWORD}@`)}&schema=${schema}`;
}

/** What the service logs (it writes to stderr unless quiet), collected while a test runs. */
function captureLog(): string[] {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.startsWith('edgeops serve: ')) {
      lines.push(text);
      return true;
    }
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write);
  cleanups.push(() => spy.mockRestore());
  return lines;
}

async function start(schema: string, opts: { rateLimit?: number; faults?: string; poolSize?: number } = {}): Promise<RunningService> {
  const svc = await startService({ host: '127.0.0.1', port: 0, apiKeys: [KEY], db: urlFor(schema), poolSize: opts.poolSize ?? 4, ...opts });
  cleanups.push(() => svc.close());
  return svc;
}

interface Answer extends ApiResponse {
  ms: number;
  what: string;
}

/** One request, bounded: one that is still unanswered after BOUND_MS comes back as status 0 ('hung'). */
async function call(svc: RunningService, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const what = `${method} ${path}`;
  const started = Date.now();
  const allHeaders: Record<string, string> = {
    authorization: `Bearer ${KEY}`, 'service-version': '2', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers,
  };
  for (const [k, v] of Object.entries(allHeaders)) if (v === '') delete allHeaders[k];
  try {
    const res = await request(`${svc.url}${path}`, {
      method: method as 'GET', headers: allHeaders, body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: BOUND_MS, bodyTimeout: BOUND_MS,
    });
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.statusCode, headers: res.headers, body: parsed, text, ms: Date.now() - started, what };
  } catch (err) {
    const e = err as Error & { code?: string };
    return { status: 0, headers: {}, body: undefined, text: `hung or failed: ${e.code ?? e.message}`, ms: Date.now() - started, what };
  }
}

/** A 503 of the store, exactly: the envelope, one of its two codes, Retry-After in whole seconds. */
function expectStore503(r: Answer): void {
  expect({ what: r.what, status: r.status }, r.text).toEqual({ what: r.what, status: 503 });
  expect(['ERR_STORE_UNAVAILABLE', 'ERR_STORE_BUSY'], r.text).toContain(r.body.error_code);
  expectError(r, 503, r.body.error_code as string);
  expect(String(r.headers['retry-after']), r.what).toMatch(/^[1-9]\d*$/);
  expect(r.text).not.toContain(PASSWORD);
  expect(r.ms, `${r.what} took ${r.ms} ms`).toBeLessThan(BOUND_MS);
}

/** Every endpoint shape a client uses, on the documents made before the outage. */
function apiRequests(ids: { policy: string; rule: string; edge: string }): [string, string, unknown?][] {
  return [
    ['GET', '/ip_policies'],
    ['GET', '/ip_policies?limit=1'],
    ['GET', `/ip_policies/${ids.policy}`],
    ['GET', `/ip_policy_rules/${ids.rule}`],
    ['GET', `/edges/tcp/${ids.edge}`],
    ['GET', `/edges/tcp/${ids.edge}/backend`],
    ['POST', '/ip_policies', { description: 'during the outage' }],
    ['POST', '/edges/tcp', { hostports: ['5.tcp.ngrok.io:20005'] }],
    ['PATCH', `/ip_policies/${ids.policy}`, { description: 'patched during the outage' }],
    ['PUT', `/edges/tcp/${ids.edge}/ip_restriction`, { enabled: true, ip_policy_ids: [ids.policy] }],
    ['DELETE', `/ip_policy_rules/${ids.rule}`],
    ['GET', '/ip_policies/ipp_doesnotexist0000000000000000'],
  ];
}

describe('the database stops and starts again under a running instance', () => {
  it('every API request is a 503 while it is down, /healthz 200, /readyz 503; then the same instance serves again', async () => {
    const log = captureLog();
    const svc = await start('outage_main');
    // A second instance with the rate limit on: its first step (the shared limiter) is in the database too.
    const limited = await start('outage_main', { rateLimit: 1000 });

    const policy = await call(svc, 'POST', '/ip_policies', { description: 'before' });
    expect(policy.status, policy.text).toBe(201);
    const rule = await call(svc, 'POST', '/ip_policy_rules', { cidr: '10.0.0.0/8', action: 'allow', ip_policy_id: policy.body.id });
    expect(rule.status, rule.text).toBe(201);
    const edge = await call(svc, 'POST', '/edges/tcp', { hostports: ['1.tcp.ngrok.io:20001'] });
    expect(edge.status, edge.text).toBe(201);
    const ids = { policy: policy.body.id as string, rule: rule.body.id as string, edge: edge.body.id as string };
    // Warm the read cache and fill the pool with idle connections the stop will kill.
    const before = await call(svc, 'GET', '/ip_policies');
    expect(before.status).toBe(200);
    await Promise.all(Array.from({ length: 6 }, () => call(svc, 'GET', `/ip_policies/${ids.policy}`)));
    expect((await call(limited, 'GET', '/ip_policies')).status).toBe(200);

    await db.pause();
    try {
      for (let round = 0; round < 2; round++) {
        // One at a time, then all at once (more than the pool holds).
        for (const [method, path, body] of apiRequests(ids)) expectStore503(await call(svc, method, path, body));
        const together = await Promise.all([
          ...apiRequests(ids).map(([method, path, body]) => call(svc, method, path, body)),
          ...apiRequests(ids).map(([method, path, body]) => call(limited, method, path, body)),
        ]);
        for (const r of together) expectStore503(r);

        expect((await call(svc, 'GET', '/healthz', undefined, { authorization: '', 'service-version': '' })).status).toBe(200);
        expect((await call(svc, 'HEAD', '/healthz', undefined, { authorization: '' })).status).toBe(200);
        const readyz = await call(svc, 'GET', '/readyz', undefined, { authorization: '', 'service-version': '' });
        expectError(readyz, 503, 'ERR_STORE_UNAVAILABLE');
        expect(readyz.headers['retry-after']).toBe('1');
        expect(readyz.ms).toBeLessThan(BOUND_MS);
        // What needs no database is answered as always.
        expectError(await call(svc, 'GET', '/ip_policies', undefined, { authorization: '' }), 401, 'ERR_AUTH_MISSING');
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      await db.resume();
    }

    // Back: the same instances, no restart. The pool reconnects on demand; allow it a moment, not a restart.
    let ready: Answer | undefined;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      ready = await call(svc, 'GET', '/readyz', undefined, { authorization: '' });
      if (ready.status === 200) break;
      expectStore503(ready);
    }
    expect(ready?.body).toEqual({ status: 'ready', store: 'postgres' });

    const got = await call(svc, 'GET', `/ip_policies/${ids.policy}`);
    expect({ status: got.status, description: got.body.description }).toEqual({ status: 200, description: 'before' });
    expect((await call(svc, 'GET', `/edges/tcp/${ids.edge}`)).body.hostports).toEqual(['1.tcp.ngrok.io:20001']);
    const created = await call(svc, 'POST', '/ip_policies', { description: 'after' });
    expect(created.status, created.text).toBe(201);
    const patched = await call(svc, 'PATCH', `/ip_policies/${ids.policy}`, { description: 'patched after' });
    expect(patched.status, patched.text).toBe(200);
    expect((await call(svc, 'DELETE', `/ip_policy_rules/${ids.rule}`)).status).toBe(204);
    // Nothing answered 503 was written: the list is what was made before and after, and nothing else.
    const list = await call(limited, 'GET', '/ip_policies');
    expect(list.status, list.text).toBe(200);
    expect((list.body.ip_policies as { description: string }[]).map((p) => p.description)).toEqual(['after', 'patched after']);
    expect((await call(svc, 'GET', '/edges/tcp')).body.tcp_edges).toHaveLength(1);
    expectError(await call(limited, 'POST', '/edges/tcp', { hostports: ['1.tcp.ngrok.io:20001'] }), 400, 'ERR_HOSTPORT_IN_USE');

    const all = log.join('');
    expect(all).not.toContain('unexpected error');
    expect(all).not.toContain(PASSWORD);
    expect(all).toMatch(/store unavailable/);
  });

  it('a request already inside the service when the database stops is a 503 too, and one after it is back a 201', async () => {
    const svc = await start('outage_inflight', { faults: 'POST.latency=700' });
    expect((await call(svc, 'POST', '/ip_policies', {})).status).toBe(201);
    const inFlight = call(svc, 'POST', '/ip_policies', { description: 'in flight' });
    await new Promise((r) => setTimeout(r, 150));
    await db.pause();
    try {
      expectStore503(await inFlight);
    } finally {
      await db.resume();
    }
    let status = 0;
    for (let i = 0; i < 20 && status !== 201; i++) {
      const r = await call(svc, 'POST', '/ip_policies', { description: 'after' });
      status = r.status;
      if (status !== 201) expectStore503(r);
    }
    expect(status).toBe(201);
  });

  /**
   * A database that stops answering without closing its connections (frozen, or a network partition) must not
   * leave a request that meets a pooled connection waiting for good: statements time out.
   */
  it('a database that stops answering (frozen, its connections open) gives 503s within the bound, not hangs', async () => {
    const svc = await start('outage_frozen');
    await Promise.all(Array.from({ length: 4 }, () => call(svc, 'POST', '/ip_policies', {})));
    const dir = socketDirOf(cluster!.url);
    const postmaster = Number(readFileSync(`${dir}/data/postmaster.pid`, 'utf8').split('\n')[0]);
    const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
    const pids = [postmaster, ...children];
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    let answers: Answer[];
    try {
      answers = await Promise.all([call(svc, 'GET', '/ip_policies'), call(svc, 'POST', '/ip_policies', {}), call(svc, 'GET', '/readyz')]);
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    for (const r of answers) expectStore503(r);
  });
});

describe('a writer holding the write lock', () => {
  it('past the lock timeout a write is 503 ERR_STORE_BUSY with Retry-After, reads go on; released, writes succeed', async () => {
    const schema = 'outage_lock';
    const svc = await start(schema);
    const made = await call(svc, 'POST', '/ip_policies', { description: 'made before the lock' });
    expect(made.status).toBe(201);

    const holder = new pg.Client({ connectionString: parsePostgresUrl(cluster!.url).connectionString });
    holder.on('error', () => undefined);
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`UPDATE "${schema}".meta SET version = version`);

      const [post, patch, del] = await Promise.all([
        call(svc, 'POST', '/ip_policies', { description: 'blocked' }),
        call(svc, 'PATCH', `/ip_policies/${made.body.id}`, { description: 'blocked' }),
        call(svc, 'DELETE', `/ip_policies/${made.body.id}`),
      ]);
      for (const r of [post, patch, del]) {
        expectStore503(r);
        expect(r.body.error_code, r.text).toBe('ERR_STORE_BUSY');
        expect(r.headers['retry-after']).toBe('1');
        // It waited for the lock (2 s), and no longer than the bound.
        expect(r.ms).toBeGreaterThanOrEqual(1800);
      }
      // Readers take no write lock; the store answers, so the instance is ready.
      const list = await call(svc, 'GET', '/ip_policies');
      expect(list.status, list.text).toBe(200);
      expect((await call(svc, 'GET', '/readyz', undefined, { authorization: '' })).status).toBe(200);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }

    const after = await call(svc, 'POST', '/ip_policies', { description: 'after the lock' });
    expect(after.status, after.text).toBe(201);
    const list = await call(svc, 'GET', '/ip_policies');
    expect((list.body.ip_policies as { description: string }[]).map((p) => p.description)).toEqual(['after the lock', 'made before the lock']);
  });
});
