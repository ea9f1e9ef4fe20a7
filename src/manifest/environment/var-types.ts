// The types a base declares its variables with, and whether a value has one. A variable is typed so that a
// wrong value fails at the line where it is set, not later inside whatever document happens to use it; cidr and
// hostport use the service's own rules (contract/values.ts), so a value that passes here is one it accepts.
import { isObj } from '../../contract/json.ts';
import { cidrProblem, hostportProblem } from '../../contract/values.ts';
import type { SourcePos } from '../../errors.ts';
import type { Json } from '../../kinds/resource-kind.ts';

export const VAR_TYPES = ['string', 'integer', 'boolean', 'cidr', 'hostport', 'list', 'map'] as const;
export type VarType = (typeof VAR_TYPES)[number];

/** A variable's name: what `{var: NAME}` and `${NAME}` in a template refer to. */
export const VAR_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

/** One variable a base declares (`vars: {domain: {type: string}}` in its edgeops.yaml). */
export interface VarDeclaration {
  name: string;
  type: VarType;
  /** The default, when the declaration has one. */
  default?: Json;
  /** Where it is declared: its key in the base's edgeops.yaml. */
  pos: SourcePos;
  /** Where the default is written, and its values' positions by pointer below it. */
  defaultPos?: SourcePos;
  defaultPositions?: Map<string, SourcePos>;
}

const shown = (value: Json): string => {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** Why `value` is not of `type`, or undefined when it is. */
export function typeProblem(value: Json, type: VarType): string | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? undefined : `must be a string, got ${shown(value)}`;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? undefined : `must be an integer, got ${shown(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false, got ${shown(value)}`;
    case 'cidr':
      if (typeof value !== 'string') return `must be a cidr (an IP address or range as a string), got ${shown(value)}`;
      return cidrProblem(value)?.message;
    case 'hostport':
      if (typeof value !== 'string') return `must be a hostport (host:port as a string), got ${shown(value)}`;
      return hostportProblem(value)?.message;
    case 'list':
      return Array.isArray(value) ? undefined : `must be a list, got ${shown(value)}`;
    case 'map':
      return isObj(value) ? undefined : `must be a map, got ${shown(value)}`;
  }
}

/** The types a template can write into a string: scalars, never a list or a map. */
export const TEMPLATE_TYPES: readonly VarType[] = ['string', 'integer', 'boolean', 'cidr', 'hostport'];
