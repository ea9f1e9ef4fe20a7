// Schemas of the edge and route modules, in the shape the service's create request takes them.
import { enabled, NOT_NULL, object, ref, refList, SECRET_REF, unsettable, type Schema } from './schema-parts.ts';

export const MIN_VERSIONS = ['1.0', '1.1', '1.2', '1.3'];

// A module, and each optional field of one, may be null: unset, as the spec returns it (schema-parts `unsettable`).

export const backendModule: Schema = unsettable({
  ...object({ enabled, backend_id: ref }, ['backend_id']),
  description: 'Where the traffic goes: a tunnel group or HTTP response backend.',
});

export const ipRestrictionModule: Schema = unsettable({
  ...object({ enabled, ip_policy_ids: refList }, ['ip_policy_ids']),
  description: 'IP policies that decide which source addresses may connect.',
});

export const mutualTlsModule: Schema = unsettable({
  ...object({ enabled, certificate_authority_ids: refList }, ['certificate_authority_ids']),
  description: 'Certificate authorities that client certificates are checked against.',
});

const minVersion: Schema = unsettable({ type: 'string', enum: MIN_VERSIONS, description: 'Minimum TLS version (quote it: "1.2").' });

export const tlsTerminationModule: Schema = unsettable({
  ...object({
    enabled,
    terminate_at: unsettable({ type: 'string', enum: ['edge', 'upstream'], description: 'Where TLS ends (default edge).' }),
    min_version: minVersion,
  }),
  description: 'Where TLS is terminated, and the minimum version when at the edge.',
});

/** HTTPS edges always terminate at the edge: only the minimum version is chosen. */
export const httpsTlsTerminationModule: Schema = unsettable({
  ...object({ enabled, min_version: minVersion }),
  description: 'The minimum TLS version the edge accepts.',
});

const policyAction: Schema = object(
  {
    type: { type: 'string', minLength: 1, description: 'The action type, e.g. deny, log, custom-response.' },
    config: unsettable({ type: 'object', description: 'The action configuration for its type.' }),
  },
  ['type'],
);

const policyRule: Schema = object(
  {
    name: unsettable({ type: 'string' }),
    expressions: unsettable({ type: 'array', items: { type: 'string' }, description: 'CEL expressions selecting the traffic.' }),
    actions: { type: 'array', items: policyAction, minItems: 1 },
  },
  ['actions'],
);

export const policyModule: Schema = unsettable({
  ...object({
    enabled,
    inbound: unsettable({ type: 'array', items: policyRule, description: 'Rules for traffic coming in.' }),
    outbound: unsettable({ type: 'array', items: policyRule, description: 'Rules for traffic going out.' }),
  }),
  description: 'Traffic policy: inbound and outbound rules, each with expressions and actions.',
});

/** Phases of a traffic policy: TCP and TLS edges see connections only, routes also HTTP requests and responses. */
export { HTTP_PHASES, TCP_PHASES } from '../contract/traffic-policy.ts';

const trafficPolicyRule: Schema = object(
  {
    name: { type: 'string', minLength: 1 },
    expressions: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'CEL expressions selecting the traffic.' },
    actions: { type: 'array', items: policyAction, minItems: 1, description: 'What is done, in order.' },
  },
  ['actions'],
);

/**
 * The current `traffic_policy` module: the policy document as a mapping (edgeops sends it to the service as
 * text), or its text from a file or variable ({file: path} / {env: VARIABLE}, or an inline JSON/YAML string).
 */
export function trafficPolicyModule(phases: readonly string[]): Schema {
  const document = object(
    Object.fromEntries(phases.map((p) => [p, unsettable({ type: 'array', items: trafficPolicyRule, description: `Rules run ${p.replace(/_/g, ' ')}.` })])),
  );
  return unsettable({
    ...object({
      enabled,
      // A mapping other than {file}/{env} is the document itself; anything else is its text or where to read it.
      value: {
        description: `The policy document (${phases.join(', ')}): a mapping, or its JSON/YAML text, {file: path} or {env: VARIABLE}.`,
        if: { type: 'object', propertyNames: { not: { enum: ['file', 'env'] } } },
        then: document,
        else: { $ref: SECRET_REF },
      },
    }, ['value']),
    description: 'Traffic policy: a document of phases, each a list of rules with expressions and actions.',
  });
}

/** With TLS passed through to the upstream, the service refuses the modules that need the decrypted traffic. */
const notWithUpstream: Schema = { not: NOT_NULL, errorMessage: 'is not allowed when tls_termination.terminate_at is upstream' };

export const upstreamTermination: Schema = {
  if: {
    type: 'object',
    properties: {
      tls_termination: { type: 'object', properties: { terminate_at: { const: 'upstream' } }, required: ['terminate_at'] },
    },
    required: ['tls_termination'],
  },
  then: {
    properties: {
      mutual_tls: notWithUpstream,
      policy: notWithUpstream,
      traffic_policy: notWithUpstream,
      tls_termination: {
        type: 'object',
        properties: { min_version: { not: NOT_NULL, errorMessage: 'must be unset when terminate_at is upstream' } },
      },
    },
  },
};
