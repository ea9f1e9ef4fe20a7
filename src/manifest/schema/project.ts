// The project file's schema (edgeops.yaml) and the union of every kind's schema, for editors.
import { KINDS } from '../../kinds/index.ts';
import { environmentProperties, environmentRules } from './environment-keys.ts';
import { NAME_PATTERN, type Schema } from './parts.ts';
import { POLICY_KINDS } from '../../policy/schemas.ts';

export const PROJECT_FILE_NAMES = ['edgeops.yaml', 'edgeops.yml'];

export function projectSchema(): Schema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'edgeops project file (edgeops.yaml)',
    description: 'Defaults for the manifests under this directory. Flags and environment variables take precedence.',
    type: 'object',
    properties: {
      stack: {
        type: 'string',
        pattern: NAME_PATTERN,
        description: 'Ownership scope of these manifests (EDGEOPS_STACK, --stack; default "default").',
        errorMessage: { pattern: 'must be lower-case letters, digits and "-", at most 64 characters' },
      },
      api_url: {
        type: 'string',
        format: 'uri',
        description: 'Base URL of the service (EDGEOPS_API_URL, --api-url).',
      },
      concurrency: { type: 'integer', minimum: 1, maximum: 256, description: 'Actions run at once (default 10).' },
      max_deletes: {
        type: 'integer',
        minimum: 0,
        description: 'A plan deleting more resources than this is refused without --allow-deletes.',
      },
      max_deletes_per_kind: {
        type: 'object',
        description: 'Per-kind delete limits, e.g. {TCPEdge: 2}.',
        propertyNames: { enum: KINDS.map((k) => k.kind), errorMessage: 'is not a kind' },
        additionalProperties: { type: 'integer', minimum: 0 },
      },
      adopt: {
        type: 'boolean',
        description:
          'Plan and apply adopt live resources without an ownership marker that match a document by natural key, instead of creating copies (EDGEOPS_ADOPT, --adopt / --no-adopt; default false). `edgeops export --all` writes `adopt: true`.',
      },
      authoritative: {
        type: 'string',
        enum: ['none', 'children'],
        description:
          '`children`: the stack is authoritative for the parts of the resources it manages (the rules of its IP policies, the routes of its HTTPS edges), and apply deletes those without an ownership marker that no document names; another stack\'s are only reported. Default `none`: they are reported, never changed.',
        errorMessage: { enum: 'must be none or children' },
      },
      retry_budget: {
        type: 'integer',
        minimum: 0,
        maximum: 3600,
        description: 'Seconds to keep retrying while the service is unreachable, e.g. restarting (EDGEOPS_RETRY_BUDGET, --retry-budget; default 60; 0 fails fast).',
      },
      environment: {
        type: 'string',
        minLength: 1,
        description: 'A label for the environment this stack is (staging, prod): shown in plan headers, by `edgeops stacks` and in multi-stack reports; policies match it (`match.environments`, `environment` in expressions).',
      },
      after: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'Directories of other stack roots (relative to this file) that a multi-stack apply applies first: this stack applies only once they applied successfully in the same run.',
      },
      protect: {
        type: 'boolean',
        description: 'At a terminal, a multi-stack apply asks for the stack name to be typed, not `yes`, before applying this stack.',
      },
      retire: {
        type: 'boolean',
        description: 'Plan the destroy of every resource of this stack (delete limits apply), whatever documents are left.',
      },
      policies: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        uniqueItems: true,
        description:
          'Directories of Policy, PolicyException and PolicyTest documents (relative to this file), and built-in packs by name (`edgeops:baseline`). README "Policies".',
      },
      api_key: {
        not: {},
        errorMessage: 'does not belong in edgeops.yaml (keys stay out of git): set EDGEOPS_API_KEY or --api-key',
      },
      ...environmentProperties(),
    },
    ...environmentRules(),
    additionalProperties: false,
  };
}

/** One schema for any document: the kind picks the kind's schema (files next to this one). */
export function unionSchema(): Schema {
  // Policy documents may sit among the manifests too (README "Policies"): editors check them by their own schemas.
  const kinds = [...KINDS.map((k) => k.kind), ...POLICY_KINDS];
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'edgeops manifest document',
    description: 'One resource: kind, name, then the fields of that kind.',
    type: 'object',
    required: ['kind', 'name'],
    properties: { kind: { type: 'string', enum: kinds } },
    allOf: kinds.map((kind) => ({
      if: { type: 'object', properties: { kind: { const: kind } }, required: ['kind'] },
      then: { $ref: `${kind}.schema.json` },
    })),
  };
}
