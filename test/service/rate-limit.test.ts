// The optional per-key rate limit: 429 ERR_RATE_LIMITED with an integer Retry-After >= 1.
import { describe, expect, it } from 'vitest';
import { api, expectError, startTestService } from '../helpers/service.ts';
import { RateLimiter } from '../../src/service/rate-limit.ts';

describe('rate limit over HTTP', () => {
  it('admits N requests per 60 s per key, then answers 429 with Retry-After', async () => {
    const svc = await startTestService({ rateLimit: 5 });
    try {
      const c = api(svc);
      for (let i = 0; i < 5; i++) expect((await c.get('/ip_policies')).status).toBe(200);
      const r = await c.get('/ip_policies');
      expectError(r, 429, 'ERR_RATE_LIMITED');
      const retry = Number(r.headers['retry-after']);
      expect(Number.isInteger(retry)).toBe(true);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      // Refused requests do not count, and unauthenticated ones are refused before the limiter.
      expectError(await api(svc, 'other').get('/ip_policies'), 401, 'ERR_AUTH_INVALID_KEY');
    } finally {
      await svc.close();
    }
  });

  it('is off by default', async () => {
    const svc = await startTestService();
    try {
      const c = api(svc);
      const statuses = await Promise.all(Array.from({ length: 150 }, () => c.get('/ip_policies').then((r) => r.status)));
      expect(new Set(statuses)).toEqual(new Set([200]));
    } finally {
      await svc.close();
    }
  });
});

describe('RateLimiter', () => {
  it('counts a rolling window per key with a fake clock', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(2, 60_000, () => now);
    expect(limiter.take('a')).toEqual({ ok: true });
    now += 10_000;
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('b')).toEqual({ ok: true });
    now += 1_000;
    // The oldest hit (t0) frees its slot at t0 + 60 s, 49 s from now.
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 49 });
    now += 49_000;
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 10 });
    now += 9_999;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });
});
