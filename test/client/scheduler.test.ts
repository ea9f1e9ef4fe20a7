// The request scheduler on a fake clock: the in-flight bound and its AIMD, the Retry-After pause, the token
// bucket (configured, and adapted after the first 429), and retries going first.
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/client/scheduler.ts';
import type { Outcome, SchedulerEvent, SchedulerOptions } from '../../src/client/scheduler.ts';

class RateLimited extends Error {
  constructor(readonly retryAfterMs?: number) {
    super('429');
  }
}

const outcomeOf = (err: unknown): Outcome =>
  err instanceof RateLimited ? { type: 'rate-limited', retryAfterMs: err.retryAfterMs } : { type: 'answered' };

/** A clock whose sleeps resolve only when the test advances time past them. */
function fakeClock() {
  let t = 0;
  const timers: { at: number; resolve: () => void }[] = [];
  const flush = () => new Promise<void>((r) => setImmediate(r));
  return {
    now: () => t,
    sleep: (ms: number) => new Promise<void>((resolve) => timers.push({ at: t + ms, resolve })),
    async advance(ms: number) {
      const end = t + ms;
      await flush();
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        t = next.at;
        next.resolve();
        await flush();
      }
      t = end;
      await flush();
    },
    flush,
  };
}

interface Job {
  started: boolean;
  settled: boolean;
  startedAt?: number;
  /** Ends the request (at once if it runs, else as soon as it starts). */
  succeed(): void;
  fail(err: Error): void;
  done: Promise<unknown>;
}

function setup(over: Partial<SchedulerOptions> = {}) {
  const clock = fakeClock();
  const events: SchedulerEvent[] = [];
  const s = new Scheduler({ concurrency: 8, outcomeOf, now: clock.now, sleep: clock.sleep, onEvent: (e) => events.push(e), ...over });
  const job = (retry = false): Job => {
    let end: ((err?: Error) => void) | undefined;
    let early: { err?: Error } | undefined;
    const j = { started: false, settled: false } as Job;
    j.done = s.run(() => {
      j.started = true;
      j.startedAt = clock.now();
      return new Promise<void>((resolve, reject) => {
        end = (err) => (err ? reject(err) : resolve());
        if (early) end(early.err);
      });
    }, retry).catch((err: unknown) => err);
    const settle = (err?: Error) => {
      if (j.settled) return;
      j.settled = true;
      if (end) end(err);
      else early = { err };
    };
    j.succeed = () => settle();
    j.fail = (err) => settle(err);
    return j;
  };
  const jobs = (n: number) => Array.from({ length: n }, () => job());
  const running = (js: Job[]) => js.filter((j) => j.started).length;
  return { s, clock, events, job, jobs, running };
}

describe('in-flight bound (AIMD)', () => {
  it('starts at most `concurrency`, and the next queued request when one ends', async () => {
    const { s, clock, jobs, running } = setup({ concurrency: 3 });
    const js = jobs(5);
    await clock.flush();
    expect(running(js)).toBe(3);
    expect(s.stats()).toMatchObject({ inFlight: 3, queued: 2, limit: 3 });
    js[1]!.succeed();
    await clock.flush();
    expect(js.map((j) => j.started)).toEqual([true, true, true, true, false]);
  });

  it('halves on a 429 (once for requests already in flight), then grows by one per `recoverAfter` answers', async () => {
    const { s, clock, jobs, job, running } = setup({ concurrency: 8, recoverAfter: 2 });
    const first = jobs(8);
    const queued = jobs(20);
    await clock.flush();
    // Two 429s among the eight in flight: one reduction, 8 -> 4.
    first[0]!.fail(new RateLimited());
    first[1]!.fail(new RateLimited());
    await clock.flush();
    expect(s.stats()).toMatchObject({ limit: 4, rateLimited: 2, reductions: 1, inFlight: 6 });
    expect(running(queued)).toBe(0);
    // The six old ones end; four new ones may run.
    for (const j of first.slice(2)) j.succeed();
    await clock.flush();
    // 6 answers with recoverAfter 2: +3 -> 7, and the queue filled up to it.
    expect(s.stats().limit).toBe(7);
    expect(running(queued)).toBe(7);
    // A 429 on a request started after the reduction is a new reduction: 7 -> 3.
    queued[0]!.fail(new RateLimited());
    await clock.flush();
    expect(s.stats()).toMatchObject({ limit: 3, reductions: 2, inFlight: 6 });
    // Down to 1 at most, never 0.
    // Another 429 of the same generation: no second reduction; five answers then give +2.
    queued[1]!.fail(new RateLimited());
    for (const j of queued.slice(2, 7)) j.succeed();
    await clock.flush();
    expect(s.stats()).toMatchObject({ limit: 5, reductions: 2 });
    // Recovers up to the configured concurrency and no further.
    for (let i = 0; i < 40; i++) {
      for (const j of queued) if (j.started) j.succeed();
      await clock.advance(10);
    }
    expect(s.stats()).toMatchObject({ limit: 8, inFlight: 0, queued: 0 });
  });

  it('goes down to one at a time, never zero', async () => {
    const { s, clock, jobs } = setup({ concurrency: 4 });
    const js = jobs(12);
    await clock.flush();
    const active = () => js.filter((j) => j.started && !j.settled);
    for (const expected of [4, 2, 1, 1]) {
      expect(active()).toHaveLength(expected);
      const [first, ...rest] = active();
      first!.fail(new RateLimited());
      for (const j of rest) j.succeed();
      await clock.flush();
    }
    expect(s.stats()).toMatchObject({ limit: 1, reductions: 4, inFlight: 1 });
  });
});

describe('Retry-After', () => {
  it('no request starts until the pause ends; requests in flight are not touched', async () => {
    const { s, clock, jobs, job } = setup({ concurrency: 4 });
    const first = jobs(4);
    await clock.flush();
    first[0]!.fail(new RateLimited(2000));
    const waiting = jobs(3);
    await clock.advance(1999);
    expect(waiting.some((j) => j.started)).toBe(false);
    expect(first.slice(1).every((j) => j.started)).toBe(true);
    // A later 429 extends the pause.
    first[1]!.fail(new RateLimited(1500));
    await clock.advance(1);
    expect(s.stats().pausedUntil).toBe(3499);
    await clock.advance(1498);
    expect(waiting.some((j) => j.started)).toBe(false);
    await clock.advance(1);
    // Limit 2 (one reduction), and two of the first are still in flight.
    const retried = job(true);
    first[2]!.succeed();
    first[3]!.succeed();
    await clock.flush();
    expect(retried.started).toBe(true);
    expect(waiting.filter((j) => j.started)).toHaveLength(1);
    expect(retried.startedAt).toBe(3499);
  });
});

describe('urgent requests (the stack lock\'s renewal)', () => {
  it('start at once, past a full bound, a queue and a Retry-After pause, and still count as answers', async () => {
    const { s, clock, jobs } = setup({ concurrency: 2 });
    const first = jobs(2);
    await clock.flush();
    first[0]!.fail(new RateLimited(30_000));
    const queued = jobs(3);
    await clock.advance(1000);
    expect(queued.some((j) => j.started)).toBe(false);
    let startedAt: number | undefined;
    const urgent = s.run(async () => {
      startedAt = clock.now();
      return 'renewed';
    }, false, true);
    await expect(urgent).resolves.toBe('renewed');
    expect(startedAt).toBe(1000);
    // The pause still holds for everything else.
    expect(queued.some((j) => j.started)).toBe(false);
    expect(s.stats().pausedUntil).toBe(30_000);
  });
});

describe('token bucket', () => {
  it('a configured rate spaces starts after a burst of `concurrency`', async () => {
    const { clock, jobs } = setup({ concurrency: 3, requestsPerSecond: 2 });
    const js = jobs(6);
    for (let i = 0; i < 30; i++) {
      for (const j of js) if (j.started) j.succeed();
      await clock.advance(100);
    }
    expect(js.map((j) => j.startedAt)).toEqual([0, 0, 0, 500, 1000, 1500]);
  });

  it('is unlimited until the first 429, then takes the rate the service let through', async () => {
    const { s, clock, job } = setup({ concurrency: 8, recoverAfter: 1000 });
    expect(s.stats().requestsPerSecond).toBe(Infinity);
    // 20 answered over one second, then a 429 asking for one more second: 20 per 2 s.
    for (let i = 0; i < 20; i++) {
      const j = job();
      await clock.flush();
      j.succeed();
      await clock.advance(50);
    }
    const limited = job();
    await clock.flush();
    limited.fail(new RateLimited(1000));
    await clock.flush();
    expect(s.stats().requestsPerSecond).toBe(10);
    const after = Array.from({ length: 12 }, () => job());
    for (let i = 0; i < 40; i++) {
      for (const j of after) if (j.started) j.succeed();
      await clock.advance(50);
    }
    // Paused until 2000; then the bucket's 8 tokens (four at a time: the bound was halved), then one per 100 ms.
    expect(after.map((j) => j.startedAt)).toEqual([2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2100, 2200, 2300, 2400]);
    expect(s.stats().limit).toBe(4);
  });

  it('keeps the rate when too few requests were answered to tell, and recovers it up to the configured one', async () => {
    const few = setup();
    const j = few.job();
    await few.clock.flush();
    j.fail(new RateLimited(1000));
    await few.clock.flush();
    expect(few.s.stats().requestsPerSecond).toBe(Infinity);

    const { s, clock, job } = setup({ concurrency: 2, requestsPerSecond: 100, recoverAfter: 2 });
    for (let i = 0; i < 4; i++) {
      job().succeed();
      await clock.advance(20);
    }
    await clock.advance(920);
    // 4 answered in 1000 ms: 4 per second.
    job().fail(new RateLimited(0));
    await clock.advance(1);
    expect(s.stats().requestsPerSecond).toBe(4);
    const more = Array.from({ length: 40 }, () => job());
    for (const j of more) j.succeed();
    await clock.advance(60_000);
    expect(more.every((j) => j.started)).toBe(true);
    expect(s.stats().requestsPerSecond).toBe(100);
  });
});

describe('run', () => {
  it('passes results and errors through, a task that throws at once included', async () => {
    const { s } = setup();
    await expect(s.run(async () => 7)).resolves.toBe(7);
    await expect(s.run(() => { throw new Error('sync'); })).rejects.toThrow('sync');
    await expect(s.run(async () => { throw new RateLimited(0); })).rejects.toBeInstanceOf(RateLimited);
    expect(s.stats()).toMatchObject({ inFlight: 0, rateLimited: 1 });
  });
});
