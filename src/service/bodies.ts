// Every request body is checked against its schema in the contract (src/contract): a create or PATCH body
// against its kind's, a module PUT against the module's, then the rules across fields the contract declares.
// What comes back is the body without its null fields (null means "absent" in this API), in the sent shape;
// resource files only fill defaults and store it. Problems become ServiceErrors with the contract's codes.
// The checker (ajv and its compiler, ~100 ms to load) is imported by the first request with a body rather than
// by every start: app.ts awaits bodyCheckerReady() before it runs such a request's handler.
import { documentProblem, type BodySchema, type ContractCode, type ContractKind, type ModuleContract } from '../contract/index.ts';
import { ERROR_CATALOG, ServiceError } from './errors.ts';
import { isPlainObject, type JsonObject } from './json-values.ts';

let checker: typeof import('../contract/body-check.ts') | undefined;
let loading: Promise<void> | undefined;

export function bodyCheckerReady(): Promise<void> {
  return (loading ??= import('../contract/body-check.ts').then((m) => {
    checker = m;
  }));
}

// Compile-time proof that the service answers every code the contract names.
const CONTRACT_CODES: Record<ContractCode, unknown> = ERROR_CATALOG;
void CONTRACT_CODES;

/** `body` checked against `schema`; `path` names it in messages ('' for a request body). */
export function checkBody(schema: BodySchema, body: unknown, path = ''): JsonObject {
  const value = loaded().withoutNulls(body, schema);
  refuse(loaded().bodyProblem(schema, value, path));
  return value as JsonObject;
}

function refuse(problem: { code: ContractCode; message: string } | undefined): void {
  if (problem) throw new ServiceError(problem.code, problem.message);
}

function loaded(): typeof import('../contract/body-check.ts') {
  if (!checker) throw new Error('a body checked before bodyCheckerReady()');
  return checker;
}

/** A module body (a PUT, or a field of a create/PATCH), with the module's own cross-field rules. */
export function checkModule(module: ModuleContract, body: unknown, path = module.name): JsonObject {
  const value = loaded().withoutNulls(body, module.schema);
  refuse(loaded().moduleProblem(module, value, path));
  return value as JsonObject;
}

/** A POST body of `kind`. */
export function checkCreate(kind: ContractKind, body: JsonObject): JsonObject {
  return checkWithModules(kind, kind.create, body);
}

/** A PATCH body of `kind` (its echoed ids already removed): create-only fields are refused first. */
export function checkUpdate(kind: ContractKind, body: JsonObject): JsonObject {
  if (isPlainObject(body)) {
    for (const key of kind.immutable) {
      if (Object.hasOwn(body, key)) throw new ServiceError('ERR_FIELD_NOT_UPDATABLE', `${key}: cannot be changed after creation`);
    }
  }
  return checkWithModules(kind, kind.update, body);
}

function checkWithModules(kind: ContractKind, schema: BodySchema, body: JsonObject): JsonObject {
  const value = loaded().withoutNulls(body, schema);
  refuse(loaded().requestProblem(schema, kind.modules, value));
  return value as JsonObject;
}

/** The kind's rules across the fields of a whole document, on every write. */
export function checkDocument(kind: ContractKind, data: unknown): void {
  refuse(documentProblem(kind, data));
}
