// What the contract says about one resource kind of the API: its names and paths, the JSON Schema of every
// request body (create, PATCH, each module PUT), which fields are create-only, which fields hold ids of which
// kinds, and the rules across fields that a schema cannot say. The service serves a kind from this; the
// manifest side derives its document schemas from it.
import { childPointer, showPath } from './field-path.ts';
import type { BodySchema, ContractCode, LocatedProblem, ValueProblem } from './schema.ts';

/**
 * The kinds' names, as keys. Each file under kinds/ adds the names of the kinds it defines (declaration merging,
 * `declare module` of this file), so a kind's name is written once, beside its definition.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface KindNames {}

/** Every kind of document the service stores: types every reference to a kind. */
export type KindName = keyof KindNames & string;

/** The code of a 404 for an id of a kind: derived from its name, so a new kind brings its own. */
export type NotFoundCode = `ERR_${Uppercase<KindName>}_NOT_FOUND`;

export function notFoundCode(kind: KindName): NotFoundCode {
  return `ERR_${kind.toUpperCase()}_NOT_FOUND` as NotFoundCode;
}

/** The kinds a backend module may name. */
export const BACKEND_KINDS: readonly KindName[] = ['tunnel_group_backend', 'http_response_backend'];

/**
 * A field holding ids. `field` is a body path: 'ip_policy_id', 'backend.backend_id', and `[]` for every item of a
 * list: 'ip_restriction.ip_policy_ids[]'.
 */
export interface RefField {
  field: string;
  kinds: readonly KindName[];
}

/** A rule across the fields of a whole document (the merged result of a write); undefined when it holds. */
export type DocumentCheck = (doc: Readonly<Record<string, unknown>>) => (ValueProblem & { field: string }) | undefined;

/** A module of an edge or route: a body field of create/PATCH, and its own PUT/GET/DELETE endpoint. */
export interface ModuleContract {
  name: string;
  /** The module's body, as a create field and as its PUT body. */
  schema: BodySchema;
  /** Reference fields, relative to the module ('backend_id'). */
  refs: readonly RefField[];
  /** Rules across the module's own fields, run after its schema holds. */
  check?(module: Readonly<Record<string, unknown>>): (ValueProblem & { field: string }) | undefined;
}

/** An id-less sub-resource kept inside its parent's document (event subscription sources). */
export interface SubresourceContract {
  /** Collection path, its parent named as a param: '/event_subscriptions/:subscription_id/sources'. */
  path: string;
  create: BodySchema;
  update: BodySchema;
  /** Fields the official client repeats from the path in bodies; equal values are dropped, others refused. */
  echoedIds: readonly string[];
}

export interface ContractKind {
  kind: KindName;
  /** Id prefix without the underscore: 'ipp' gives ipp_<27 base62>. */
  prefix: string;
  /** Human name for messages: 'IP policy'. */
  label: string;
  /** Collection path; a child collection names its parent as a param: '/edges/https/:edge_id/routes'. */
  path: string;
  /** Array key of the list response ('ip_policies'); null when the kind has no list endpoint. */
  listKey: string | null;
  /** For a child collection: the parent's kind (its id is the one `:param` of `path`). */
  parent?: KindName;
  /** POST body. */
  create: BodySchema;
  /** PATCH body (its echoed `id` removed first). */
  update: BodySchema;
  /** Fields a create takes and a PATCH refuses with ERR_FIELD_NOT_UPDATABLE. */
  immutable: readonly string[];
  /** Modules, in response order; each also has its PUT endpoint at <item path>/<name>. */
  modules: readonly ModuleContract[];
  /** Every reference field of a create body, module fields included ('backend.backend_id'). */
  refs: readonly RefField[];
  /** Rules across fields of the whole document, run on every write after the schemas hold. */
  checks: readonly DocumentCheck[];
  /** Fields the official client repeats from the path in bodies; equal values are dropped, others refused. */
  echoedIds: readonly string[];
  subresources?: Readonly<Record<string, SubresourceContract>>;
}

/** The reference fields of modules, under their module's name. */
export function moduleRefs(modules: readonly ModuleContract[]): RefField[] {
  return modules.flatMap((m) => m.refs.map((r) => ({ field: `${m.name}.${r.field}`, kinds: r.kinds })));
}

/** The ids a document holds in `refs`, each with its concrete path ('ip_restriction.ip_policy_ids[1]'). */
export function referencedIds(refs: readonly RefField[], doc: unknown): { field: string; id: string; kinds: readonly KindName[] }[] {
  const out: { field: string; id: string; kinds: readonly KindName[] }[] = [];
  for (const ref of refs) {
    const walk = (value: unknown, steps: readonly string[], path: string): void => {
      if (value === null || value === undefined) return;
      if (steps.length === 0) {
        if (typeof value === 'string') out.push({ field: path, id: value, kinds: ref.kinds });
        return;
      }
      const [step, ...rest] = steps as [string, ...string[]];
      const list = step.endsWith('[]');
      const key = list ? step.slice(0, -2) : step;
      if (typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return;
      const next = (value as Record<string, unknown>)[key];
      const here = path ? `${path}.${key}` : key;
      if (!list) walk(next, rest, here);
      else if (Array.isArray(next)) next.forEach((item, i) => walk(item, rest, `${here}[${i}]`));
    };
    walk(doc, ref.field.split('.'), '');
  }
  return out;
}

/** The kind's rules across the fields of a whole document (as stored after a write, or as a create sends it). */
export function documentProblem(kind: ContractKind, data: unknown): LocatedProblem | undefined {
  for (const check of kind.checks) {
    const found = check(data as Record<string, unknown>);
    if (found) {
      const pointer = childPointer('', found.field);
      return { code: found.code, pointer, reason: found.message, message: `${showPath(pointer)}: ${found.message}` };
    }
  }
  return undefined;
}
