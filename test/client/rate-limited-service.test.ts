// The client against the real service's rate limit (a short window keeps the test to a few seconds): a burst
// of list and write calls all succeed, 429s are met and honoured (no request starts during a Retry-After
// pause), and every create lands once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type HttpApi } from '../../src/client/http.ts';
import type { SchedulerEvent } from '../../src/client/scheduler.ts';
import { startService, type RunningService } from '../../src/service/server.ts';
import { tempDbFile } from '../helpers/service.ts';

const KEY = 'rate-limit-test-key';
const LIMIT = 30;
const WINDOW_MS = 1000;

let svc: RunningService;
let db: { dbFile: string; cleanup(): void };
beforeAll(async () => {
  db = tempDbFile();
  svc = await startService({ host: '127.0.0.1', port: 0, apiKeys: [KEY], db: db.dbFile, rateLimit: LIMIT, rateLimitWindowMs: WINDOW_MS, quiet: true });
});
afterAll(async () => {
  await svc.close();
  db.cleanup();
});

describe('a burst against a rate-limited service', () => {
  it('every list and write succeeds, 429s are honoured, nothing is duplicated', async () => {
    const events: SchedulerEvent[] = [];
    const client: HttpApi = createApi({ url: svc.url, apiKey: KEY, concurrency: 8, onSchedulerEvent: (e) => events.push(e) });
    try {
      const creates = Array.from({ length: 30 }, (_, i) => client.post('/ip_policies', { description: `p${i}` }));
      const lists = Array.from({ length: 30 }, () => client.list('/ip_policies', 'ip_policies'));
      const made = await Promise.all(creates);
      await Promise.all(lists);
      const patches = made.map((p, i) => client.patch(`/ip_policies/${String(p.id)}`, { description: `q${i}` }));
      await Promise.all(patches);

      const stats = client.stats();
      expect(stats.rateLimited).toBeGreaterThan(0);
      expect(stats.reductions).toBeGreaterThan(0);
      expect(stats.requestsPerSecond).toBeLessThan(Infinity);

      // Honoured: in the order the scheduler saw things, no start before the end of every pause asked so far
      // (a start in the same millisecond as a 429 but before it arrived is fine).
      const limited = events.filter((e) => e.type === 'rate-limited');
      expect(limited.every((e) => e.retryAfterMs !== undefined && e.retryAfterMs >= 1000)).toBe(true);
      let pausedUntil = 0;
      const duringPause: SchedulerEvent[] = [];
      for (const e of events) {
        if (e.type === 'rate-limited') pausedUntil = Math.max(pausedUntil, e.at + e.retryAfterMs!);
        else if (e.at < pausedUntil) duringPause.push(e);
      }
      expect(duringPause).toEqual([]);
      const starts = events.filter((e) => e.type === 'start');
      expect(Math.max(...starts.map((s) => s.inFlight))).toBeLessThanOrEqual(8);

      const items = await client.list('/ip_policies', 'ip_policies');
      expect(items.map((p) => p.description).sort()).toEqual(made.map((_, i) => `q${i}`).sort());
    } finally {
      await client.close();
    }
  }, 30_000);
});
