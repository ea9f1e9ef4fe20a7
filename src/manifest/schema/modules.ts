// The parts of the edge and route module schemas where a manifest writes something other than the request body
// the contract declares (contract.ts makes the rest): the traffic policy as a document, and the modules a
// TLS edge that passes TLS through may not set, said in the schema so an editor shows it too.
import { NOT_NULL, object, SECRET_REF, unsettable, type Schema } from './parts.ts';

const policyAction: Schema = object(
  {
    type: { type: 'string', minLength: 1, description: 'The action type, e.g. deny, log, custom-response.' },
    config: unsettable({ type: 'object', description: 'The action configuration for its type.' }),
  },
  ['type'],
);

const trafficPolicyRule: Schema = object(
  {
    name: { type: 'string', minLength: 1 },
    expressions: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'CEL expressions selecting the traffic.' },
    actions: { type: 'array', items: policyAction, minItems: 1, description: 'What is done, in order.' },
  },
  ['actions'],
);

/**
 * The `traffic_policy` module: the policy document as a mapping (edgeops sends it to the service as text), or its
 * text from a file or variable ({file: path} / {env: VARIABLE}, or an inline JSON/YAML string). `description` is
 * the contract's, as for every module.
 */
export function trafficPolicyModule(phases: readonly string[], description: string | undefined): Schema {
  const document = object(
    Object.fromEntries(phases.map((p) => [p, unsettable({ type: 'array', items: trafficPolicyRule, description: `Rules run ${p.replace(/_/g, ' ')}.` })])),
  );
  return unsettable({
    ...object({
      enabled: unsettable({ type: 'boolean', description: 'Apply the module to traffic (default true).' }),
      // A mapping other than {file}/{env} is the document itself; anything else is its text or where to read it.
      value: {
        description: `The policy document (${phases.join(', ')}): a mapping, or its JSON/YAML text, {file: path} or {env: VARIABLE}.`,
        if: { type: 'object', propertyNames: { not: { enum: ['file', 'env'] } } },
        then: document,
        else: { $ref: SECRET_REF },
      },
    }, ['value']),
    ...(description === undefined ? {} : { description }),
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
