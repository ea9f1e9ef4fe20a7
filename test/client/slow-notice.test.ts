// A request that has waited 5 s for its answer is announced once (what it waits for, and when it gives up), so
// a hung service is not silence until the timeout; an answer before then says nothing, and so does a connection
// that never comes about (a slow name lookup or handshake ends in one error line, not a notice and an error).
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/client/http.ts';
import { ApiError } from '../../src/errors.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

let silent: Server;
let port: number;
let svc: TestService;
const sockets: Socket[] = [];

beforeAll(async () => {
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  port = (silent.address() as AddressInfo).port;
  svc = await startTestService();
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  silent.close();
  await svc.close();
});

describe.concurrent('the slow-request notice', () => {
  it('says what it waits for after 5 s, then the timeout error names the URL', async () => {
    const lines: string[] = [];
    const api = createApi({ url: `http://127.0.0.1:${port}`, apiKey: 'k', timeoutMs: 6_000, retry: { maxAttempts: 1 }, onSlow: (l) => lines.push(l) });
    const started = Date.now();
    const err = await api.get('/ip_policies').catch((e: unknown) => e);
    await api.close();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(new RegExp(`^no answer from http://127\\.0\\.0\\.1:${port} within 6 s`));
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    expect(lines).toEqual([`waiting for http://127.0.0.1:${port} to answer GET /ip_policies (5 s so far; gives up after 6 s, see --timeout)`]);
  }, 20_000);

  it('says nothing while the connection is still being made', async () => {
    // The silent server takes the TCP connection and never answers the TLS handshake: undici gives up connecting
    // after its 10 s connect timeout, well past the notice's 5 s.
    const lines: string[] = [];
    const api = createApi({ url: `https://127.0.0.1:${port}`, apiKey: 'k', retry: { maxAttempts: 1, outageBudgetMs: 0 }, onSlow: (l) => lines.push(l) });
    const started = Date.now();
    const err = await api.get('/ip_policies').catch((e: unknown) => e);
    await api.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(Date.now() - started).toBeGreaterThan(5_000);
    expect(lines).toEqual([]);
  }, 20_000);

  it('says nothing when the answer comes in time', async () => {
    const lines: string[] = [];
    const api = createApi({ url: svc.url, apiKey: svc.apiKey, onSlow: (l) => lines.push(l) });
    expect(await api.list('/ip_policies', 'ip_policies')).toEqual([]);
    await api.close();
    expect(lines).toEqual([]);
  });
});
