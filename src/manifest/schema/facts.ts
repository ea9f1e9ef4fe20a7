// What the manifest stages read off a kind's schema besides validating with it: where its secrets, its
// unsettable fields, its header names and its traffic policies are. Read from the schemas (kinds.ts) in the
// sources; the build (scripts/build.ts) writes every kind's facts out, so the built CLI never builds a schema.
import { childPointer } from '../../contract/field-path.ts';
import { kindSchemas, nodeAt } from './kinds.ts';
import { HEADER_NAME_PATTERN, SECRET_REF, type Schema } from './parts.ts';

interface SchemaFacts {
  /** Pointers of the fields that take `{file}`/`{env}` secrets (`*` = each item of a list). */
  secretPointers: string[];
  /** Pointers of the fields that may be null for "unset" (parts.ts `unsettable`): the resolver drops them. */
  unsetPointers: string[];
  /** Pointers of header-name maps (their keys) and lists (their items): names that ignore case. */
  headerPointers: string[];
  /** Traffic policy fields (a document, or its text: checked once resolved), by pointer: the phases they take. */
  policyPhases: [string, string[]][];
}

/** Walks `properties` and `items` for fields declared with the secret definition. */
function findSecrets(schema: Schema, pointer = ''): string[] {
  // Also a field that is a secret unless it is a literal mapping (traffic_policy.value: `else` a secret).
  if (schema.$ref === SECRET_REF || (schema.else as Schema | undefined)?.$ref === SECRET_REF) return [pointer];
  const found: string[] = [];
  const props = schema.properties as Record<string, Schema> | undefined;
  for (const [key, sub] of Object.entries(props ?? {})) found.push(...findSecrets(sub, childPointer(pointer, key)));
  if (schema.items && typeof schema.items === 'object') found.push(...findSecrets(schema.items as Schema, `${pointer}/*`));
  return found;
}

/** Walks `properties` and `items` for the nodes `match` picks. */
function findNodes(schema: Schema, match: (node: Schema) => boolean, pointer = ''): string[] {
  const found = match(schema) && pointer !== '' ? [pointer] : [];
  const props = schema.properties as Record<string, Schema> | undefined;
  for (const [key, sub] of Object.entries(props ?? {})) found.push(...findNodes(sub, match, childPointer(pointer, key)));
  if (schema.items && typeof schema.items === 'object') found.push(...findNodes(schema.items as Schema, match, `${pointer}/*`));
  return found;
}

/** A policy field: a document mapping (`then`, its phases as properties) or else a secret-capable text. */
const policyDocument = (node: Schema): Schema | undefined =>
  (node.else as Schema | undefined)?.$ref === SECRET_REF ? (node.then as Schema | undefined) : undefined;
const policyPhases = (schema: Schema): [string, string[]][] =>
  findNodes(schema, (node) => policyDocument(node)?.properties !== undefined)
    .map((pointer) => [pointer, Object.keys(policyDocument(nodeAt(schema, pointer)!)!.properties as Schema)]);

const takesNull = (node: Schema): boolean => Array.isArray(node.type) && node.type.includes('null');
const namesHeaders = (node: Schema): boolean =>
  (node.propertyNames as Schema | undefined)?.pattern === HEADER_NAME_PATTERN || (node.items as Schema | undefined)?.pattern === HEADER_NAME_PATTERN;

/** The facts of one schema. */
export function schemaFacts(schema: Schema): SchemaFacts {
  return {
    secretPointers: findSecrets(schema),
    unsetPointers: findNodes(schema, takesNull),
    headerPointers: findNodes(schema, namesHeaders),
    policyPhases: policyPhases(schema),
  };
}

let facts: Map<string, SchemaFacts> | undefined;

/** The facts of `kind`'s schema; undefined for a kind with none. */
export function kindFacts(kind: string): SchemaFacts | undefined {
  facts ??= new Map([...kindSchemas()].map(([name, schema]) => [name, schemaFacts(schema)]));
  return facts.get(kind);
}
