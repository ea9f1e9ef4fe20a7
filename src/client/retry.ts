// Retry policy for service calls: exponential backoff with full jitter, bounded attempts and total time.
// GET/PUT/PATCH/DELETE are idempotent here and retried on transient failures. A POST is only retried when
// the failure proves the request was never processed (429, connection refused) or, for ambiguous failures
// (500/502/503, connection reset), when the caller's check proves the create did not land. A POST that timed
// out (no answer in time, or a gateway's 504) is never retried: the service may still be working on it, so a
// list made now can show it missing and it can still commit after the repeat. Such a create fails the action;
// the next run finds whatever landed by its marker.
// A 500 counts as transient too: behind a gateway it is as often a passing fault as a bug, and a bug costs
// only a few bounded retries before the same error surfaces (faults of 500/502/503 must converge).
// An outage is different: a refused or reset connection, or a gateway's 502/503, says the service is not there
// right now (restarting, most often), and a restart takes longer than five quick attempts. Such failures are
// retried for as long as the outage budget allows (default 60 s, counted from the first failure of the outage,
// shared by every request of the client), with a backoff capped low so the service is found again within
// about two seconds of its return; POSTs still only through their landed check. The client reports when an
// outage starts and ends (OutageEvent), once for all its requests; the CLI words it.
// The budget is for a service that goes away in the middle of a run: it applies once the service has answered
// (any HTTP answer). Until then a failure to reach it is most likely a wrong URL or a service not started, so
// it is retried for NEVER_ANSWERED_MS at most (the budget, if shorter), without an announcement, and the
// error then says so (http.ts).
import { ApiError } from '../errors.ts';

export interface RetryPolicy {
  /** Total attempts including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  /** Cap of one backoff step before jitter (Retry-After is honoured beyond it, within maxElapsedMs). */
  maxDelayMs: number;
  /** No retry is started that would begin after this much time since the first attempt. */
  maxElapsedMs: number;
  /**
   * How long an outage (service unreachable: refused/reset connections, 502, 503) is ridden out, from its first
   * failure; attempts and maxElapsedMs do not bound these retries. 0 (or unset): such failures get the ordinary
   * retries.
   */
  outageBudgetMs?: number;
  /** Injectable for tests: the clock, the wait and the jitter source. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 8_000,
  maxElapsedMs: 90_000,
  outageBudgetMs: 60_000,
};

/** Cap of one backoff step during an outage: a restarted service is found again within this long. */
const OUTAGE_MAX_DELAY_MS = 2_000;
/** An outage is announced once it lasted this long (see Outage). */
const ANNOUNCE_AFTER_MS = 2_000;
/** Before the service's first answer of the run, an unreachable service is retried this long at most. */
const NEVER_ANSWERED_MS = 5_000;

/**
 * Resolves true when a list shows that the create of an ambiguously failed POST did not land (so a retry
 * cannot make a duplicate), false when it did land or cannot be told.
 */
export type PostCheck = () => Promise<boolean>;

type Verdict = 'retry' | 'retry-if-not-landed' | 'fail';

/** Failures before the request reached the service: nothing was processed, so even a POST may be repeated. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Failures that say the service is not there right now (see the header): an outage. */
const UNREACHABLE_CODES = new Set([...NOT_SENT_CODES, 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const UNREACHABLE_STATUSES = new Set([502, 503]);
/** Failures after the request may have been processed. */
const AMBIGUOUS_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);
/** No answer in time: the request may still be in the service's hands, and commit later. */
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** True for a request that got no answer in time (the client's timeout, or a gateway's 504). */
export function isTimeout(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 504 || (err.status === 0 && TIMEOUT_CODES.has(err.errorCode)));
}

/** True for a failure that says the service is unreachable (down or restarting), not that it failed a request. */
export function isUnreachable(err: unknown): boolean {
  return err instanceof ApiError && (UNREACHABLE_STATUSES.has(err.status) || (err.status === 0 && UNREACHABLE_CODES.has(err.errorCode)));
}

/** An outage starting (with its budget, the time left of it and the failure that began it) or ending. */
export type OutageEvent =
  | { type: 'unreachable'; budgetMs: number; remainingMs: number; cause: ApiError }
  | { type: 'reachable'; downMs: number };

/**
 * The outage state of one client, shared by all its requests: when the service was first found unreachable,
 * so every request gives up at the same time, and one event per outage however many requests meet it. An
 * outage is announced only once it has lasted ANNOUNCE_AFTER_MS: a passing 502 (or one refused connection)
 * that the next attempt gets past is not news, and a service that answers between failures never is. Before
 * the service's first answer of the run, there is no outage to ride out (see the header): failures are
 * retried for NEVER_ANSWERED_MS at most, from the run's first one, and not announced.
 */
export class Outage {
  private since: number | undefined;
  private announced = false;
  private answeredOnce = false;
  private firstFailure: number | undefined;
  constructor(
    readonly budgetMs: number,
    private readonly now: () => number = Date.now,
    private readonly onEvent?: (e: OutageEvent) => void,
  ) {}

  /** A request found the service unreachable (with a budget or without). */
  noteUnreachable(): void {
    this.firstFailure ??= this.now();
  }

  /** A request found the service unreachable: the time the outage's budget runs out. */
  failed(cause: ApiError): number {
    const now = this.now();
    const first = (this.firstFailure ??= now);
    if (!this.answeredOnce) return first + Math.min(NEVER_ANSWERED_MS, this.budgetMs);
    this.since ??= now;
    const until = this.since + this.budgetMs;
    if (!this.announced && now - this.since >= ANNOUNCE_AFTER_MS && until > now) {
      this.announced = true;
      this.onEvent?.({ type: 'unreachable', budgetMs: this.budgetMs, remainingMs: until - now, cause });
    }
    return until;
  }

  /** The service answered (any HTTP status): an outage in progress is over. */
  answered(): void {
    this.answeredOnce = true;
    if (this.since === undefined) return;
    const downMs = this.now() - this.since;
    if (this.announced) this.onEvent?.({ type: 'reachable', downMs });
    this.since = undefined;
    this.announced = false;
  }

  /** A gateway answered for the service (502, 503): the URL leads somewhere, though the service is not there. */
  reached(): void {
    this.answeredOnce = true;
  }

  /** How long ago the run's first failure was, while the service has not answered once in this run; else undefined. */
  neverAnsweredFor(): number | undefined {
    return this.answeredOnce ? undefined : this.now() - (this.firstFailure ?? this.now());
  }
}

/** Retry-After in milliseconds, kept beside the error it came with (ApiError is a shared contract type). */
const retryAfter = new WeakMap<ApiError, number>();

export function setRetryAfter(err: ApiError, ms: number | undefined): ApiError {
  if (ms !== undefined) retryAfter.set(err, ms);
  return err;
}

/** The Retry-After (ms) an error came with, if any. */
export function retryAfterOf(err: unknown): number | undefined {
  return err instanceof ApiError ? retryAfter.get(err) : undefined;
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function classify(err: unknown, method: string): Verdict {
  if (!(err instanceof ApiError)) return 'fail';
  const idempotent = method !== 'POST';
  if (err.status === 429 || (err.status === 0 && NOT_SENT_CODES.has(err.errorCode))) return 'retry';
  if (TRANSIENT_STATUSES.has(err.status) || (err.status === 0 && AMBIGUOUS_CODES.has(err.errorCode))) {
    if (idempotent) return 'retry';
    return isTimeout(err) ? 'fail' : 'retry-if-not-landed';
  }
  return 'fail';
}

/** Full jitter: a uniform delay in [0, min(cap, base * 2^retry)] (retry counts from 0). */
function backoffDelay(policy: RetryPolicy, retry: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor((policy.random ?? Math.random)() * ceiling);
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface RetryOptions<T> {
  postCheck?: PostCheck;
  deletedValue?: T;
  /** The client's outage state; without it (or with a budget of 0) outages get the ordinary retries. */
  outage?: Outage;
  /** Retries of an outage end within this long of the first attempt too (the lock's renewals: before the next). */
  outageCapMs?: number;
}

/**
 * Run `attempt` until it succeeds, fails for good, or the policy's budget is spent; the last error is thrown.
 * A DELETE answered 404 after a retry counts as done: an earlier attempt deleted it and lost the answer.
 */
export async function withRetry<T>(method: string, attempt: () => Promise<T>, policy: RetryPolicy, opts: RetryOptions<T> = {}): Promise<T> {
  const now = policy.now ?? Date.now;
  const sleep = policy.sleep ?? realSleep;
  const started = now();
  // Every answer is news to the shared state; only a budget rides out an outage.
  const shared = opts.outage;
  const outage = shared && shared.budgetMs > 0 ? shared : undefined;
  let tries = 0;
  let outageTries = 0;
  let unreachableSince: number | undefined;
  for (let n = 1; ; n++) {
    try {
      const value = await attempt();
      shared?.answered();
      return value;
    } catch (err) {
      const unreachable = isUnreachable(err);
      if (shared && err instanceof ApiError && err.status !== 0) {
        if (unreachable) shared.reached();
        else shared.answered();
      }
      if (unreachable) shared?.noteUnreachable();
      if (method === 'DELETE' && n > 1 && err instanceof ApiError && err.status === 404 && 'deletedValue' in opts) {
        return opts.deletedValue as T;
      }
      const verdict = classify(err, method);
      if (verdict === 'fail') throw err;
      let delay: number;
      if (outage && unreachable) {
        // Bounded by the outage's budget alone (attempts and maxElapsedMs are for failures of a present service),
        // and by the budget from this request's own first such failure: a service that answers other requests
        // in between (a POST answered 503 while its landed check's lists succeed) ends the shared outage each time.
        unreachableSince ??= now();
        const until = Math.min(outage.failed(err as ApiError), unreachableSince + outage.budgetMs, started + (opts.outageCapMs ?? Infinity));
        const left = until - now();
        if (left <= 0) throw err;
        delay = Math.min(left, backoffDelay({ ...policy, maxDelayMs: Math.min(policy.maxDelayMs, OUTAGE_MAX_DELAY_MS) }, outageTries++));
      } else {
        if (++tries >= policy.maxAttempts) throw err;
        const hinted = err instanceof ApiError ? retryAfter.get(err) : undefined;
        delay = hinted ?? backoffDelay(policy, tries - 1);
        if (now() - started + delay > policy.maxElapsedMs) throw err;
      }
      if (verdict === 'retry-if-not-landed' && !(await notLanded(opts.postCheck))) throw err;
      await sleep(delay);
    }
  }
}

async function notLanded(check: PostCheck | undefined): Promise<boolean> {
  if (!check) return false;
  try {
    return await check();
  } catch {
    // A failed check proves nothing; the caller gets the original error.
    return false;
  }
}
