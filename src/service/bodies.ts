// Every request body is checked against its schema in the contract (src/contract): a create or PATCH body
// against its kind's, a module PUT against the module's, then the rules across fields the contract declares.
// What comes back is the body without its null fields (null means "absent" in this API), in the sent shape;
// resource files only fill defaults and store it. Problems become ServiceErrors with the contract's codes.
// The checker (ajv and its compiler, ~100 ms to load) is imported by the first request with a body rather than
// by every start: app.ts awaits bodyCheckerReady() before it runs such a request's handler.
import type { BodySchema, ContractCode, ContractKind, ModuleContract } from '../contract/index.ts';
import { ERROR_CATALOG, ServiceError } from './errors.ts';
import { isPlainObject, type JsonObject } from './validate.ts';

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

/** `body` checked against `schema`; `path` names it in messages ('' for a request body, 'backend' for a module). */
export function checkBody(schema: BodySchema, body: unknown, path = ''): JsonObject {
  if (!checker) throw new Error('checkBody before bodyCheckerReady()');
  const value = checker.withoutNulls(body, schema);
  const problem = checker.bodyProblem(schema, value, path);
  if (problem) throw new ServiceError(problem.code, problem.message);
  return value as JsonObject;
}

/** A module body (a PUT, or a field of a create/PATCH), with the module's own cross-field rules. */
export function checkModule(module: ModuleContract, body: unknown, path = module.name): JsonObject {
  const value = checkBody(module.schema, body, path);
  moduleRules(module, value, path);
  return value;
}

function moduleRules(module: ModuleContract, value: JsonObject, path: string): void {
  const found = module.check?.(value);
  if (found) throw new ServiceError(found.code, `${path}.${found.field}: ${found.message}`);
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
  const value = checkBody(schema, body);
  for (const module of kind.modules) {
    const sent = value[module.name];
    if (isPlainObject(sent)) moduleRules(module, sent, module.name);
  }
  return value;
}

/** The kind's rules across the fields of a whole document, on every write. */
export function checkDocument(kind: ContractKind, data: unknown): void {
  for (const check of kind.checks) {
    const found = check(data as Record<string, unknown>);
    if (found) throw new ServiceError(found.code, `${found.field}: ${found.message}`);
  }
}
