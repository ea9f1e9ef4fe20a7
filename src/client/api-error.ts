// Turning a failed exchange into an ApiError. Only the response is read (never the request body), so a
// secret sent in a body (a private key) cannot reach an error message or a log.
import { readErrorEnvelope } from '../contract/protocol.ts';
import { ApiError } from '../errors.ts';

const MAX_MESSAGE = 500;

/** A non-2xx answer: the service's `{error_code, status_code, msg}` body, or a stand-in for a non-JSON one. */
export function responseError(status: number, text: string, operation: string): ApiError {
  let errorCode = `HTTP_${status}`;
  let message = `non-JSON error response (${text.length} bytes)`;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) {
      const envelope = readErrorEnvelope(parsed);
      if (envelope.code !== undefined) errorCode = envelope.code;
      message = envelope.msg !== undefined ? envelope.msg.slice(0, MAX_MESSAGE) : 'error response without a message';
    }
  } catch {
    // keep the stand-in: the body is not JSON (a proxy's HTML page, an empty body)
  }
  if (text.length === 0) message = 'empty error response';
  return new ApiError({ status, errorCode, message, operation });
}

/** Where a request went and how long it may wait, for the messages of transport failures. */
interface Endpoint {
  /** The service URL as configured (origin and any path prefix). */
  url: string;
  timeoutMs: number;
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * One line for a request that got no HTTP answer: the URL and the likely cause, in words a user can act on.
 * This is what is printed when retries give up, so it says nothing about retrying.
 */
function describeTransportFailure(code: string, rawMessage: string, at: Endpoint): string {
  const { url } = at;
  const host = (() => {
    try {
      return new URL(url).hostname;
    } catch {
      return url;
    }
  })();
  const where = '--api-url / EDGEOPS_API_URL';
  if (code === 'ECONNREFUSED') return `cannot connect to ${url}: connection refused; is the service running there? (start one with "edgeops serve", or check ${where})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return `cannot reach ${url}: the host name "${host}" does not resolve (DNS lookup failed${code === 'EAI_AGAIN' ? ', temporarily' : ''}); check ${where}`;
  }
  if (/^ERR_SSL|^EPROTO$|^ERR_TLS/.test(code) || /wrong version number|packet length too long|ssl3_get_record|tls/i.test(rawMessage)) {
    return `TLS handshake with ${url} failed: the server does not speak TLS there (a plain-HTTP service? then use http://); ${code}`;
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    const what = code === 'UND_ERR_CONNECT_TIMEOUT' ? 'could not open a connection' : 'accepted the connection but sent no answer';
    return `no answer from ${url} within ${seconds(at.timeoutMs)}: the server ${what} (a hung service or a proxy?); raise the wait with --timeout SECONDS or EDGEOPS_TIMEOUT`;
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return `the connection to ${url} was closed before an answer (${code}); the service stopped, or something between us dropped it`;
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `cannot reach ${url}: no route to the host (${code}); check the network and ${where}`;
  return `cannot reach ${url}: ${code}: ${rawMessage.split('\n')[0]}`;
}

/** An ApiError whose message is the one-line description of a transport failure. */
class TransportError extends ApiError {
  constructor(opts: ConstructorParameters<typeof ApiError>[0], line: string) {
    super(opts);
    this.message = line;
  }
}

/** A transport failure (refused, reset, timeout): status 0, the socket error's code, and a line naming the cause. */
export function transportError(err: unknown, operation: string, at?: Endpoint): ApiError {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  // undici reports some failures (TLS) with the socket's own error as the cause.
  const errorCode = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : 'ERR_TRANSPORT';
  const message = typeof e.message === 'string' ? e.message : String(err);
  const opts = { status: 0, errorCode, message, operation };
  if (!at) return new ApiError(opts);
  const detail = typeof e.cause?.message === 'string' ? `${message} ${e.cause.message}` : message;
  return new TransportError(opts, `${describeTransportFailure(errorCode, detail, at)} [${operation}]`);
}

/**
 * A transport failure in a run whose service has not answered once: most likely a wrong URL or a service not
 * started, so it was retried for a few seconds rather than for the retry budget (retry.ts). The message says
 * how long, and what --retry-budget is for.
 */
export function neverAnswered(err: ApiError, waitedMs: number, budgetMs: number): ApiError {
  const waited = Math.max(0, Math.round(waitedMs / 1000));
  const line = `${err.message}; gave up after ${waited} s, as the service has not answered once in this run ` +
    `(--retry-budget, ${Math.round(budgetMs / 1000)} s, is for a service that stops answering after it has answered, e.g. while it restarts)`;
  return new TransportError({ status: err.status, errorCode: err.errorCode, message: err.serviceMessage, operation: err.operation }, line);
}

/** A 2xx answer whose body is not the JSON object we expect. */
export function invalidResponse(status: number, operation: string, why: string): ApiError {
  return new ApiError({ status, errorCode: 'ERR_INVALID_RESPONSE', message: why, operation });
}

/**
 * A POST that got no answer in time, said so the user knows why it was not repeated and what to do. The
 * service may still create the resource; the next run finds it by its ownership marker.
 */
export function postTimedOut(err: ApiError, timeoutMs: number): ApiError {
  const what = err.status === 504 ? 'the gateway gave up waiting for the service (504)' : `no answer within ${timeoutMs} ms (${err.errorCode})`;
  return new ApiError({
    status: err.status,
    errorCode: err.errorCode,
    message: `${what}; the service may still make this create, so it was not repeated (a repeat could make a duplicate). ` +
      'Run the command again: it finds what landed and creates only what did not',
    operation: err.operation,
  });
}
