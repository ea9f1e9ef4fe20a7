// Turning a failed exchange into an ApiError. Only the response is read (never the request body), so a
// secret sent in a body (a private key) cannot reach an error message or a log.
import { ApiError } from '../errors.ts';

const MAX_MESSAGE = 500;

/** A non-2xx answer: the service's `{error_code, status_code, msg}` body, or a stand-in for a non-JSON one. */
export function responseError(status: number, text: string, operation: string): ApiError {
  let errorCode = `HTTP_${status}`;
  let message = `non-JSON error response (${text.length} bytes)`;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) {
      const body = parsed as Record<string, unknown>;
      if (typeof body.error_code === 'string' && body.error_code !== '') errorCode = body.error_code;
      const msg = body.msg ?? body.message;
      message = typeof msg === 'string' ? msg.slice(0, MAX_MESSAGE) : 'error response without a message';
    }
  } catch {
    // keep the stand-in: the body is not JSON (a proxy's HTML page, an empty body)
  }
  if (text.length === 0) message = 'empty error response';
  return new ApiError({ status, errorCode, message, operation });
}

/** A transport failure (refused, reset, timeout): status 0 and the socket error's code. */
export function transportError(err: unknown, operation: string): ApiError {
  const e = err as { code?: unknown; message?: unknown };
  const errorCode = typeof e.code === 'string' ? e.code : 'ERR_TRANSPORT';
  const message = typeof e.message === 'string' ? e.message : String(err);
  return new ApiError({ status: 0, errorCode, message, operation });
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
