// The edgeops.yaml keys of environments: a stack's `environment`, `base`, `vars` and `api_key_env`, and a base's
// `role: base` with its declared variables. Kept beside project.ts so the two can change apart.
import { VAR_NAME_PATTERN, VAR_TYPES } from '../environment/var-types.ts';
import { ENV_VAR_PATTERN, NAME_PATTERN, type Schema } from './parts.ts';

const declaration: Schema = {
  type: 'object',
  description: 'A variable the documents of this base use as {var: NAME} or ${NAME} in a {template}.',
  required: ['type'],
  properties: {
    type: {
      enum: [...VAR_TYPES],
      description: 'string, integer, boolean, cidr (an IP address or range), hostport (host:port), list or map. A value of another type fails at the line that sets it.',
      errorMessage: { enum: `must be one of ${VAR_TYPES.join(', ')}` },
    },
    default: { description: 'The value a stack that does not set this variable gets. Without one, every stack must set it.' },
    description: { type: 'string', description: 'What the variable is for (shown on hover).' },
  },
  additionalProperties: false,
};

/** The properties environments add to edgeops.yaml. */
export function environmentProperties(): Record<string, Schema> {
  return {
    environment: {
      type: 'string',
      pattern: NAME_PATTERN,
      description: 'A label for this stack\'s environment (prod, staging), shown in every plan header: `stack edge-prod (environment prod) at URL`.',
      errorMessage: { pattern: 'must be lower-case letters, digits and "-", at most 64 characters' },
    },
    role: {
      const: 'base',
      description: '`base`: this directory holds documents shared by the stacks that list it under `base:`; it is not a stack, and plan, apply, drift and list refuse it. A base declares its variables under `vars:`.',
      errorMessage: { const: 'must be base (leave it out for a stack)' },
    },
    base: {
      type: 'array',
      description: 'Directories of shared documents (relative to this file), read in order before this stack\'s own documents. Each has an edgeops.yaml saying `role: base`. A document defined in a base is changed here with a `kind: Patch` document, never defined again.',
      items: { type: 'string', minLength: 1 },
      uniqueItems: true,
    },
    vars: {
      type: 'object',
      description: 'In a stack: the values of the variables its bases declare ({NAME: VALUE}). In a base (role: base): the declarations ({NAME: {type, default}}).',
      propertyNames: { pattern: VAR_NAME_PATTERN, errorMessage: 'must be a variable name: letters, digits and "_", not starting with a digit' },
    },
    api_key_env: {
      type: 'string',
      pattern: ENV_VAR_PATTERN,
      description: 'The one environment variable this stack\'s API key is read from, instead of EDGEOPS_API_KEY, so that another environment\'s key is never picked up. --api-key still wins.',
      errorMessage: { pattern: 'must be an environment variable name' },
    },
  };
}

/** A base's vars are declarations; a stack's are values (any JSON, checked against the declarations). */
export function environmentRules(): Schema {
  return {
    if: { type: 'object', properties: { role: { const: 'base' } }, required: ['role'] },
    then: {
      properties: {
        vars: { type: 'object', additionalProperties: declaration },
        ...Object.fromEntries(['stack', 'api_url', 'base', 'api_key_env', 'environment'].map((key) => [key, { not: {}, errorMessage: 'does not belong in a base (role: base): set it in the stacks that use the base' }])),
      },
    },
  };
}
