// The API client against the real service: auth and version headers, pagination, ApiError, rate-limit retries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, withUrgency } from '../../src/client/http.ts';
import type { HttpApi } from '../../src/client/http.ts';
import { ApiError } from '../../src/errors.ts';
import { startTestService } from '../helpers/service.ts';
import type { TestService } from '../helpers/service.ts';

let svc: TestService;
let api: HttpApi;

beforeAll(async () => {
  svc = await startTestService();
  api = createApi({ url: svc.url, apiKey: svc.apiKey, concurrency: 16 });
});

afterAll(async () => {
  await api?.close();
  await svc?.close();
});

async function caught(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('createApi against the service', () => {
  it('creates, reads, updates and deletes (auth, version and content-type headers accepted)', async () => {
    const created = await api.post('/ip_policies', { description: 'crud' });
    expect(created.id).toMatch(/^ipp_/);
    expect(await api.get(`/ip_policies/${String(created.id)}`)).toMatchObject({ id: created.id, description: 'crud' });
    expect(await api.patch(`/ip_policies/${String(created.id)}`, { description: 'changed' })).toMatchObject({
      description: 'changed',
    });
    await expect(api.delete(`/ip_policies/${String(created.id)}`)).resolves.toBeUndefined();
    const err = await caught(api.get(`/ip_policies/${String(created.id)}`));
    expect(err.status).toBe(404);
  });

  it('lists every item across pages (250 items, 3 pages)', async () => {
    const ids = new Set<string>();
    const created = await Promise.all(
      Array.from({ length: 250 }, (_, i) => api.post('/ip_policies', { description: `page-${i}` })),
    );
    for (const p of created) ids.add(String(p.id));
    const listed = await api.list('/ip_policies', 'ip_policies');
    const listedIds = listed.map((p) => String(p.id));
    expect(new Set(listedIds).size).toBe(listedIds.length);
    for (const id of ids) expect(listedIds).toContain(id);
    // The pages join without a gap or an overlap.
    const ours = listed.filter((p) => ids.has(String(p.id))).map((p) => String(p.description));
    expect(ours).toHaveLength(250);
    expect(new Set(ours).size).toBe(250);
  });

  it('turns an error answer into an ApiError with status, code, message and operation', async () => {
    const err = await caught(api.get('/ip_policies/ipp_0000000000000000000000000000'));
    expect(err.status).toBe(404);
    expect(err.errorCode).toBe('ERR_IP_POLICY_NOT_FOUND');
    expect(err.operation).toBe('GET /ip_policies/ipp_0000000000000000000000000000');
    expect(err.serviceMessage.length).toBeGreaterThan(0);
    expect(err.code).toBe('E_API');
    expect(err.message).toContain('404 ERR_IP_POLICY_NOT_FOUND');
  });

  it('never puts the request body into the error', async () => {
    const secret = `SECRET-${'k'.repeat(300)}`;
    const err = await caught(api.post('/ip_policies', { description: secret }));
    expect(err.status).toBe(400);
    expect(err.operation).toBe('POST /ip_policies');
    expect(err.message).not.toContain('SECRET-');
    expect(JSON.stringify(err)).not.toContain('SECRET-');
  });

  it('fails with 401 ERR_AUTH_INVALID_KEY for a wrong key', async () => {
    const other = createApi({ url: svc.url, apiKey: 'not-the-key' });
    try {
      const err = await caught(other.get('/ip_policies'));
      expect([err.status, err.errorCode]).toEqual([401, 'ERR_AUTH_INVALID_KEY']);
    } finally {
      await other.close();
    }
  });

  it('does not retry a first 404 on DELETE', async () => {
    const err = await caught(api.delete('/ip_policies/ipp_0000000000000000000000000000'));
    expect(err.status).toBe(404);
  });

  it('keeps the same client behind retryPostIf', async () => {
    const view = api.retryPostIf(async () => true);
    const p = await view.post('/ip_policies', { description: 'via view' });
    expect(await api.get(`/ip_policies/${String(p.id)}`)).toMatchObject({ description: 'via view' });
  });

  it('fails a request made after close at once, without retries (work abandoned by Ctrl-C ends quickly)', async () => {
    const closing = createApi({ url: svc.url, apiKey: svc.apiKey });
    await closing.close();
    const started = Date.now();
    const err = await caught(closing.get('/ip_policies'));
    expect([err.status, err.errorCode]).toEqual([0, 'ERR_CLIENT_CLOSED']);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('has an urgent view on the same service, and withUrgency passes plain Apis through', async () => {
    const p = await api.urgent(1000).post('/ip_policies', { description: 'urgent' });
    expect(await api.get(`/ip_policies/${String(p.id)}`)).toMatchObject({ description: 'urgent' });
    const plain = { ...api };
    delete (plain as Partial<HttpApi>).urgent;
    expect(withUrgency(plain, 1000)).toBe(plain);
  });
});

describe('rate limiting', () => {
  it('retries a 429 after the Retry-After delay, then gives up with the 429 ApiError', async () => {
    const limited = await startTestService({ rateLimit: 2 });
    const slept: number[] = [];
    let clock = Date.now();
    const client = createApi({
      url: limited.url,
      apiKey: limited.apiKey,
      // The window is 60 s: a fake clock records the waits instead of taking them, so the retries meet 429
      // again. The client's scheduler runs on the same clock, so its Retry-After pause passes with it.
      retry: { maxAttempts: 3, maxElapsedMs: 10 * 60_000, now: () => clock, sleep: async (ms) => void (slept.push(ms), (clock += ms)) },
    });
    try {
      await client.get('/ip_policies');
      await client.get('/ip_policies');
      const err = await caught(client.get('/ip_policies'));
      expect([err.status, err.errorCode]).toEqual([429, 'ERR_RATE_LIMITED']);
      expect(slept).toHaveLength(2);
      for (const ms of slept) {
        expect(ms % 1000).toBe(0);
        expect(ms).toBeGreaterThanOrEqual(1000);
        expect(ms).toBeLessThanOrEqual(60_000);
      }
    } finally {
      await client.close();
      await limited.close();
    }
  });
});
