// The JSON Schema dialect of the contract's request bodies: draft 2020-12 keywords (type, properties, required,
// additionalProperties, items, enum, minimum/maximum, minLength, minItems, maxItems) plus the few value rules a
// JSON Schema cannot say, as custom keywords checked by the contract's own functions (keywords.ts):
// - maxBytes: a string's UTF-8 length limit (the service counts bytes, not characters);
// - rule: a named value rule (CIDR, hostport, traffic policy text, header value, ...), see RULE_NAMES;
// - distinct: list items that must differ, compared exactly, ignoring case, as hostports, or by one property;
// - mapKeys: the keys of a string map: non-empty, or HTTP header names unique ignoring case;
// - refused: a field the endpoint names but never takes (HTTPS edges' terminate_at);
// - errorCode: the error code of this value's range/enum/length violations (type errors are ERR_FIELD_TYPE).
// A JSON null stands for an absent field in every fixed-shape object (see withoutNulls in body-check.ts).
// A field that takes "one object or a list of them" is typed ['array', 'object'] with both `items` and the
// object keywords, so each form is checked with its errors at the right path.

import type { RuleCode } from './rule-error.ts';

const RULE_NAMES = [
  'cidr', 'hostport', 'header_name', 'header_value', 'event_type', 'url_path', 'policy_config', 'traffic_policy_tcp', 'traffic_policy_http',
] as const;
export type RuleName = (typeof RULE_NAMES)[number];

export interface Distinct {
  /** exact: ===; casefold: ignoring ASCII case; hostport: by hostportKey (case and IPv6 spelling). */
  by: 'exact' | 'casefold' | 'hostport';
  /** Items are objects compared by this property. */
  property?: string;
  code: ContractCode;
}

/** The error codes the contract's schemas and rules name; the service's catalog holds every one of them. */
export type ContractCode =
  | RuleCode
  | 'ERR_UNKNOWN_FIELD' | 'ERR_FIELD_TYPE' | 'ERR_FIELD_REQUIRED' | 'ERR_FIELD_INVALID' | 'ERR_FIELD_NOT_UPDATABLE'
  | 'ERR_DESCRIPTION_TOO_LONG' | 'ERR_METADATA_TOO_LONG' | 'ERR_MAP_KEY_INVALID'
  | 'ERR_CIDR_INVALID' | 'ERR_CIDR_HOST_BITS_SET' | 'ERR_ACTION_INVALID' | 'ERR_STATUS_CODE_INVALID'
  | 'ERR_HEADER_NAME_INVALID' | 'ERR_HEADER_VALUE_INVALID' | 'ERR_HEADER_DUPLICATE'
  | 'ERR_EVENT_TYPE_INVALID' | 'ERR_EVENT_TYPE_DUPLICATE'
  | 'ERR_HOSTPORT_INVALID' | 'ERR_HOSTPORT_DUPLICATE' | 'ERR_TERMINATE_AT_INVALID' | 'ERR_TERMINATE_AT_NOT_ALLOWED'
  | 'ERR_MIN_VERSION_INVALID' | 'ERR_MIN_VERSION_WITH_UPSTREAM' | 'ERR_MODULE_NOT_ALLOWED_UPSTREAM'
  | 'ERR_IP_POLICY_IDS_EMPTY' | 'ERR_CA_IDS_EMPTY' | 'ERR_POLICY_INVALID' | 'ERR_TRAFFIC_POLICY_INVALID'
  | 'ERR_MATCH_TYPE_INVALID';

/** A problem with one value: a code and a message (the field's path is added by whoever reports it). */
export interface ValueProblem {
  code: ContractCode;
  message: string;
}

/**
 * A problem found in a body, as data: `pointer` is the value it is about (a JSON pointer into the checked body;
 * for a missing field, the object that lacks it; for an unknown field, that field) and `reason` says what is
 * wrong with it, without its path. `message` is the whole line the service answers (`path: reason`, in the
 * notation of field-path.ts). Whoever reports the problem elsewhere finds its position from `pointer`, never
 * from the words of `message`.
 */
export interface LocatedProblem extends ValueProblem {
  pointer: string;
  reason: string;
}

export interface BodySchema {
  type?: 'string' | 'integer' | 'boolean' | 'object' | 'array' | ('array' | 'object')[];
  description?: string;
  properties?: Record<string, BodySchema>;
  required?: string[];
  additionalProperties?: boolean | BodySchema;
  items?: BodySchema;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  maxItems?: number;
  maxBytes?: number;
  rule?: RuleName;
  distinct?: Distinct;
  mapKeys?: 'nonempty' | 'header_name';
  refused?: string;
  errorCode?: ContractCode;
}

export const DESCRIPTION_MAX_BYTES = 255;
export const METADATA_MAX_BYTES = 4096;

export const description: BodySchema = {
  type: 'string', maxBytes: DESCRIPTION_MAX_BYTES, errorCode: 'ERR_DESCRIPTION_TOO_LONG',
  description: 'Free text, at most 255 bytes.',
};
export const metadata: BodySchema = {
  type: 'string', maxBytes: METADATA_MAX_BYTES, errorCode: 'ERR_METADATA_TOO_LONG',
  description: 'Arbitrary user data (often JSON), at most 4096 bytes.',
};
export const enabled: BodySchema = { type: 'boolean', description: 'Whether the module is active; true when left out.' };

/** An id of another resource (which kinds it may name is the kind's `refs`). */
export const id: BodySchema = { type: 'string', minLength: 1 };

/** A fixed-shape object: unknown fields refused. */
export function object(properties: Record<string, BodySchema>, required: string[] = [], extra: Partial<BodySchema> = {}): BodySchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

/** One object or a list of them, stored as a list. */
export function oneOrMany(item: BodySchema, extra: Partial<BodySchema> = {}): BodySchema {
  return { ...item, type: ['array', 'object'], items: item, ...extra };
}

/** Every field optional: a PATCH body of the same fields. */
export function optional(schema: BodySchema, without: readonly string[] = []): BodySchema {
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => !without.includes(k)));
  return { ...schema, properties, required: [] };
}
