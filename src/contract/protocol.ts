// The wire protocol both sides speak, beside the bodies: the version header every request carries, and the
// error envelope every failure answers with.

/** Every request names the API version it speaks in this header. */
export const VERSION_HEADER = 'service-version';
export const SERVICE_VERSION = '2';

/** An id is its kind's prefix and "_" (`ipp_`), then this many base62 characters. */
export const ID_SUFFIX_LENGTH = 27;

/** What a failure answers: a stable code, its HTTP status, a message, and the operation id of the request. */
interface ErrorEnvelope {
  error_code: string;
  status_code: number;
  msg: string;
  details: { operation_id: string };
}

export function errorEnvelope(code: string, status: number, msg: string, operationId: string): ErrorEnvelope {
  return { error_code: code, status_code: status, msg, details: { operation_id: operationId } };
}

/**
 * The code and message of an error body, as far as it is an envelope: a proxy's page or a body of another
 * shape gives what it has (`message` is the spelling some gateways use), else nothing.
 */
export function readErrorEnvelope(body: unknown): { code?: string; msg?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const fields = body as Record<string, unknown>;
  const code = typeof fields.error_code === 'string' && fields.error_code !== '' ? fields.error_code : undefined;
  const msg = fields.msg ?? fields.message;
  return { ...(code !== undefined ? { code } : {}), ...(typeof msg === 'string' ? { msg } : {}) };
}
