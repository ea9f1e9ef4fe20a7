// GET answers served from bytes until the next write: every write (this process's, or another process's on
// the same SQLite file) is seen by the next read, and uris still follow the Host the client used.
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/service/read-cache.ts';
import { startService } from '../../src/service/server.ts';
import { api, expectError, startTestService, tempDbFile } from '../helpers/service.ts';

describe('cached reads over HTTP', () => {
  it('a write is seen by the next list and get, whatever was read before', async () => {
    const svc = await startTestService();
    try {
      const c = api(svc);
      expect((await c.get('/ip_policies')).body.ip_policies).toEqual([]);
      const made = await c.post('/ip_policies', { description: 'one' });
      expect(made.status).toBe(201);
      expect((await c.get('/ip_policies')).body.ip_policies.map((p: { id: string }) => p.id)).toEqual([made.body.id]);
      expect((await c.get(`/ip_policies/${made.body.id}`)).body.description).toBe('one');
      await c.patch(`/ip_policies/${made.body.id}`, { description: 'two' });
      expect((await c.get(`/ip_policies/${made.body.id}`)).body.description).toBe('two');
      expect((await c.get('/ip_policies')).body.ip_policies[0].description).toBe('two');
      // A failed write changes nothing, and the reads after it still answer the same.
      expectError(await c.patch(`/ip_policies/${made.body.id}`, { description: 'x'.repeat(300) }), 400, 'ERR_DESCRIPTION_TOO_LONG');
      expect((await c.get('/ip_policies')).body.ip_policies[0].description).toBe('two');
      expect((await c.del(`/ip_policies/${made.body.id}`)).status).toBe(204);
      expectError(await c.get(`/ip_policies/${made.body.id}`), 404, 'ERR_IP_POLICY_NOT_FOUND');
      expect((await c.get('/ip_policies')).body.ip_policies).toEqual([]);
    } finally {
      await svc.close();
    }
  });

  it('sees the commits of another process on the same database file', async () => {
    const db = tempDbFile();
    const apiKeys = ['k'];
    const a = await startService({ apiKeys, db: db.dbFile, quiet: true });
    const b = await startService({ apiKeys, db: db.dbFile, quiet: true });
    try {
      const ca = api({ url: a.url, apiKey: 'k' });
      const cb = api({ url: b.url, apiKey: 'k' });
      expect((await ca.get('/ip_policies')).body.ip_policies).toHaveLength(0);
      const made = await cb.post('/ip_policies', { description: 'from b' });
      expect((await ca.get('/ip_policies')).body.ip_policies.map((p: { id: string }) => p.id)).toEqual([made.body.id]);
    } finally {
      await a.close();
      await b.close();
      db.cleanup();
    }
  });

  it('builds uris from each request own Host, cached or not', async () => {
    const svc = await startTestService();
    try {
      const c = api(svc);
      const made = (await c.post('/ip_policies', {})).body;
      const uriVia = async (host: string): Promise<string> => {
        const res = await request(`${svc.url}/ip_policies/${made.id}`, {
          headers: { authorization: `Bearer ${svc.apiKey}`, 'service-version': '2', host },
        });
        return ((await res.body.json()) as { uri: string }).uri;
      };
      expect(await uriVia('one.example:4010')).toBe(`http://one.example:4010/ip_policies/${made.id}`);
      expect(await uriVia('two.example:4010')).toBe(`http://two.example:4010/ip_policies/${made.id}`);
      expect(await uriVia('one.example:4010')).toBe(`http://one.example:4010/ip_policies/${made.id}`);
    } finally {
      await svc.close();
    }
  });

  it('still authenticates, versions and rate-limits a read it could answer from the cache', async () => {
    const svc = await startTestService({ rateLimit: 3 });
    try {
      const c = api(svc);
      expect((await c.get('/ip_policies')).status).toBe(200);
      expectError(await api(svc, 'wrong').get('/ip_policies'), 401, 'ERR_AUTH_INVALID_KEY');
      expectError(await c.raw('GET', '/ip_policies', { headers: { 'service-version': '1' } }), 400, 'ERR_VERSION_UNSUPPORTED');
      expect((await c.get('/ip_policies')).status).toBe(200);
      expect((await c.get('/ip_policies')).status).toBe(200);
      expectError(await c.get('/ip_policies'), 429, 'ERR_RATE_LIMITED');
    } finally {
      await svc.close();
    }
  });
});

describe('a client that gave up', () => {
  it('has its delayed write dropped, not committed behind its back', async () => {
    const svc = await startTestService({ faults: { byMethod: { POST: { latencyMs: 400 } } } });
    try {
      const abort = new AbortController();
      const pending = request(`${svc.url}/ip_policies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.apiKey}`, 'service-version': '2', 'content-type': 'application/json' },
        body: '{}',
        signal: abort.signal,
      });
      setTimeout(() => abort.abort(), 50);
      await expect(pending).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await api(svc).get('/ip_policies')).body.ip_policies).toEqual([]);
    } finally {
      await svc.close();
    }
  });
});

describe('rate limit with no keys configured', () => {
  it('is one bucket for every token, so changing the token does not get around it', async () => {
    const svc = await startService({ rateLimit: 2, quiet: true });
    try {
      expect((await api({ url: svc.url, apiKey: 'a' }).get('/ip_policies')).status).toBe(200);
      expect((await api({ url: svc.url, apiKey: 'b' }).get('/ip_policies')).status).toBe(200);
      expectError(await api({ url: svc.url, apiKey: 'c' }).get('/ip_policies'), 429, 'ERR_RATE_LIMITED');
    } finally {
      await svc.close();
    }
  });
});

describe('ReadCache', () => {
  const reply = (n: number) => ({ status: 200, payload: Buffer.alloc(n) });

  it('answers only at the version an entry was made at', () => {
    const cache = new ReadCache(100);
    expect(cache.get('a', 'v1')).toBeUndefined();
    cache.set('a', 'v1', reply(10));
    expect(cache.get('a', 'v1')?.payload.length).toBe(10);
    expect(cache.get('a', 'v2')).toBeUndefined();
    expect(cache.get('a', 'v1')).toBeUndefined(); // emptied when the version moved
    cache.set('a', 'v0', reply(10)); // made at an older version: not kept
    expect(cache.get('a', 'v1')).toBeUndefined();
  });

  it('drops the oldest entries past its byte bound and never keeps an entry larger than it', () => {
    const cache = new ReadCache(100);
    cache.get('x', 'v');
    cache.set('a', 'v', reply(40));
    cache.set('b', 'v', reply(40));
    cache.set('c', 'v', reply(40));
    expect(cache.get('a', 'v')).toBeUndefined();
    expect(cache.get('b', 'v')).toBeDefined();
    expect(cache.get('c', 'v')).toBeDefined();
    cache.set('big', 'v', reply(101));
    expect(cache.get('big', 'v')).toBeUndefined();
    cache.set('b', 'v', reply(60)); // replacing an entry counts its new size only
    expect(cache.get('b', 'v')?.payload.length).toBe(60);
    expect(cache.get('c', 'v')).toBeDefined();
  });
});
