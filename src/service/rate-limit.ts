// Requests per rolling window per API key. Only admitted requests count, so a client that backs off as told
// by Retry-After gets through.
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Admits and records the request, or returns the whole seconds (>= 1) until one slot frees up. */
  take(key: string): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const now = this.now();
    let times = this.hits.get(key);
    if (!times) {
      times = [];
      this.hits.set(key, times);
    }
    // Times are in arrival order, so expired ones are at the front.
    while (times.length > 0 && times[0]! <= now - this.windowMs) times.shift();
    if (times.length >= this.limit) {
      const waitMs = times[0]! + this.windowMs - now;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    times.push(now);
    return { ok: true };
  }
}
