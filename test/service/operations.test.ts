// What an orchestrator relies on, on the test project's store: GET/HEAD /healthz and /readyz outside API
// authentication, the version header and the rate limit; /readyz 503 with the error envelope while the store
// does not answer, however it fails; and close({graceMs}) as SIGTERM uses it: new connections refused at once,
// the request in flight finishing with its 201, a busy keep-alive client not keeping the service up, a bounded
// stop even with a connection the HTTP server no longer tracks, and graceMs 0 cutting the request off unwritten.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, request } from 'undici';
import { Accounts, apiKeyFlag } from '../../src/service/accounts.ts';
import { createApp } from '../../src/service/app.ts';
import { RESOURCES } from '../../src/service/routes.ts';
import { startService, type RunningService } from '../../src/service/server.ts';
import type { Store } from '../../src/service/store.ts';
import { openStore } from '../../src/service/stores/open.ts';
import { api, expectError, storeOf, TEST_STORE, tempDbFile, type ApiResponse } from '../helpers/service.ts';

const KEY = 'ops-key';
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** startService on a fresh db of the project's store, closed (cut off) after the file unless the test closed it. */
async function start(opts: { faults?: string; rateLimit?: number } = {}): Promise<{ svc: RunningService; db: string; dbFile: string }> {
  const tmp = tempDbFile();
  const db = storeOf(tmp.dbFile);
  const svc = await startService({ host: '127.0.0.1', port: 0, apiKeys: [KEY], db, quiet: true, ...opts });
  cleanups.push(tmp.cleanup, () => svc.close());
  return { svc, db, dbFile: tmp.dbFile };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const portOf = (url: string): number => Number(new URL(url).port);

/** Whether a new TCP connection to the port is accepted ('open') or refused (the error code). */
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

/** Rejects with a message naming `what` when `promise` takes longer than ms. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('health checks', () => {
  it('GET and HEAD /healthz and /readyz answer 200 with no Authorization and no Service-Version, whatever those say', async () => {
    const { svc } = await start();
    const c = api({ url: svc.url, apiKey: KEY });
    // The API itself still wants both.
    expectError(await c.raw('GET', '/ip_policies', { bare: true }), 401, 'ERR_AUTH_MISSING');

    const variants: Record<string, string>[] = [{}, { authorization: 'Bearer not-a-key' }, { authorization: 'Basic eA==', 'service-version': '99' }];
    for (const headers of variants) {
      const healthz = await c.raw('GET', '/healthz', { bare: true, headers });
      expect({ status: healthz.status, body: healthz.body }, healthz.text).toEqual({ status: 200, body: { status: 'ok' } });
      expect(healthz.headers['content-type']).toBe('application/json');
      const readyz = await c.raw('GET', '/readyz?verbose=1', { bare: true, headers });
      expect({ status: readyz.status, body: readyz.body }, readyz.text).toEqual({ status: 200, body: { status: 'ready', store: svc.backend } });
    }
    expect(svc.backend).toMatch(TEST_STORE === 'postgres' ? /^postgres$/ : /^sqlite \(/);

    for (const path of ['/healthz', '/readyz']) {
      const head = await c.raw('HEAD', path, { bare: true });
      expect({ path, status: head.status, text: head.text }).toEqual({ path, status: 200, text: '' });
      expect(head.headers['content-type']).toBe('application/json');
    }
  });

  it('health checks do not count against the rate limit, and do not need it', async () => {
    const { svc } = await start({ rateLimit: 2 });
    const c = api({ url: svc.url, apiKey: KEY });
    for (let i = 0; i < 5; i++) {
      expect((await c.raw('GET', '/healthz', { bare: true })).status).toBe(200);
      expect((await c.raw('GET', '/readyz', { bare: true })).status).toBe(200);
    }
    expect((await c.get('/ip_policies')).status).toBe(200);
    expect((await c.get('/ip_policies')).status).toBe(200);
    expectError(await c.get('/ip_policies'), 429, 'ERR_RATE_LIMITED');
    // Still ready while the key is limited.
    expect((await c.raw('GET', '/readyz', { bare: true })).status).toBe(200);
  });
});

describe('/readyz while the store fails', () => {
  /** The app (as startService wires it) over a store the test controls, on a port of its own. */
  async function appOn(store: Store, log: string[]): Promise<{ url: string; server: Server }> {
    const app = createApp({ store, resources: RESOURCES, accounts: new Accounts([apiKeyFlag(KEY)]), log: (line) => log.push(line) });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  }

  function expectNotReady(r: ApiResponse): void {
    expectError(r, 503, 'ERR_STORE_UNAVAILABLE');
    expect(r.headers['retry-after']).toBe('1');
  }

  it('a store that is closed underneath: /readyz 503 with the envelope and Retry-After, /healthz 200, the API 503', async () => {
    const tmp = tempDbFile();
    cleanups.push(tmp.cleanup);
    const store = await openStore(storeOf(tmp.dbFile));
    const log: string[] = [];
    const { url } = await appOn(store, log);
    const c = api({ url, apiKey: KEY });
    expect((await c.raw('GET', '/readyz', { bare: true })).status).toBe(200);
    expect((await c.post('/ip_policies', {})).status).toBe(201);

    await store.close();
    expectNotReady(await c.raw('GET', '/readyz', { bare: true }));
    const head = await c.raw('HEAD', '/readyz', { bare: true });
    expect({ status: head.status, text: head.text }).toEqual({ status: 503, text: '' });
    expect((await c.raw('GET', '/healthz', { bare: true })).status).toBe(200);
    const created = await c.post('/ip_policies', {});
    expectError(created, 503, 'ERR_STORE_UNAVAILABLE');
    expect(created.headers['retry-after']).toBe('1');
    expect(log.join('\n')).not.toContain('unexpected error');
  });

  // A cached GET asks the store's version first: on a closed store that too is a 503.
  it('a GET on a store closed underneath is a 503 too, not a 500', async () => {
    const tmp = tempDbFile();
    cleanups.push(tmp.cleanup);
    const store = await openStore(storeOf(tmp.dbFile));
    const log: string[] = [];
    const { url } = await appOn(store, log);
    const c = api({ url, apiKey: KEY });
    expect((await c.get('/ip_policies')).status).toBe(200);
    await store.close();
    const list = await c.get('/ip_policies');
    expectError(list, 503, 'ERR_STORE_UNAVAILABLE');
    expect(list.headers['retry-after']).toBe('1');
    expect(log.join('\n')).not.toContain('unexpected error');
  });

  it('a ping failing with an error no backend maps (a driver or disk error) is still a 503, never a 500', async () => {
    const tmp = tempDbFile();
    cleanups.push(tmp.cleanup);
    const real = await openStore(storeOf(tmp.dbFile));
    cleanups.push(() => real.close());
    let failure: unknown;
    const store = new Proxy(real, {
      get(target, prop) {
        if (prop === 'ping') return () => (failure === undefined ? target.ping() : Promise.reject(failure));
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const log: string[] = [];
    const { url } = await appOn(store, log);
    const c = api({ url, apiKey: KEY });
    expect((await c.raw('GET', '/readyz', { bare: true })).status).toBe(200);

    for (const err of [
      Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }),
      new TypeError('The database connection is not open'),
      'a thrown string',
    ]) {
      failure = err;
      const r = await c.raw('GET', '/readyz', { bare: true });
      expectNotReady(r);
      // The store's own words stay in the log, out of the answer.
      expect(r.text).not.toMatch(/disk I\/O|not open|thrown string/);
    }
    expect(log.join('\n')).not.toContain('unexpected error');
    expect(log.some((line) => line.includes('GET /readyz') && line.includes('SQLITE_IOERR'))).toBe(true);

    failure = undefined;
    expect((await c.raw('GET', '/readyz', { bare: true })).status).toBe(200);
    expect((await c.get('/ip_policies')).status).toBe(200);
  });
});

describe('close({ graceMs })', () => {
  it('refuses new connections at once, lets the request in flight finish with its 201, and resolves when it has', async () => {
    const { svc, db } = await start({ faults: 'POST.latency=800' });
    const c = api({ url: svc.url, apiKey: KEY });
    const port = portOf(svc.url);
    const sent = Date.now();
    const inFlight = c.post('/ip_policies', { description: 'in flight at close' });
    await sleep(250);
    expect(await tryConnect(port)).toBe('open');

    const closeStarted = Date.now();
    let closedAt: number | undefined;
    const closing = svc.close({ graceMs: 5000 }).then(() => {
      closedAt = Date.now();
    });
    expect(await tryConnect(port)).toBe('ECONNREFUSED');
    const fresh = await request(`${svc.url}/healthz`).then((r) => r.statusCode, (err: NodeJS.ErrnoException) => err.code);
    expect(fresh).toBe('ECONNREFUSED');
    expect(closedAt, 'close resolved with a request in flight').toBeUndefined();

    const created = await within(5000, 'the request in flight', inFlight);
    expect(created.status, created.text).toBe(201);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(750);
    await within(3000, 'close after the last request', closing);
    // Done when the request was, not at the end of the grace period.
    expect(closedAt! - closeStarted).toBeLessThan(2500);

    // What was answered 201 is there for the next instance.
    const next = await startService({ host: '127.0.0.1', port: 0, apiKeys: [KEY], db, quiet: true });
    try {
      const got = await api({ url: next.url, apiKey: KEY }).get(`/ip_policies/${created.body.id}`);
      expect({ status: got.status, description: got.body.description }).toEqual({ status: 200, description: 'in flight at close' });
    } finally {
      await next.close();
    }
  });

  it('with graceMs 0 the request in flight is cut off, close resolves at once, and the request writes nothing', async () => {
    const { svc, db } = await start({ faults: 'POST.latency=800' });
    const c = api({ url: svc.url, apiKey: KEY });
    const inFlight = c.post('/ip_policies', { description: 'cut off' }).then(
      (r) => `answered ${r.status}`,
      (err: Error & { code?: string }) => `failed ${err.code ?? err.message}`,
    );
    await sleep(250);
    const started = Date.now();
    await within(3000, 'close({ graceMs: 0 })', svc.close({ graceMs: 0 }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await within(3000, 'the cut request', inFlight)).toMatch(/^failed /);
    expect(await tryConnect(portOf(svc.url))).toBe('ECONNREFUSED');

    // Past the injected latency, where the request would have written.
    await sleep(900);
    const next = await startService({ host: '127.0.0.1', port: 0, apiKeys: [KEY], db, quiet: true });
    try {
      const list = await api({ url: next.url, apiKey: KEY }).get('/ip_policies');
      expect(list.status).toBe(200);
      expect(list.body.ip_policies).toEqual([]);
    } finally {
      await next.close();
    }
  });

  it('a client sending request after request on one keep-alive connection gets at most one more, with Connection: close', async () => {
    const { svc } = await start({ faults: 'GET.latency=60' });
    const client = new Client(svc.url, { pipelining: 1 });
    cleanups.push(() => client.destroy());
    const headers = { authorization: `Bearer ${KEY}`, 'service-version': '2' };
    let closeStarted: number | undefined;
    const after: { status: number; connection: unknown }[] = [];
    let stoppedBy = '';
    const loop = (async () => {
      for (let i = 0; i < 500; i++) {
        const sentAfterClose = closeStarted !== undefined;
        try {
          const r = await client.request({ path: '/ip_policies', method: 'GET', headers });
          await r.body.text();
          if (sentAfterClose) after.push({ status: r.statusCode, connection: r.headers.connection });
        } catch (err) {
          stoppedBy = (err as Error & { code?: string }).code ?? (err as Error).message;
          return;
        }
      }
      stoppedBy = 'never stopped';
    })();
    await sleep(400);
    closeStarted = Date.now();
    await within(4000, 'close with a busy keep-alive client', svc.close({ graceMs: 3000 }));
    const took = Date.now() - closeStarted;
    await within(5000, 'the client loop', loop);
    expect(after.length, JSON.stringify(after)).toBeLessThanOrEqual(1);
    for (const r of after) expect(r).toEqual({ status: 200, connection: 'close' });
    // The next request needs a new connection, which is refused; or it raced the server closing the kept-alive
    // connection of the request that was in flight when close began (before its bytes were read: nothing ran).
    expect(stoppedBy).toMatch(/ECONNREFUSED|UND_ERR_SOCKET|ECONNRESET/);
    expect(took).toBeLessThan(1500);
  });

  it('resolves soon after the cutoff even while a refused CONNECT keeps its half of the connection open', async () => {
    const { svc } = await start();
    const socket = connect(portOf(svc.url), '127.0.0.1');
    socket.allowHalfOpen = true;
    cleanups.push(() => socket.destroy());
    let answer = '';
    socket.on('data', (d: Buffer) => {
      answer += d.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    for (let i = 0; i < 40 && !answer.includes('\r\n\r\n'); i++) await sleep(25);
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);

    const started = Date.now();
    await within(4000, 'close with a half-open CONNECT connection', svc.close({ graceMs: 200 }));
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
