// The API client: the only code that speaks HTTP to the service. undici `request` on one keep-alive Pool
// per API origin (about 3x faster than fetch for small JSON calls, design: Dependencies), with retries (retry.ts),
// pagination (paginate.ts), and one rate-limit-aware scheduler (scheduler.ts) that every attempt of every call
// passes through (the `urgent` view's past its queue and pauses, on a connection of its own). Every failure
// surfaces as an ApiError.
import { Pool, type Dispatcher } from 'undici';
import { SERVICE_VERSION, VERSION_HEADER } from '../contract/protocol.ts';
import { ApiError } from '../errors.ts';
import type { Api, Obj } from '../kinds/resource-kind.ts';
import { invalidResponse, neverAnswered, postTimedOut, responseError, transportError } from './api-error.ts';
import { listAll } from './paginate.ts';
import { DEFAULT_RETRY_POLICY, isTimeout, isUnreachable, Outage, parseRetryAfter, retryAfterOf, setRetryAfter, withRetry } from './retry.ts';
import type { OutageEvent, PostCheck, RetryPolicy } from './retry.ts';
import { Scheduler } from './scheduler.ts';
import type { Outcome, SchedulerEvent, SchedulerStats } from './scheduler.ts';

export interface ApiOptions {
  /** Base URL of the service, e.g. `http://127.0.0.1:4010` (a path prefix is kept). */
  url: string;
  apiKey: string;
  /** Connections kept to the service and most requests in flight (fewer after a 429). Default 8. */
  concurrency?: number;
  /** Requests per second for all calls together; default unlimited until the service answers 429. */
  requestsPerSecond?: number;
  /** Scheduler decisions (starts, 429s), for diagnostics and tests. */
  onSchedulerEvent?: (e: SchedulerEvent) => void;
  userAgent?: string;
  retry?: Partial<RetryPolicy>;
  /** When the service becomes unreachable and when it answers again (once per outage, see retry.ts). */
  onOutage?: (e: OutageEvent) => void;
  /** Headers and body timeouts of one request. Default 30 s. */
  timeoutMs?: number;
  /**
   * Told once per request that has waited SLOW_NOTICE_MS for its answer (a line saying what it waits for),
   * so a hung service is not silence until the timeout. The wait counts from the moment the request has a
   * connection: a slow name lookup or connect that fails is one error line, not a notice and then an error.
   */
  onSlow?: (line: string) => void;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const SLOW_NOTICE_MS = 5_000;

/** An Api whose POSTs are retried after an ambiguous failure only as its check allows (see retryPostIf). */
interface CheckedApi extends Api {
  /** A view of this view with `check` in place of its own. */
  retryPostIf(check: PostCheck): CheckedApi;
}

/** An Api with a lane for the few requests that must not wait behind the others (see HttpApi.urgent). */
interface UrgentApi extends Api {
  urgent(maxElapsedMs: number): Api;
}

export interface HttpApi extends CheckedApi {
  /**
   * A view of this client whose POSTs, after an ambiguous failure (500/502/503, connection reset), are
   * retried only if `check()` resolves true, i.e. a list proves the create did not land (a POST that timed out
   * is never retried: it may still commit after the check). Without this view
   * such a POST fails at once, so a retry never makes a duplicate. The engine passes the view to `kind.create`.
   * Views have `retryPostIf` too: a view of a view uses only the newer check.
   */
  retryPostIf(check: PostCheck): CheckedApi;
  /**
   * A view whose requests start at once, past the scheduler's queue, bound, bucket and Retry-After pauses, and
   * whose retries end within `maxElapsedMs`: for the stack lock's renewal and release, which must land before
   * the lock's expiry however busy or rate-limited the run's other requests are.
   */
  urgent(maxElapsedMs: number): Api;
  /** The scheduler's state: in flight, the AIMD bound, the rate, 429s seen. */
  stats(): SchedulerStats;
  close(): Promise<void>;
}

/** `api.urgent(maxElapsedMs)` when the Api supports it, else the Api unchanged (fakes in tests). */
export function withUrgency(api: Api, maxElapsedMs: number): Api {
  const candidate = api as Partial<UrgentApi>;
  return typeof candidate.urgent === 'function' ? candidate.urgent(maxElapsedMs) : api;
}

export function createApi(opts: ApiOptions): HttpApi {
  const base = new URL(opts.url);
  const origin = base.origin;
  const prefix = base.pathname.replace(/\/+$/, '');
  const timeout = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const endpoint = { url: opts.url.replace(/\/+$/, ''), timeoutMs: timeout };
  const pool = new Pool(origin, {
    // One more than the scheduler lets the other requests use: an urgent request never waits for a connection.
    connections: (opts.concurrency ?? 8) + 1,
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
  const dispatcher = pool.compose(toldWhenConnected);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
  // One clock for retries and scheduling, so a test that injects a clock into the policy drives both; only a
  // whole clock (a sleep alone, with the real time, would make the scheduler's waits spin).
  const clock = policy.now && policy.sleep ? { now: policy.now, sleep: policy.sleep } : {};
  const outage = new Outage(policy.outageBudgetMs ?? 0, policy.now, opts.onOutage);
  const scheduler = new Scheduler({
    concurrency: opts.concurrency ?? 8,
    requestsPerSecond: opts.requestsPerSecond,
    outcomeOf,
    ...clock,
    onEvent: opts.onSchedulerEvent,
  });
  const commonHeaders: Record<string, string> = {
    authorization: `Bearer ${opts.apiKey}`,
    [VERSION_HEADER]: SERVICE_VERSION,
    accept: 'application/json',
    'user-agent': opts.userAgent ?? `edgeops node/${process.versions.node}`,
  };

  let closed = false;

  /** One exchange. `rawPath` is already absolute on the origin (prefix included). */
  async function once(method: Dispatcher.HttpMethod, rawPath: string, body: Obj | undefined, operation: string): Promise<Obj> {
    // Requests of abandoned work (a plan stopped by Ctrl-C) fail at once, not through retries.
    if (closed) throw new ApiError({ status: 0, errorCode: 'ERR_CLIENT_CLOSED', message: 'the client was closed', operation });
    const headers = body === undefined ? commonHeaders : { ...commonHeaders, 'content-type': 'application/json' };
    let status: number;
    let text: string;
    let retryAfter: string | string[] | undefined;
    let slow: NodeJS.Timeout | undefined;
    const onSlow = opts.onSlow;
    const onConnected = onSlow && (() => {
      slow = setTimeout(() => {
        onSlow(`waiting for ${endpoint.url} to answer ${operation} (${SLOW_NOTICE_MS / 1000} s so far; gives up after ${timeout / 1000} s, see --timeout)`);
      }, SLOW_NOTICE_MS).unref();
    });
    try {
      const res = await dispatcher.request({
        method,
        path: rawPath,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        onConnected,
      } as ConnectedOptions);
      status = res.statusCode;
      retryAfter = res.headers['retry-after'];
      text = await res.body.text();
    } catch (err) {
      throw transportError(err, operation, endpoint);
    } finally {
      clearTimeout(slow);
    }
    if (status < 200 || status > 299) {
      throw setRetryAfter(responseError(status, text, operation), parseRetryAfter(retryAfter));
    }
    if (text === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalidResponse(status, operation, 'response body is not JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidResponse(status, operation, 'response body is not a JSON object');
    }
    return parsed as Obj;
  }

  /** A failure to reach a service that never answered this run says so (see retry.ts). */
  function explained(err: unknown): unknown {
    if (!(err instanceof ApiError) || err.status !== 0 || !isUnreachable(err)) return err;
    const waited = outage.neverAnsweredFor();
    return waited === undefined ? err : neverAnswered(err, waited, outage.budgetMs);
  }

  function call(method: Dispatcher.HttpMethod, rawPath: string, body?: Obj, postCheck?: PostCheck, urgentWithin?: number): Promise<Obj> {
    const operation = `${method} ${rawPath}`;
    let attempts = 0;
    const urgent = urgentWithin !== undefined;
    const run = () => scheduler.run(() => once(method, rawPath, body, operation), attempts++ > 0, urgent);
    const result = withRetry(method, run, urgent ? { ...policy, maxElapsedMs: urgentWithin } : policy, {
      postCheck, deletedValue: {}, outage, outageCapMs: urgentWithin,
    });
    return result.catch((err: unknown) => {
      throw method === 'POST' && err instanceof ApiError && isTimeout(err) ? postTimedOut(err, timeout) : explained(err);
    });
  }

  const full = (path: string): string => prefix + (path.startsWith('/') ? path : `/${path}`);

  function view(postCheck?: PostCheck, urgentWithin?: number): CheckedApi {
    // Every call of this view: its urgency, and its POST check for POSTs only.
    const send = (method: Dispatcher.HttpMethod, rawPath: string, body?: Obj): Promise<Obj> =>
      call(method, rawPath, body, method === 'POST' ? postCheck : undefined, urgentWithin);
    return {
      get: (path) => send('GET', full(path)),
      post: (path, body) => send('POST', full(path), body),
      patch: (path, body) => send('PATCH', full(path), body),
      put: (path, body) => send('PUT', full(path), body),
      delete: async (path) => {
        await send('DELETE', full(path));
      },
      list: (path, listKey, onPage) =>
        listAll(
          () => send('GET', full(path)),
          (next) => send('GET', next),
          { path, listKey, origin, onPage },
        ),
      // A view of a view replaces the check: a kind's follow-up POSTs (e.g. EventSources' types, made
      // inside the engine's checked create) need their own check, not the check of the create around them.
      retryPostIf: (check) => view(check),
    };
  }

  return {
    ...view(),
    urgent: (maxElapsedMs) => view(undefined, maxElapsedMs),
    stats: () => scheduler.stats(),
    close: () => {
      closed = true;
      return pool.close();
    },
  };
}

type ConnectedOptions = Dispatcher.RequestOptions & { onConnected?: () => void };

/**
 * An interceptor that calls a request's `onConnected` when undici writes it to a connected socket. The handler
 * it is given is already in undici's current form (compose wraps it), so the rest passes through unchanged.
 */
function toldWhenConnected(dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch {
  return (options, handler) => {
    const onConnected = (options as ConnectedOptions).onConnected;
    if (!onConnected) return dispatch(options, handler);
    return dispatch(options, {
      onRequestStart: (controller, context) => {
        onConnected();
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: (controller, status, headers, socket) => handler.onRequestUpgrade?.(controller, status, headers, socket),
      onResponseStart: (controller, status, headers, message) => handler.onResponseStart?.(controller, status, headers, message),
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    });
  };
}

/** 429s slow the scheduler down; any other answer shows the service took the request; transport errors neither. */
function outcomeOf(err: unknown): Outcome {
  if (!(err instanceof ApiError) || err.status === 0) return { type: 'no-answer' };
  return err.status === 429 ? { type: 'rate-limited', retryAfterMs: retryAfterOf(err) } : { type: 'answered' };
}
