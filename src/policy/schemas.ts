// JSON Schemas of the policy documents (Policy, PolicyException, PolicyTest): the loader validates with them and
// `npm run schemas` publishes them for editors. They are no resource kinds: nothing here reaches the service.
import { NAME_PATTERN, type Schema } from '../manifest/schema/parts.ts';

export const POLICY_KINDS = ['Policy', 'PolicyException', 'PolicyTest'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export const isPolicyKind = (kind: string): kind is PolicyKind => (POLICY_KINDS as readonly string[]).includes(kind);

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const dateField = (description: string): Schema => ({
  type: 'string',
  pattern: DATE,
  description,
  errorMessage: { pattern: 'must be a date (YYYY-MM-DD)', type: 'must be a date (YYYY-MM-DD)' },
});
const name: Schema = { type: 'string', pattern: NAME_PATTERN, description: 'Unique among the policy documents of its kind.' };
const expression: Schema = { type: 'string', minLength: 1, description: 'A CEL expression.' };
const strings = (description: string): Schema => ({ type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true, description });
const OPERATIONS = ['create', 'update', 'delete', 'none'];

const header = (kind: string, title: string, description: string): Schema => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  title,
  description,
  type: 'object',
  required: ['kind', 'name'],
  additionalProperties: false,
  properties: { kind: { const: kind, description: `Always ${kind}.` }, name },
});

function policySchema(): Schema {
  const base = header('Policy', 'edgeops Policy', 'A guardrail: CEL validations over the documents a plan changes, and over live state in drift.');
  return {
    ...base,
    required: ['kind', 'name', 'severity', 'validations'],
    properties: {
      ...(base.properties as Schema),
      description: { type: 'string', description: 'What the policy asks for, in a sentence.' },
      severity: { enum: ['deny', 'warn', 'info'], description: 'deny blocks plan and apply; warn shows and annotates; info appears in JSON and drift reports only.', errorMessage: 'must be deny, warn or info' },
      enforce_from: dateField('A deny policy only warns before this date (the message says from when it denies).'),
      exceptions: { enum: ['owners', 'none'], description: 'owners (default): PolicyException documents approved by an owner are honoured; none: never.', errorMessage: 'must be owners or none' },
      owners: strings('GitHub users or teams (@org/team) who may approve an exception in the Action.'),
      match: {
        type: 'object',
        additionalProperties: false,
        description: 'Which documents the policy looks at.',
        properties: {
          kinds: strings('Resource kinds; every kind when left out.'),
          operations: { type: 'array', items: { enum: OPERATIONS, errorMessage: 'must be create, update, delete or none' }, uniqueItems: true, description: 'Default [create, update]; none: also documents the plan leaves as they are, which can then be denied.' },
          environments: strings('Environments (edgeops.yaml `environment`); a trailing * matches any suffix.'),
          stacks: strings('Stacks; a trailing * matches any suffix.'),
        },
      },
      variables: {
        type: 'array',
        description: 'Named CEL values, usable by later variables and by the validations.',
        items: { type: 'object', required: ['name', 'expression'], additionalProperties: false, properties: { name: { type: 'string', pattern: '^[a-z_][a-zA-Z0-9_]*$' }, expression } },
      },
      validations: {
        type: 'array',
        minItems: 1,
        description: 'Each expression must be true; a false one is a violation with its message.',
        items: {
          type: 'object',
          required: ['expression'],
          additionalProperties: false,
          properties: {
            expression,
            message: { type: 'string', description: 'What a violation says.' },
            message_expression: { type: 'string', description: 'A CEL expression giving the message (a string).' },
            field: { type: 'string', description: 'The field a violation points at (`tls_termination.min_version`); found from the expression when left out.' },
          },
        },
      },
    },
  };
}

function exceptionSchema(): Schema {
  const base = header('PolicyException', 'edgeops PolicyException', 'A reviewed exception to one policy for named documents, until a date.');
  return {
    ...base,
    required: ['kind', 'name', 'policy', 'targets', 'reason', 'expires'],
    properties: {
      ...(base.properties as Schema),
      policy: { type: 'string', minLength: 1, description: 'The name of the policy it is an exception to.' },
      targets: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: '^[A-Za-z]+/[a-z0-9-]+$', errorMessage: 'must be Kind/name (no wildcards)' }, description: 'Exact Kind/name of each document it covers.' },
      reason: { type: 'string', minLength: 1, description: 'Why, for the reviewer (a ticket, a partner).' },
      expires: dateField('Required: the exception is warned about 14 days ahead and no longer honoured from this date.'),
    },
  };
}

function testSchema(): Schema {
  const base = header('PolicyTest', 'edgeops PolicyTest', 'Cases a policy must decide as expected (`edgeops policy test`).');
  return {
    ...base,
    required: ['kind', 'name', 'policy', 'cases'],
    properties: {
      ...(base.properties as Schema),
      policy: { type: 'string', minLength: 1, description: 'The policy under test.' },
      cases: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['object', 'expect'],
          additionalProperties: false,
          properties: {
            name: { type: 'string' },
            kind: { type: 'string', description: 'The kind of the object; the policy\'s first kind when left out.' },
            object: { type: ['object', 'null'] },
            oldObject: { type: ['object', 'null'] },
            operation: { enum: OPERATIONS },
            environment: { type: 'string' },
            stack: { type: 'string' },
            now: { type: 'string', description: 'The time the case runs at (RFC 3339); the real time when left out.' },
            expect: { enum: ['pass', 'deny', 'warn', 'info'], errorMessage: 'must be pass, deny, warn or info' },
          },
        },
      },
    },
  };
}

/** Each policy document kind's schema. */
export function policySchemas(): Map<PolicyKind, Schema> {
  return new Map<PolicyKind, Schema>([['Policy', policySchema()], ['PolicyException', exceptionSchema()], ['PolicyTest', testSchema()]]);
}
