// The modules of edges and routes, each the body of its own PUT endpoint and a field of the edge/route create
// and PATCH bodies. `enabled` is true when left out. The traffic `policy` module accepts a single rule or
// action where the public API's client sends a list of one (the spec's table shows single objects).
import { BACKEND_KINDS, type ModuleContract } from '../kind.ts';
import { enabled, id, object, oneOrMany, type BodySchema } from '../schema.ts';
import { TRAFFIC_POLICY_MAX_BYTES } from '../traffic-policy.ts';

const TLS_VERSIONS = ['1.0', '1.1', '1.2', '1.3'] as const;

/** A non-empty list of distinct ids; `empty` is the code for []. */
function idList(empty: 'ERR_IP_POLICY_IDS_EMPTY' | 'ERR_CA_IDS_EMPTY', what: string): BodySchema {
  return {
    type: 'array', items: id, minItems: 1, errorCode: empty,
    distinct: { by: 'exact', code: 'ERR_FIELD_INVALID' }, description: `${what}; at least one, each once.`,
  };
}

export const backendModule: ModuleContract = {
  name: 'backend',
  schema: object({ enabled, backend_id: id }, ['backend_id'], {
    description: 'Where the traffic goes: a backend (tunnel group, HTTP response, ...) by name or id.',
  }),
  refs: [{ field: 'backend_id', kinds: BACKEND_KINDS }],
};

export const ipRestrictionModule: ModuleContract = {
  name: 'ip_restriction',
  schema: object({ enabled, ip_policy_ids: idList('ERR_IP_POLICY_IDS_EMPTY', 'IP policies') }, ['ip_policy_ids'], {
    description: 'Accept or refuse connections by source address, as the rules of these IP policies allow or deny.',
  }),
  refs: [{ field: 'ip_policy_ids[]', kinds: ['ip_policy'] }],
};

export const mutualTlsModule: ModuleContract = {
  name: 'mutual_tls',
  schema: object({ enabled, certificate_authority_ids: idList('ERR_CA_IDS_EMPTY', 'Certificate authorities') }, ['certificate_authority_ids'], {
    description: 'Mutual TLS: clients must present a certificate signed by one of these certificate authorities.',
  }),
  refs: [{ field: 'certificate_authority_ids[]', kinds: ['certificate_authority'] }],
};

const minVersion: BodySchema = {
  type: 'string', enum: TLS_VERSIONS, errorCode: 'ERR_MIN_VERSION_INVALID',
  description: 'The lowest TLS version accepted; the service default when left out.',
};

/** TLS edges: terminate at the edge or pass TLS through to the upstream (then min_version must stay unset). */
export const tlsTerminationModule: ModuleContract = {
  name: 'tls_termination',
  schema: object({
    enabled,
    terminate_at: { type: 'string', enum: ['edge', 'upstream'], errorCode: 'ERR_TERMINATE_AT_INVALID' },
    min_version: minVersion,
  }, ['terminate_at'], {
    description: 'Where TLS ends: at the edge (which then sees the traffic) or at the upstream (passed through); '
      + 'and the lowest TLS version accepted.',
  }),
  refs: [],
  check: (m) => (m.terminate_at === 'upstream' && m.min_version !== undefined && m.min_version !== null
    ? { field: 'min_version', code: 'ERR_MIN_VERSION_WITH_UPSTREAM', message: 'must be null when terminate_at is upstream' }
    : undefined),
};

/** HTTPS edges always terminate TLS at the edge: terminate_at is not taken (and is returned as "edge"). */
export const httpsTlsTerminationModule: ModuleContract = {
  name: 'tls_termination',
  schema: object({
    enabled,
    min_version: minVersion,
    terminate_at: {
      refused: 'HTTPS edges always terminate TLS at the edge; leave it out', errorCode: 'ERR_TERMINATE_AT_NOT_ALLOWED',
    },
  }, [], { description: 'TLS termination at the edge (always there for HTTPS): the lowest TLS version accepted.' }),
  refs: [],
};

const policyAction = object({
  type: { type: 'string', minLength: 1, maxBytes: 255 },
  config: { type: 'object', rule: 'policy_config', description: 'Free-form action configuration (at most 32 levels deep).' },
}, ['type']);

const policyRule = object({
  name: { type: 'string', maxBytes: 255 },
  expressions: { type: 'array', items: { type: 'string', minLength: 1, maxBytes: 4096 } },
  actions: oneOrMany(policyAction, { minItems: 1, errorCode: 'ERR_POLICY_INVALID' }),
}, ['expressions', 'actions']);

export const policyModule: ModuleContract = {
  name: 'policy',
  schema: object({ enabled, inbound: oneOrMany(policyRule), outbound: oneOrMany(policyRule) }, [], {
    description: 'Rules for inbound and outbound traffic: each selects traffic by CEL expressions and runs its actions (deny, log, ...).',
  }),
  refs: [],
};

/** `{enabled, value}` where value is a policy document as JSON or YAML text (see traffic-policy.ts). */
function trafficPolicyModule(rule: 'traffic_policy_tcp' | 'traffic_policy_http'): ModuleContract {
  return {
    name: 'traffic_policy',
    schema: object({
      enabled,
      value: {
        type: 'string', minLength: 1, maxBytes: TRAFFIC_POLICY_MAX_BYTES, errorCode: 'ERR_TRAFFIC_POLICY_INVALID', rule,
        description: 'A traffic policy document, JSON or YAML text, at most 64 KiB.',
      },
    }, ['value'], { description: 'Traffic policy: a document of phases, each a list of rules with expressions and actions.' }),
    refs: [],
  };
}

/** TCP and TLS edges: on_tcp_connect only. */
export const tcpTrafficPolicyModule = trafficPolicyModule('traffic_policy_tcp');
/** HTTPS edge routes: on_tcp_connect and the HTTP phases. */
export const httpTrafficPolicyModule = trafficPolicyModule('traffic_policy_http');

/** Header names are HTTP tokens; `add` names are stored lower-cased; names in either list unique ignoring case. */
export const responseHeadersModule: ModuleContract = {
  name: 'response_headers',
  schema: object({
    enabled,
    add: { type: 'object', additionalProperties: { type: 'string', rule: 'header_value' }, mapKeys: 'header_name' },
    remove: { type: 'array', items: { type: 'string', rule: 'header_name' }, distinct: { by: 'casefold', code: 'ERR_HEADER_DUPLICATE' } },
  }, [], { description: 'Response headers: added (add, name -> value) or removed (remove, names) before the response leaves the edge.' }),
  refs: [],
};
