// The client's request scheduler. Every request of one API client, list pages and writes alike, is
// started through one Scheduler, which
// - bounds the requests in flight, AIMD style: the bound starts at the configured concurrency, halves (min 1)
//   on a 429 and grows back by one per `recoverAfter` answered requests;
// - spaces requests with one token bucket: a configured rate, or unlimited until the first 429 and from then
//   the rate the service was seen to accept, growing back by a quarter per `recoverAfter` answered requests;
// - honours Retry-After: after a 429 no request starts until the time it names.
// The engine's own p-limit bounds actions; an action makes several requests, so this is what bounds requests.
// One exception: an urgent request (the stack lock's renewal and release) starts at once, past the queue, the
// bound, the bucket and any Retry-After pause, so a busy or rate-limited run cannot starve it until its lock
// expires. There is one every few seconds at most; its answer still counts like any other.
// Several requests already in flight can meet the same limit: only the first 429 of those counts as a new
// reduction (the others started before it, TCP's "one reduction per window"), though each extends the pause.

export interface SchedulerOptions {
  /** Most requests in flight; the AIMD bound never exceeds it. */
  concurrency: number;
  /** Requests per second; undefined = unlimited until the first 429, then adapted. */
  requestsPerSecond?: number;
  /** Answered requests per step of recovery (+1 in flight, rate x1.25). Default 10. */
  recoverAfter?: number;
  /** Floor of the adapted rate, per second. Default 0.5. */
  minRequestsPerSecond?: number;
  /** Classifies a failed task: a 429 (with its Retry-After in ms, if any), an answer, or neither. */
  outcomeOf: (err: unknown) => Outcome;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  onEvent?: (e: SchedulerEvent) => void;
}

export type Outcome = { type: 'rate-limited'; retryAfterMs?: number } | { type: 'answered' } | { type: 'no-answer' };

export type SchedulerEvent =
  | { type: 'start'; at: number; inFlight: number }
  | { type: 'rate-limited'; at: number; retryAfterMs?: number; reduced: boolean; limit: number; requestsPerSecond: number };

export interface SchedulerStats {
  inFlight: number;
  queued: number;
  /** The current AIMD bound. */
  limit: number;
  /** The token bucket's rate; Infinity while unlimited. */
  requestsPerSecond: number;
  pausedUntil: number;
  rateLimited: number;
  reductions: number;
}

/** Fewer answers than this since the last reduction say nothing about the service's rate. */
const MIN_SAMPLES = 4;
const GROWTH = 1.25;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Scheduler {
  private readonly max: number;
  private readonly cap: number;
  private readonly recoverAfter: number;
  private readonly minRate: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private limit: number;
  private rate: number;
  private tokens: number;
  private refilledAt: number;
  private inFlight = 0;
  private readonly queue: (() => void)[] = [];
  private pausedUntil = 0;
  private generation = 0;
  private answered = 0;
  private successes = 0;
  private epochStart: number | undefined;
  private waking = false;
  private rateLimited = 0;
  private reductions = 0;

  constructor(private readonly opts: SchedulerOptions) {
    this.max = Math.max(1, Math.floor(opts.concurrency) || 1);
    this.cap = opts.requestsPerSecond ?? Infinity;
    if (!(this.cap > 0)) throw new RangeError(`requestsPerSecond must be positive, got ${String(opts.requestsPerSecond)}`);
    this.recoverAfter = Math.max(1, opts.recoverAfter ?? 10);
    this.minRate = opts.minRequestsPerSecond ?? 0.5;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? realSleep;
    this.limit = this.max;
    this.rate = this.cap;
    this.tokens = this.max;
    this.refilledAt = this.now();
  }

  /**
   * Runs `task` when a slot, a token and the Retry-After pause allow. A retry goes before first attempts; an
   * urgent task starts at once (see the header).
   */
  run<T>(task: () => Promise<T>, retry = false, urgent = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        const generation = this.generation;
        this.inFlight++;
        this.opts.onEvent?.({ type: 'start', at: this.now(), inFlight: this.inFlight });
        let promise: Promise<T>;
        try {
          promise = task();
        } catch (err) {
          promise = Promise.reject(err);
        }
        promise.then(
          (value) => {
            this.settle(generation, { type: 'answered' });
            resolve(value);
          },
          (err: unknown) => {
            this.settle(generation, this.opts.outcomeOf(err));
            reject(err);
          },
        );
      };
      if (urgent) return start();
      if (retry) this.queue.unshift(start);
      else this.queue.push(start);
      this.pump();
    });
  }

  stats(): SchedulerStats {
    return {
      inFlight: this.inFlight, queued: this.queue.length, limit: this.limit, requestsPerSecond: this.rate,
      pausedUntil: this.pausedUntil, rateLimited: this.rateLimited, reductions: this.reductions,
    };
  }

  private pump(): void {
    while (this.queue.length > 0 && this.inFlight < this.limit) {
      const now = this.now();
      if (now < this.pausedUntil) return this.wakeIn(this.pausedUntil - now);
      if (this.rate !== Infinity) {
        this.tokens = Math.min(this.max, this.tokens + ((now - this.refilledAt) * this.rate) / 1000);
        this.refilledAt = now;
        if (this.tokens < 1) return this.wakeIn(Math.ceil(((1 - this.tokens) * 1000) / this.rate));
        this.tokens -= 1;
      }
      this.epochStart ??= now;
      this.queue.shift()!();
    }
  }

  /** One timer at a time; when it fires the queue is looked at again (the pause may have grown meanwhile). */
  private wakeIn(ms: number): void {
    if (this.waking) return;
    this.waking = true;
    void this.sleep(Math.max(1, ms)).then(() => {
      this.waking = false;
      this.pump();
    });
  }

  private settle(generation: number, outcome: Outcome): void {
    this.inFlight--;
    if (outcome.type === 'rate-limited') this.onRateLimited(generation, outcome.retryAfterMs);
    else if (outcome.type === 'answered') this.onAnswered();
    this.pump();
  }

  private onAnswered(): void {
    this.answered++;
    if (++this.successes < this.recoverAfter) return;
    this.successes = 0;
    this.limit = Math.min(this.max, this.limit + 1);
    if (this.rate < this.cap) this.rate = Math.min(this.cap, this.rate * GROWTH);
  }

  private onRateLimited(generation: number, retryAfterMs: number | undefined): void {
    this.rateLimited++;
    const now = this.now();
    if (retryAfterMs !== undefined) this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
    const reduced = generation === this.generation;
    if (reduced) {
      this.generation++;
      this.reductions++;
      this.limit = Math.max(1, Math.floor(this.limit / 2));
      this.successes = 0;
      if (this.answered >= MIN_SAMPLES && this.epochStart !== undefined) {
        // What the service let through since the last reduction, spread over that time plus the wait it asks
        // for: for a per-window limit hit by a burst this is about the limit's own rate.
        const seen = (this.answered * 1000) / Math.max(1, now - this.epochStart + (retryAfterMs ?? 0));
        const next = Math.min(this.cap, Math.max(this.minRate, Math.min(this.rate, seen)));
        if (this.rate === Infinity) this.tokens = Math.min(this.tokens, this.max);
        this.rate = next;
        this.refilledAt = now;
      }
      this.answered = 0;
      this.epochStart = undefined;
    }
    this.opts.onEvent?.({ type: 'rate-limited', at: now, retryAfterMs, reduced, limit: this.limit, requestsPerSecond: this.rate });
  }
}
