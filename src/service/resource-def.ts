// The contract between the service core and each resource file. A resource file exports a ResourceModule:
// the kinds of document it stores (KindDef, declared in src/contract: bodies, references, Refs and 404s) and
// its routes. Plain CRUD comes from defineCollection() in collection.ts; module endpoints and sub-resources
// are extra RouteDefs whose handlers use the same helpers (loadDoc, saveDoc, ...). app.ts runs each handler in
// one store transaction of the caller's account (ctx.tx), so anything thrown rolls the whole request back.
import type { ContractKind, KindName } from '../contract/index.ts';
import { collectionPath } from '../contract/path.ts';
import type { ErrorCode } from './errors.ts';
import type { StoreTx, StoredDoc } from './store.ts';
import type { JsonObject } from './json-values.ts';

export type { KindName };

/**
 * A kind as the service serves it: the contract's declaration (names, paths, body schemas, references), so a
 * kind is described in one place (src/contract/kinds) and the service repeats none of it.
 */
export type KindDef = ContractKind;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Reply {
  status: number;
  /** Serialized as JSON; omitted for 204. */
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: Ctx) => Promise<Reply>;

export interface RouteDef {
  method: Method;
  /** Literal segments and `:param` segments, e.g. '/edges/tcp/:id/backend'. Literals win over params. */
  path: string;
  handler: Handler;
}

export interface ResourceModule {
  kinds: KindDef[];
  routes: RouteDef[];
}

/** The resource modules among the entries of the resources/ directory: their names without `.ts`, in load order. */
export function resourceModuleNames(entries: readonly string[]): string[] {
  return entries.filter((entry) => entry.endsWith('.ts')).map((entry) => entry.slice(0, -'.ts'.length)).sort();
}

export interface Ref {
  id: string;
  uri: string;
}

/** An id a document references, declared so the core can check it (400) and protect its target (409). */
export interface RefDecl {
  /** Body path for messages: 'ip_policy_id', 'backend.backend_id', 'ip_restriction.ip_policy_ids[1]'. */
  field: string;
  id: string;
  /** Kinds the field accepts; any other existing kind is ERR_REFERENCE_WRONG_KIND. */
  kinds: readonly KindName[];
}

/** A value that at most one document may hold within a scope (e.g. scope 'hostport', key 'a.example.com:443'). */
export interface Claim {
  scope: string;
  key: string;
  field: string;
  /** Code answered when another document holds it, e.g. 'ERR_HOSTPORT_IN_USE'. */
  conflict: ErrorCode;
}

/** Everything a handler can use. One per request. */
export interface Ctx {
  readonly method: Method;
  /** Request path without the query string. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON object body; {} for GET/DELETE and for an empty body. */
  readonly body: JsonObject;
  /** Scheme and authority of this request, no trailing slash: 'http://127.0.0.1:4010'. */
  readonly baseUrl: string;
  /** The request's transaction, within the caller's account. */
  readonly tx: StoreTx;
  readonly operationId: string;
  /** Absolute URL of a path on this service. */
  url(path: string): string;
  /** {id, uri} of a referenced document: references only ever name top-level kinds, whose uri needs no lookup. */
  ref(id: string): Ref;
  /** Absolute uri of a stored document. */
  uriOf(doc: Pick<StoredDoc<unknown>, 'id' | 'kind' | 'parentId'>): string;
  kindOf(kind: string): KindDef | undefined;
}

export function ok(body: unknown): Reply {
  return { status: 200, body };
}

export function created(body: unknown): Reply {
  return { status: 201, body };
}

export function noContent(): Reply {
  return { status: 204 };
}

/** Fills the parent param of a KindDef path and appends the id: '/edges/https/edghts_1/routes/edghtsrt_2'. */
export function itemPath(kind: KindDef, id: string, parentId: string | null): string {
  return `${collectionPath(kind.path, parentId)}/${encodeURIComponent(id)}`;
}

/** The fields every resource response starts with. */
export function baseFields(ctx: Ctx, doc: StoredDoc<unknown>): { id: string; uri: string; created_at: string } {
  return { id: doc.id, uri: ctx.uriOf(doc), created_at: doc.createdAt };
}

/** description and metadata, left out when empty (as the public API does). */
export function describedFields(data: { description?: string; metadata?: string }): { description?: string; metadata?: string } {
  const out: { description?: string; metadata?: string } = {};
  if (data.description) out.description = data.description;
  if (data.metadata) out.metadata = data.metadata;
  return out;
}
