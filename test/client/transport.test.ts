// What the client puts on the wire and how it survives transport failures the service never produces on its
// own (a reset connection, a non-JSON error page, a next_page_uri naming another host): a scripted local
// node:http server stands in for a misbehaving network.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApi } from '../../src/client/http.ts';
import type { HttpApi } from '../../src/client/http.ts';
import { ApiError } from '../../src/errors.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let closeAll: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closeAll.map((c) => c()));
  closeAll = [];
});

/** A server answering the n-th request with handlers[n] (the last one repeats). */
async function scripted(...handlers: Handler[]): Promise<{ api: HttpApi; seen: Seen[]; url: string }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handlers[Math.min(seen.length - 1, handlers.length - 1)]!(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = createApi({ url: `${url}/api`, apiKey: 'k-123', retry: { baseDelayMs: 1, maxDelayMs: 2 } });
  closeAll.push(async () => {
    await api.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { api, seen, url };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const reset: Handler = (req) => req.socket.destroy();

describe('wire format', () => {
  it('sends bearer auth, Service-Version 2 and a user agent; Content-Type only with a body', async () => {
    const { api, seen } = await scripted(json(200, { id: 'x' }));
    await api.get('/things/1');
    await api.post('/things', { a: 1 });
    await api.delete('/things/1');
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['GET', '/api/things/1', ''],
      ['POST', '/api/things', '{"a":1}'],
      ['DELETE', '/api/things/1', ''],
    ]);
    for (const s of seen) {
      expect(s.headers.authorization).toBe('Bearer k-123');
      expect(s.headers['service-version']).toBe('2');
      expect(s.headers['user-agent']).toMatch(/^edgeops/);
    }
    expect(seen.map((s) => s.headers['content-type'])).toEqual([undefined, 'application/json', undefined]);
  });

  it('follows next_page_uri on the API origin, whatever host the service named', async () => {
    const { api, seen } = await scripted(
      json(200, { things: [{ id: 1 }, { id: 2 }], next_page_uri: 'https://elsewhere.example/api/things?before_id=2&limit=2' }),
      json(200, { things: [{ id: 3 }], next_page_uri: null }),
    );
    expect(await api.list('/things', 'things')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(seen.map((s) => s.url)).toEqual(['/api/things', '/api/things?before_id=2&limit=2']);
  });

  it('refuses a list whose next_page_uri repeats a page', async () => {
    const { api } = await scripted(json(200, { things: [], next_page_uri: 'http://x/api/things?p=2' }));
    await expect(api.list('/things', 'things')).rejects.toMatchObject({ errorCode: 'ERR_INVALID_RESPONSE' });
  });

  it('refuses a list response without its list key', async () => {
    const { api } = await scripted(json(200, { other: [] }));
    await expect(api.list('/things', 'things')).rejects.toMatchObject({ errorCode: 'ERR_INVALID_RESPONSE' });
  });
});

describe('errors', () => {
  it('gives an ApiError for a non-JSON error body, without its content', async () => {
    const { api } = await scripted((_req, res) => {
      res.writeHead(418, { 'content-type': 'text/html' });
      res.end('<html>teapot</html>');
    });
    const err = (await api.get('/x').catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.errorCode, err.operation]).toEqual([418, 'HTTP_418', 'GET /api/x']);
    expect(err.message).not.toContain('teapot');
  });

  it('gives an ApiError for a 2xx body that is not JSON', async () => {
    const { api } = await scripted((_req, res) => res.end('nope'));
    await expect(api.get('/x')).rejects.toMatchObject({ status: 200, errorCode: 'ERR_INVALID_RESPONSE' });
  });
});

describe('retries over the wire', () => {
  it('retries a GET after a connection reset and a 503', async () => {
    const { api, seen } = await scripted(reset, json(503, { error_code: 'ERR_DOWN', msg: 'down' }), json(200, { ok: true }));
    expect(await api.get('/x')).toEqual({ ok: true });
    expect(seen).toHaveLength(3);
  });

  it('does not repeat a POST whose connection was reset, unless the check says it did not land', async () => {
    const first = await scripted(reset, json(201, { id: 'new' }));
    await expect(first.api.post('/things', { a: 1 })).rejects.toMatchObject({ status: 0 });
    expect(first.seen).toHaveLength(1);

    const second = await scripted(reset, json(201, { id: 'new' }));
    expect(await second.api.retryPostIf(async () => true).post('/things', { a: 1 })).toEqual({ id: 'new' });
    expect(second.seen).toHaveLength(2);
  });

  it('a view of a checked view retries a POST by its own check only', async () => {
    const outer: string[] = [];
    const inner: string[] = [];
    const retried = await scripted(reset, json(201, { id: 'new' }));
    const view = retried.api.retryPostIf(async () => (outer.push('asked'), false));
    const nested = view.retryPostIf(async () => (inner.push('asked'), true));
    expect(await nested.post('/things', { a: 1 })).toEqual({ id: 'new' });
    expect([outer, inner, retried.seen.length]).toEqual([[], ['asked'], 2]);

    const refused = await scripted(reset, json(201, { id: 'new' }));
    const notLanded = refused.api.retryPostIf(async () => true);
    await expect(notLanded.retryPostIf(async () => false).post('/things', { a: 1 })).rejects.toMatchObject({ status: 0 });
    expect(refused.seen).toHaveLength(1);
  });

  it('retries a POST answered 429, which the service did not process', async () => {
    const { api, seen } = await scripted(json(429, { error_code: 'ERR_RATE_LIMITED', msg: 'slow' }, { 'retry-after': '0' }), json(201, { id: 'n' }));
    expect(await api.post('/things', {})).toEqual({ id: 'n' });
    expect(seen).toHaveLength(2);
  });

  it('counts a DELETE answered 404 after a dropped response as done', async () => {
    const { api, seen } = await scripted(reset, json(404, { error_code: 'ERR_GONE', msg: 'gone' }));
    await expect(api.delete('/things/1')).resolves.toBeUndefined();
    expect(seen).toHaveLength(2);
  });
});
