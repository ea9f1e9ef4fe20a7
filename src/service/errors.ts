// The service's error vocabulary. Every condition a client can hit has its own stable code and HTTP status,
// listed once here; handlers throw `new ServiceError(code, msg)` and app.ts renders the envelope
// {"error_code","status_code","msg","details":{"operation_id"}}. Other resource files may ADD entries.
import { CONTRACT_KINDS, contractKind, notFoundCode, type NotFoundCode } from '../contract/index.ts';
import type { RuleCode, RuleProblem } from '../contract/rule-error.ts';

function notFoundEntries(): Record<NotFoundCode, { status: 404; condition: string }> {
  const entries = CONTRACT_KINDS.map((k) => {
    const within = k.parent ? ` on this ${contractKind(k.parent).label}` : '';
    return [notFoundCode(k.kind), { status: 404, condition: `no ${k.label} with this id${within}` }] as const;
  });
  return Object.fromEntries(entries) as Record<NotFoundCode, { status: 404; condition: string }>;
}

export const ERROR_CATALOG = {
  // --- authentication, versioning, rate limit
  ERR_AUTH_MISSING: { status: 401, condition: 'no Authorization header' },
  ERR_AUTH_NOT_BEARER: { status: 401, condition: 'Authorization header is not "Bearer <key>"' },
  ERR_AUTH_INVALID_KEY: { status: 401, condition: 'the bearer key is not a configured API key' },
  ERR_VERSION_MISSING: { status: 400, condition: 'no Service-Version header' },
  ERR_VERSION_UNSUPPORTED: { status: 400, condition: 'Service-Version is not 2' },
  ERR_RATE_LIMITED: { status: 429, condition: 'more than the configured requests per rolling 60 s for this key (Retry-After set)' },

  // --- routing and request framing
  ERR_NOT_FOUND_PATH: { status: 404, condition: 'no endpoint at this path' },
  ERR_METHOD_NOT_ALLOWED: { status: 405, condition: 'the path exists but not with this method (Allow header set)' },
  ERR_CONTENT_TYPE_UNSUPPORTED: { status: 415, condition: 'a POST/PATCH/PUT body without Content-Type: application/json' },
  ERR_BODY_TOO_LARGE: { status: 413, condition: 'request body over 1 MiB' },
  ERR_BODY_INVALID_JSON: { status: 400, condition: 'request body is not valid JSON (or not UTF-8)' },
  ERR_BODY_NOT_OBJECT: { status: 400, condition: 'request body is JSON but not an object' },
  ERR_BODY_UNREADABLE: { status: 400, condition: 'request body could not be read (aborted)' },
  ERR_REQUEST_MALFORMED: { status: 400, condition: 'the HTTP request itself is malformed (bad header, bad chunk framing, headers too large, too slow to arrive); the connection is closed' },
  ERR_CLIENT_GONE: { status: 400, condition: 'the client closed the connection before the request was carried out: nothing is written, no answer is sent' },
  ERR_QUERY_UNKNOWN_PARAM: { status: 400, condition: 'a query parameter other than limit/before_id on a list' },
  ERR_QUERY_REPEATED_PARAM: { status: 400, condition: 'a query parameter given more than once' },
  ERR_LIMIT_INVALID: { status: 400, condition: 'limit is not an integer from 1 to 100' },
  ERR_BEFORE_ID_INVALID: { status: 400, condition: 'before_id is not an id ever created in this list' },

  // --- generic field validation (the message always names the field path)
  ERR_UNKNOWN_FIELD: { status: 400, condition: 'a body field the endpoint does not take' },
  ERR_FIELD_TYPE: { status: 400, condition: 'a body field has the wrong JSON type' },
  ERR_FIELD_REQUIRED: { status: 400, condition: 'a required body field is missing or null' },
  ERR_FIELD_INVALID: { status: 400, condition: 'a body field value is out of its allowed set or range' },
  ERR_FIELD_NOT_UPDATABLE: { status: 400, condition: 'a PATCH sets a field that can only be set on create' },
  ERR_ID_MISMATCH: { status: 400, condition: 'the body "id" differs from the id in the path' },
  ERR_DESCRIPTION_TOO_LONG: { status: 400, condition: 'description over 255 bytes (UTF-8)' },
  ERR_METADATA_TOO_LONG: { status: 400, condition: 'metadata over 4096 bytes (UTF-8)' },
  ERR_MAP_KEY_INVALID: { status: 400, condition: 'an empty key in a string map (labels)' },

  // --- referential integrity
  ERR_REFERENCE_NOT_FOUND: { status: 400, condition: 'a referenced id does not exist' },
  ERR_REFERENCE_WRONG_KIND: { status: 400, condition: 'a referenced id exists but is of a kind the field does not take' },
  ERR_RESOURCE_IN_USE: { status: 409, condition: 'delete of a resource still referenced (the referrers are named in msg)' },

  // --- not found, per resource (one per contract kind, named after it)
  ...notFoundEntries(),
  ERR_EVENT_SOURCE_NOT_FOUND: { status: 404, condition: 'the subscription has no source of this type' },
  ERR_MODULE_NOT_SET: { status: 404, condition: 'GET of a module that is not set on the edge/route' },

  // --- IP policy rules
  ERR_CIDR_INVALID: { status: 400, condition: 'cidr is not an IPv4/IPv6 address or CIDR range' },
  ERR_CIDR_HOST_BITS_SET: { status: 400, condition: 'cidr has bits set beyond its mask (not the network address)' },
  ERR_ACTION_INVALID: { status: 400, condition: 'action is not allow or deny' },

  // --- backends
  ERR_STATUS_CODE_INVALID: { status: 400, condition: 'status_code is not an integer from 100 to 599' },
  ERR_HEADER_NAME_INVALID: { status: 400, condition: 'a header name is not an HTTP token (an empty name included)' },
  ERR_HEADER_VALUE_INVALID: { status: 400, condition: 'a header value holds control characters' },
  ERR_HEADER_DUPLICATE: { status: 400, condition: 'two header names equal ignoring case' },

  // --- event subscriptions and sources
  ERR_EVENT_TYPE_INVALID: { status: 400, condition: 'event type does not match ^[a-z_]+\\.v[0-9]+$' },
  ERR_EVENT_SOURCE_EXISTS: { status: 409, condition: 'POST of a source type the subscription already has' },
  ERR_EVENT_TYPE_DUPLICATE: { status: 400, condition: 'the same type twice in an event subscription\'s sources' },

  // --- edges
  ERR_HOSTPORT_INVALID: { status: 400, condition: 'a hostport is not host:port with a valid host and port 1-65535' },
  ERR_HOSTPORT_DUPLICATE: { status: 400, condition: 'the same hostport twice in one list' },
  ERR_HOSTPORT_IN_USE: { status: 400, condition: 'a hostport already served by another edge, in any account (named in msg when it is in the caller\'s own account)' },
  ERR_TERMINATE_AT_INVALID: { status: 400, condition: 'terminate_at is not edge or upstream' },
  ERR_TERMINATE_AT_NOT_ALLOWED: { status: 400, condition: 'terminate_at sent for an HTTPS edge (always edge)' },
  ERR_MIN_VERSION_INVALID: { status: 400, condition: 'min_version is not 1.0, 1.1, 1.2 or 1.3' },
  ERR_MIN_VERSION_WITH_UPSTREAM: { status: 400, condition: 'min_version set while terminate_at is upstream' },
  ERR_MODULE_NOT_ALLOWED_UPSTREAM: { status: 400, condition: 'a module other than backend/ip_restriction with upstream termination' },
  ERR_IP_POLICY_IDS_EMPTY: { status: 400, condition: 'ip_restriction.ip_policy_ids is empty' },
  ERR_CA_IDS_EMPTY: { status: 400, condition: 'mutual_tls.certificate_authority_ids is empty' },
  ERR_POLICY_INVALID: { status: 400, condition: 'a traffic policy rule or action is malformed' },
  ERR_TRAFFIC_POLICY_INVALID: { status: 400, condition: 'traffic_policy.value is not a JSON/YAML policy document of phase rules, or is over 64 KiB' },
  ERR_MATCH_TYPE_INVALID: { status: 400, condition: 'route match_type is not exact_path or path_prefix' },

  // --- certificates
  ERR_PEM_INVALID: { status: 400, condition: 'certificate_pem/ca_pem does not parse as a PEM certificate chain' },
  ERR_KEY_INVALID: { status: 400, condition: 'private_key_pem does not parse as a private key' },
  ERR_KEY_MISMATCH: { status: 400, condition: 'private key does not match the leaf certificate' },
  ERR_KEY_TYPE_UNSUPPORTED: { status: 400, condition: 'key type other than rsa, ecdsa or ed25519' },
  ERR_PEM_EMPTY: { status: 400, condition: 'certificate_pem/ca_pem holds no PEM block (empty chain)' },
  ERR_PEM_TRAILING_DATA: { status: 400, condition: 'certificate_pem/ca_pem has text outside its PEM blocks, or an unterminated block' },
  ERR_PEM_WRONG_TYPE: { status: 400, condition: 'a block of certificate_pem/ca_pem is not a CERTIFICATE (e.g. a private key)' },
  ERR_CERT_FIELD_UNREADABLE: { status: 400, condition: 'the leaf/first certificate has a name or extension the X.509 library cannot decode' },
  ERR_KEY_ENCRYPTED: { status: 400, condition: 'private_key_pem is encrypted (ENCRYPTED PRIVATE KEY or Proc-Type header)' },

  // --- the service itself
  ERR_STORE_BUSY: { status: 503, condition: 'the database is locked by another writer (a lock wait timed out, a serialization failure or a deadlock); nothing was written; retry (Retry-After set)' },
  ERR_STORE_UNAVAILABLE: { status: 503, condition: 'the database cannot be reached; nothing was written; retry (Retry-After set)' },
  ERR_INTERNAL: { status: 500, condition: 'an unexpected server fault (a bug); logged' },

  // --- injected faults (off unless the service runs with `faults` / `serve --faults`); nothing was changed
  ERR_FAULT_INTERNAL: { status: 500, condition: 'injected fault: a 500 answered before the request was handled' },
  ERR_FAULT_BAD_GATEWAY: { status: 502, condition: 'injected fault: a 502 answered before the request was handled' },
  ERR_FAULT_UNAVAILABLE: { status: 503, condition: 'injected fault: a 503 answered before the request was handled' },
  ERR_FAULT_GATEWAY_TIMEOUT: { status: 504, condition: 'injected fault: a 504 answered before the request was handled' },
} as const satisfies Record<string, { status: number; condition: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** Every code a contract value rule answers is one of the service's: this fails to compile otherwise. */
type RuleCodesAreServiceCodes = [RuleCode] extends [ErrorCode] ? true : never;
const RULE_CODES_ARE_SERVICE_CODES: RuleCodesAreServiceCodes = true;

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. Allow on 405 and Retry-After on 429. */
  readonly headers: Record<string, string>;
  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.headers = headers;
  }
}

/** The 400 for a broken contract rule: its code, its message after the field's path (`path`, else the problem's field). */
export function ruleViolation(problem: RuleProblem, path: string | undefined = problem.field): ServiceError {
  return new ServiceError(problem.code, path ? `${path}: ${problem.message}` : problem.message);
}
