// The retry policy as a pure function of attempts' outcomes: injected clock, sleep and jitter.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import { isTimeout, isUnreachable, Outage, parseRetryAfter, setRetryAfter, withRetry } from '../../src/client/retry.ts';
import type { OutageEvent, RetryPolicy } from '../../src/client/retry.ts';
import { outageOptions } from '../../src/operations/connection.ts';
import { resolveSettings } from '../../src/operations/settings.ts';

const err = (status: number, errorCode = `E${status}`): ApiError =>
  new ApiError({ status, errorCode, message: 'm', operation: 'X /p' });

function policy(over: Partial<RetryPolicy> = {}) {
  const slept: number[] = [];
  let clock = 0;
  const events: OutageEvent[] = [];
  const p: RetryPolicy = {
    maxAttempts: 5,
    baseDelayMs: 100,
    maxDelayMs: 1000,
    maxElapsedMs: 60_000,
    random: () => 1,
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    ...over,
  };
  // A service that goes away in the middle of a run: it has answered before (`answered: false` for one that never has).
  const outage = (budgetMs: number, opts: { answered?: boolean } = {}) => {
    const o = new Outage(budgetMs, () => clock, (e) => events.push(e));
    if (opts.answered !== false) o.answered();
    return o;
  };
  return { p, slept, events, outage, now: () => clock };
}

/** An attempt function that fails with the given errors in turn, then returns 'ok'. */
function script(...failures: ApiError[]) {
  let calls = 0;
  const attempt = async (): Promise<string> => {
    calls++;
    const f = failures.shift();
    if (f) throw f;
    return 'ok';
  };
  return { attempt, calls: () => calls };
}

/**
 * What withRetry does after one failure `e` of `method`: tries again ('retry'), tries again only when the
 * POST check proves the create did not land ('retry-if-not-landed'), or throws it at once ('fail').
 */
async function verdict(e: unknown, method: string): Promise<string> {
  const once = async (landed: boolean) => {
    let calls = 0;
    let checked = false;
    const attempt = async (): Promise<string> => {
      if (calls++ === 0) throw e;
      return 'ok';
    };
    const postCheck = async () => {
      checked = true;
      return !landed;
    };
    const outcome = await withRetry(method, attempt, policy().p, { postCheck }).then(() => 'ok', (x: unknown) => (x === e ? 'threw' : 'other'));
    return { outcome, calls, checked };
  };
  const notLanded = await once(false);
  const landed = await once(true);
  if (!notLanded.checked && !landed.checked && notLanded.outcome === 'ok' && landed.outcome === 'ok') return 'retry';
  if (notLanded.checked && landed.checked && notLanded.outcome === 'ok' && landed.outcome === 'threw' && landed.calls === 1) return 'retry-if-not-landed';
  if (!notLanded.checked && !landed.checked && notLanded.outcome === 'threw' && landed.outcome === 'threw' && notLanded.calls === 1) return 'fail';
  return `inconsistent: ${JSON.stringify({ notLanded, landed })}`;
}

describe('what is retried', () => {
  it('retries 429 and refused connections for every method, POST included', async () => {
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(await verdict(err(429), m)).toBe('retry');
      expect(await verdict(err(0, 'ECONNREFUSED'), m)).toBe('retry');
    }
  });

  it('retries 5xx and resets for idempotent methods, and a POST only if it did not land', async () => {
    for (const e of [err(500), err(502), err(503), err(0, 'ECONNRESET'), err(0, 'UND_ERR_SOCKET')]) {
      expect(await verdict(e, 'GET')).toBe('retry');
      expect(await verdict(e, 'DELETE')).toBe('retry');
      expect(await verdict(e, 'POST')).toBe('retry-if-not-landed');
    }
  });

  it('never retries a POST that timed out (it may still commit), but retries the idempotent methods', async () => {
    for (const e of [err(504), err(0, 'UND_ERR_HEADERS_TIMEOUT'), err(0, 'UND_ERR_BODY_TIMEOUT'), err(0, 'ETIMEDOUT')]) {
      expect(isTimeout(e)).toBe(true);
      expect(await verdict(e, 'POST')).toBe('fail');
      for (const m of ['GET', 'PUT', 'PATCH', 'DELETE']) expect(await verdict(e, m)).toBe('retry');
    }
    expect(isTimeout(err(503))).toBe(false);
    expect(isTimeout(err(0, 'ECONNRESET'))).toBe(false);
  });

  it('never retries client errors, other 5xx, or non-API errors', async () => {
    for (const s of [400, 401, 404, 409, 422, 501, 505]) expect(await verdict(err(s), 'GET')).toBe('fail');
    expect(await verdict(new Error('x'), 'GET')).toBe('fail');
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(['2', '9'])).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter(new Date(1_000).toUTCString(), 4_000)).toBe(0);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('the backoff', () => {
  it('is full jitter under an exponentially growing, capped ceiling', async () => {
    const top = policy({ random: () => 0.999999, maxAttempts: 7 });
    await expect(withRetry('GET', script(...Array.from({ length: 6 }, () => err(503))).attempt, top.p)).resolves.toBe('ok');
    expect(top.slept).toEqual([99, 199, 399, 799, 999, 999]);
    const bottom = policy({ random: () => 0 });
    await expect(withRetry('GET', script(err(503), err(503), err(503), err(503)).attempt, bottom.p)).resolves.toBe('ok');
    expect(bottom.slept).toEqual([0, 0, 0, 0]);
  });
});

describe('withRetry', () => {
  it('retries a transient failure and returns the later success', async () => {
    const { p, slept } = policy();
    const s = script(err(503), err(0, 'ECONNRESET'));
    await expect(withRetry('GET', s.attempt, p)).resolves.toBe('ok');
    expect(s.calls()).toBe(3);
    expect(slept).toEqual([100, 200]);
  });

  it('waits as long as Retry-After says', async () => {
    const { p, slept } = policy();
    const s = script(setRetryAfter(err(429), 7000));
    await expect(withRetry('POST', s.attempt, p)).resolves.toBe('ok');
    expect(slept).toEqual([7000]);
  });

  it('stops after maxAttempts and throws the last error', async () => {
    const { p } = policy({ maxAttempts: 3 });
    const last = err(504, 'last');
    const s = script(err(502), err(503), last, err(503));
    await expect(withRetry('PUT', s.attempt, p)).rejects.toBe(last);
    expect(s.calls()).toBe(3);
  });

  it('gives up rather than wait past maxElapsedMs', async () => {
    const { p, slept } = policy({ maxElapsedMs: 5000 });
    const e = setRetryAfter(err(429), 60_000);
    const s = script(e);
    await expect(withRetry('GET', s.attempt, p)).rejects.toBe(e);
    expect(slept).toEqual([]);
  });

  it('does not retry a failure that is not transient', async () => {
    const { p } = policy();
    const s = script(err(409));
    await expect(withRetry('PATCH', s.attempt, p)).rejects.toMatchObject({ status: 409 });
    expect(s.calls()).toBe(1);
  });

  it('fails an ambiguous POST at once without a check', async () => {
    const { p } = policy();
    const s = script(err(503));
    await expect(withRetry('POST', s.attempt, p)).rejects.toMatchObject({ status: 503 });
    expect(s.calls()).toBe(1);
  });

  it('retries an ambiguous POST only when the check proves it did not land', async () => {
    const { p } = policy();
    const landed = script(err(0, 'ECONNRESET'));
    let checks = 0;
    await expect(
      withRetry('POST', landed.attempt, p, { postCheck: async () => (checks++, false) }),
    ).rejects.toMatchObject({ errorCode: 'ECONNRESET' });
    expect([landed.calls(), checks]).toEqual([1, 1]);

    const notLanded = script(err(0, 'ECONNRESET'));
    await expect(withRetry('POST', notLanded.attempt, p, { postCheck: async () => true })).resolves.toBe('ok');
    expect(notLanded.calls()).toBe(2);

    const broken = script(err(502));
    await expect(
      withRetry('POST', broken.attempt, p, { postCheck: async () => Promise.reject(new Error('list failed')) }),
    ).rejects.toMatchObject({ status: 502 });
  });

  it('counts a DELETE answered 404 after a retry as done, but not a first 404', async () => {
    const { p } = policy();
    const retried = script(err(503), err(404));
    await expect(withRetry('DELETE', retried.attempt, p, { deletedValue: 'gone' })).resolves.toBe('gone');
    const first = script(err(404));
    await expect(withRetry('DELETE', first.attempt, p, { deletedValue: 'gone' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('outages (service unreachable: refused or reset connections, 502, 503)', () => {
  const refused = () => err(0, 'ECONNREFUSED');
  const down = (n: number, make: () => ApiError = refused) => Array.from({ length: n }, make);

  it('are told apart from other failures', () => {
    for (const e of [err(0, 'ECONNREFUSED'), err(0, 'ENOTFOUND'), err(0, 'EAI_AGAIN'), err(0, 'ECONNRESET'), err(0, 'EPIPE'), err(0, 'UND_ERR_SOCKET'), err(502), err(503)]) {
      expect(isUnreachable(e)).toBe(true);
    }
    for (const e of [err(500), err(504), err(429), err(0, 'UND_ERR_HEADERS_TIMEOUT'), err(404), new Error('x')]) expect(isUnreachable(e)).toBe(false);
  });

  it('are retried past maxAttempts and maxElapsedMs, within the budget, with a backoff capped at 2 s', async () => {
    const { p, slept, events, outage, now } = policy({ maxAttempts: 3, maxElapsedMs: 5_000, maxDelayMs: 8_000 });
    const o = outage(60_000);
    const s = script(...down(20), err(503), err(502));
    await expect(withRetry('GET', s.attempt, p, { outage: o })).resolves.toBe('ok');
    expect(s.calls()).toBe(23);
    expect(Math.max(...slept)).toBe(2000); // full jitter with random() = 1 under min(maxDelayMs 8000, 2000)
    expect(now()).toBeGreaterThan(5_000);
    // Announced once it lasted 2 s, with the time then left; and its end.
    expect(events).toEqual([
      { type: 'unreachable', budgetMs: 60_000, remainingMs: expect.any(Number), cause: expect.objectContaining({ errorCode: 'ECONNREFUSED' }) },
      { type: 'reachable', downMs: now() },
    ]);
    const left = (events[0] as { remainingMs: number }).remainingMs;
    expect(left).toBeLessThanOrEqual(58_000);
    expect(left).toBeGreaterThan(55_000);
  });

  it('give up when the budget is spent, with the last error, having waited no longer than the budget', async () => {
    const { p, events, outage, now } = policy();
    const last = refused();
    const s = script(...down(200), last);
    const attempt = async () => {
      if (now() >= 10_000) throw last;
      return s.attempt();
    };
    await expect(withRetry('PUT', attempt, p, { outage: outage(10_000) })).rejects.toBe(last);
    expect(now()).toBe(10_000);
    expect(events.map((e) => e.type)).toEqual(['unreachable']);
  });

  it('are one outage for every request of the client: one event, one deadline', async () => {
    const { p, events, outage, now } = policy();
    const o = outage(60_000);
    let calls = 0;
    const attempt = async () => {
      if (++calls <= 30) throw refused();
      return 'ok';
    };
    const runs = [withRetry('GET', attempt, p, { outage: o }), withRetry('DELETE', attempt, p, { outage: o }), withRetry('PATCH', attempt, p, { outage: o })];
    await expect(Promise.all(runs)).resolves.toEqual(['ok', 'ok', 'ok']);
    expect(events.map((e) => e.type)).toEqual(['unreachable', 'reachable']);
    expect(now()).toBeGreaterThan(0);
  });

  it('a POST is repeated only when nothing was sent (refused), or through its landed check (reset, 502, 503)', async () => {
    const { p, outage } = policy();
    const refusedPost = script(...down(12));
    await expect(withRetry('POST', refusedPost.attempt, p, { outage: outage(60_000) })).resolves.toBe('ok');
    const unchecked = script(err(0, 'ECONNRESET'));
    await expect(withRetry('POST', unchecked.attempt, p, { outage: outage(60_000) })).rejects.toMatchObject({ errorCode: 'ECONNRESET' });
    expect(unchecked.calls()).toBe(1);
    let checks = 0;
    const checked = script(...down(8, () => err(503)), err(0, 'ECONNRESET'));
    await expect(withRetry('POST', checked.attempt, p, { outage: outage(60_000), postCheck: async () => (checks++, true) })).resolves.toBe('ok');
    expect([checked.calls(), checks]).toEqual([10, 9]);
    // A 504 may still commit: never repeated, outage or not.
    const timedOut = script(err(504));
    await expect(withRetry('POST', timedOut.attempt, p, { outage: outage(60_000), postCheck: async () => true })).rejects.toMatchObject({ status: 504 });
  });

  it('a failure the next attempt gets past, or a service answering in between, is no outage to announce, and a request still gives up within the budget', async () => {
    const { p, events, outage, now } = policy();
    const o = outage(10_000);
    await expect(withRetry('GET', script(err(502), err(0, 'ECONNRESET')).attempt, p, { outage: o })).resolves.toBe('ok');
    // Every POST answered 503 while the lists of its landed check succeed: each list ends the shared outage.
    const start = now();
    const posts = script(...down(1000, () => err(503)));
    const check = async () => {
      await withRetry('GET', async () => 'listed', p, { outage: o });
      return true;
    };
    await expect(withRetry('POST', posts.attempt, p, { outage: o, postCheck: check })).rejects.toMatchObject({ status: 503 });
    expect(now() - start).toBeLessThanOrEqual(10_000);
    expect(events).toEqual([]);
  });

  it('with a budget of 0 get the ordinary retries (attempts and maxElapsedMs), and no event', async () => {
    const { p, events, outage } = policy({ maxAttempts: 5 });
    const s = script(...down(10));
    await expect(withRetry('GET', s.attempt, p, { outage: outage(0) })).rejects.toMatchObject({ errorCode: 'ECONNREFUSED' });
    expect(s.calls()).toBe(5);
    expect(events).toEqual([]);
  });

  it('end within outageCapMs of the first attempt (a lock renewal must not outlive the next one)', async () => {
    const { p, outage, now } = policy();
    const s = script(...down(1000));
    await expect(withRetry('PATCH', s.attempt, p, { outage: outage(60_000), outageCapMs: 3_000 })).rejects.toMatchObject({ errorCode: 'ECONNREFUSED' });
    expect(now()).toBe(3_000);
  });
});

describe('a service that has not answered once in the run (a wrong URL, a service not started)', () => {
  const refused = () => err(0, 'ECONNREFUSED');

  it('is retried for 5 s from the run\'s first failure, not for the budget, and nothing is announced', async () => {
    const { p, events, outage, now } = policy();
    const o = outage(60_000, { answered: false });
    const attempt = async (): Promise<string> => {
      throw refused();
    };
    const runs = [withRetry('GET', attempt, p, { outage: o }), withRetry('GET', attempt, p, { outage: o }), withRetry('POST', attempt, p, { outage: o })];
    for (const run of runs) await expect(run).rejects.toMatchObject({ errorCode: 'ECONNREFUSED' });
    expect(now()).toBe(5_000);
    expect(o.neverAnsweredFor()).toBe(5_000);
    expect(events).toEqual([]);
  });

  it('a DNS failure alike; and a budget shorter than 5 s is the limit', async () => {
    const dns = policy();
    await expect(withRetry('GET', script(...Array.from({ length: 100 }, () => err(0, 'ENOTFOUND'))).attempt, dns.p, { outage: dns.outage(60_000, { answered: false }) }))
      .rejects.toMatchObject({ errorCode: 'ENOTFOUND' });
    expect(dns.now()).toBe(5_000);
    const short = policy();
    await expect(withRetry('GET', script(...Array.from({ length: 100 }, refused)).attempt, short.p, { outage: short.outage(3_000, { answered: false }) }))
      .rejects.toMatchObject({ errorCode: 'ECONNREFUSED' });
    expect(short.now()).toBe(3_000);
  });

  it('a service found within the 5 s is used, and from its first answer the budget rides out an outage', async () => {
    const { p, events, outage, now } = policy();
    const o = outage(60_000, { answered: false });
    await expect(withRetry('GET', script(refused(), refused(), refused()).attempt, p, { outage: o })).resolves.toBe('ok');
    expect(o.neverAnsweredFor()).toBeUndefined();
    const start = now();
    await expect(withRetry('GET', script(...Array.from({ length: 40 }, refused)).attempt, p, { outage: o })).resolves.toBe('ok');
    expect(now() - start).toBeGreaterThan(5_000);
    expect(events.map((e) => e.type)).toEqual(['unreachable', 'reachable']);
  });

  it('any answer counts, an error or a gateway\'s 503: the URL leads somewhere', async () => {
    for (const first of [err(404), err(503)]) {
      const { p, outage, now } = policy();
      const o = outage(60_000, { answered: false });
      await withRetry('GET', script(first).attempt, p, { outage: o }).catch(() => undefined);
      expect(o.neverAnsweredFor()).toBeUndefined();
      const start = now();
      await expect(withRetry('GET', script(...Array.from({ length: 40 }, refused)).attempt, p, { outage: o })).resolves.toBe('ok');
      expect(now() - start).toBeGreaterThan(5_000);
    }
  });
});

describe('the outage line', () => {
  /** What a run prints for outage events: the lines the client's onOutage, as outageOptions makes it, gives `say`. */
  function printed(events: readonly OutageEvent[]): string[] {
    const lines: string[] = [];
    const { onOutage } = outageOptions(resolveSettings({ color: false }, {}, {}, false), (t) => lines.push(t));
    for (const e of events) onOutage!(e);
    return lines;
  }

  it('says the budget as given, --retry-budget 3 as 3 s, and names the option', async () => {
    const { p, events, outage } = policy({ random: () => 0.5 });
    const o = outage(3_000);
    await expect(withRetry('GET', script(...Array.from({ length: 100 }, () => err(0, 'ECONNREFUSED'))).attempt, p, { outage: o })).rejects.toBeDefined();
    expect(events).toHaveLength(1);
    expect(printed(events)).toEqual(['service unreachable (ECONNREFUSED), retrying for up to 3 s from the first failure (--retry-budget)\n']);
    expect(printed([{ type: 'unreachable', budgetMs: 60_000, remainingMs: 58_000, cause: err(503) }])).toEqual([
      'service unreachable (503), retrying for up to 60 s from the first failure (--retry-budget)\n']);
    expect(printed([{ type: 'reachable', downMs: 2_600 }])).toEqual(['service reachable again after 3 s\n']);
  });
});
