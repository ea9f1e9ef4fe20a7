// Generic CRUD over one KindDef: defineCollection() builds the five standard routes, and the helpers below
// (loadDoc, createDoc, saveDoc, deleteDoc, renderList) are what custom routes use for the same guarantees:
// declared references checked (400) and recorded, claims kept unique, referenced documents protected (409).
import { ServiceError } from './errors.ts';
import { newId, nowTimestamp } from './ids.ts';
import { pageQuery, pageLinks } from './pagination.ts';
import {
  created, noContent, ok,
  type Claim, type Ctx, type KindDef, type RefDecl, type ResourceModule, type RouteDef,
} from './resource-def.ts';
import type { StoredDoc } from './store.ts';
import type { JsonObject } from './validate.ts';

export interface CollectionDef<D> {
  kind: KindDef;
  /** Array key of the list response ('ip_policies'); null = no list route. */
  listKey: string | null;
  /** For a child collection: the parent's kind; its id is the one `:param` in kind.path (404 parent.notFound). */
  parent?: KindDef;
  /** Validates a create body into the stored document. `parent` is set for child collections. */
  create(body: JsonObject, ctx: Ctx, parent: StoredDoc<unknown> | undefined): D;
  /** Validates a PATCH body (its `id`, if equal to the path id, already removed) against the current document. */
  update(body: JsonObject, current: StoredDoc<D>, ctx: Ctx): D;
  render(doc: StoredDoc<D>, ctx: Ctx): unknown;
  /** Ids the document references; checked on every write and recorded for 409 on delete. */
  refs?(data: D): RefDecl[];
  /** Values unique across documents (hostports). */
  claims?(data: D): Claim[];
  /** Whole-document rules run on every write after field validation (e.g. upstream termination limits). */
  check?(data: D, ctx: Ctx): void;
  /** Runs before the referrer check on delete: delete children here to cascade. */
  beforeDelete?(doc: StoredDoc<D>, ctx: Ctx): void;
}

export function defineCollection<D>(def: CollectionDef<D>): ResourceModule & { def: CollectionDef<D> } {
  const base = def.kind.path;
  const routes: RouteDef[] = [
    {
      method: 'POST', path: base, handler: (ctx) => {
        const parent = parentOf(ctx, def);
        return created(def.render(createDoc<D>(ctx, def, def.create(ctx.body, ctx, parent), parent?.id), ctx));
      },
    },
    { method: 'GET', path: `${base}/:id`, handler: (ctx) => ok(def.render(loadDoc<D>(ctx, def, ctx.params.id!), ctx)) },
    {
      method: 'PATCH', path: `${base}/:id`, handler: (ctx) => {
        const doc = loadDoc<D>(ctx, def, ctx.params.id!);
        return ok(def.render(saveDoc(ctx, def, doc, def.update(withoutBodyId(ctx), doc, ctx)), ctx));
      },
    },
    { method: 'DELETE', path: `${base}/:id`, handler: (ctx) => { deleteDoc(ctx, def, loadDoc<D>(ctx, def, ctx.params.id!)); return noContent(); } },
  ];
  if (def.listKey !== null) {
    const key = def.listKey;
    routes.push({ method: 'GET', path: base, handler: (ctx) => ok(renderList(ctx, def, key, parentIdOf(ctx, def))) });
  }
  return { kinds: [def.kind], routes, def };
}

function parentParam(kind: KindDef): string | undefined {
  return /:([a-z_]+)/.exec(kind.path)?.[1];
}

function parentIdOf<D>(ctx: Ctx, def: CollectionDef<D>): string | undefined {
  return parentOf(ctx, def)?.id;
}

/** The parent document of a child collection request (404 when missing), undefined for top-level ones. */
export function parentOf<D>(ctx: Ctx, def: CollectionDef<D>): StoredDoc<unknown> | undefined {
  if (!def.parent) return undefined;
  const param = parentParam(def.kind)!;
  return loadDoc(ctx, { kind: def.parent }, ctx.params[param]!);
}

/**
 * A PATCH body may repeat the path id (the official TypeScript client sends it); `"id": null` is absent, as null
 * is for every other field; any other id is a 400.
 */
export function withoutBodyId(ctx: Ctx): JsonObject {
  const { id, ...rest } = ctx.body;
  if (id === undefined || id === null || id === ctx.params.id) return rest;
  // Never stringify a non-string: a deeply nested value would overflow the stack (a 500 instead of a 400).
  if (typeof id !== 'string') throw new ServiceError('ERR_FIELD_TYPE', `id: must be a string, got ${Array.isArray(id) ? 'an array' : typeof id}`);
  throw new ServiceError('ERR_ID_MISMATCH', `id: body id ${JSON.stringify(id.slice(0, 80))} differs from the path id`);
}

/** The document of this kind (and, for child kinds, this parent) or a 404 with the kind's code. */
export function loadDoc<D>(ctx: Ctx, def: { kind: KindDef; parent?: KindDef }, id: string): StoredDoc<D> {
  const doc = ctx.store.get<D>(id);
  const parentId = def.parent ? ctx.params[parentParam(def.kind) ?? ''] : undefined;
  if (!doc || doc.kind !== def.kind.kind || (parentId !== undefined && doc.parentId !== parentId)) {
    throw new ServiceError(def.kind.notFound, `${def.kind.label} ${JSON.stringify(id.slice(0, 80))} not found`);
  }
  return doc;
}

export function createDoc<D>(ctx: Ctx, def: CollectionDef<D>, data: D, parentId?: string): StoredDoc<D> {
  const id = newId(def.kind.prefix);
  checkWrite(ctx, def, id, data);
  const doc = ctx.store.insert({ id, kind: def.kind.kind, parentId: parentId ?? null, createdAt: nowTimestamp() }, data);
  recordWrite(ctx, def, id, data);
  return doc;
}

/** Replaces a document's data, with the same checks as create. Returns the updated document. */
export function saveDoc<D>(ctx: Ctx, def: CollectionDef<D>, doc: StoredDoc<D>, data: D): StoredDoc<D> {
  checkWrite(ctx, def, doc.id, data);
  ctx.store.update(doc.id, data);
  recordWrite(ctx, def, doc.id, data);
  return { ...doc, data };
}

export function deleteDoc<D>(ctx: Ctx, def: CollectionDef<D>, doc: StoredDoc<D>): void {
  def.beforeDelete?.(doc, ctx);
  const referrers = ctx.store.referrers(doc.id);
  if (referrers.length > 0) {
    const names = referrers.map((r) => `${r.fromId} (${ctx.kindOf(r.kind)?.label ?? r.kind}, ${r.field})`);
    throw new ServiceError('ERR_RESOURCE_IN_USE', `${def.kind.label} ${doc.id} is still referenced by ${names.join(', ')}`);
  }
  ctx.store.delete(doc);
}

export function renderList<D>(ctx: Ctx, def: CollectionDef<D>, key: string, parentId?: string): JsonObject {
  const page = pageQuery(ctx, def.kind.kind);
  const docs = ctx.store.list<D>(def.kind.kind, { parentId, beforeSeq: page.beforeSeq, limit: page.limit + 1 });
  const more = docs.length > page.limit;
  const shown = more ? docs.slice(0, page.limit) : docs;
  return { [key]: shown.map((d) => def.render(d, ctx)), ...pageLinks(ctx, page.limit, more ? shown.at(-1)!.id : null) } as JsonObject;
}

function checkWrite<D>(ctx: Ctx, def: CollectionDef<D>, id: string, data: D): void {
  def.check?.(data, ctx);
  for (const ref of def.refs?.(data) ?? []) checkRef(ctx, ref);
  for (const claim of def.claims?.(data) ?? []) {
    const owner = ctx.store.claimOwner(claim.scope, claim.key);
    if (owner !== undefined && owner !== id) {
      const ownerDoc = ctx.store.get(owner);
      const label = ownerDoc ? `${ctx.kindOf(ownerDoc.kind)?.label ?? ownerDoc.kind} ` : '';
      throw new ServiceError(claim.conflict, `${claim.field}: ${JSON.stringify(claim.key)} is already used by ${label}${owner}`);
    }
  }
}

function recordWrite<D>(ctx: Ctx, def: CollectionDef<D>, id: string, data: D): void {
  ctx.store.setRefs(id, (def.refs?.(data) ?? []).map((r) => ({ toId: r.id, field: r.field })));
  if (def.claims) ctx.store.setClaims(id, def.claims(data).map((c) => ({ scope: c.scope, key: c.key })));
}

/** 400 unless ref.id names an existing document of one of ref.kinds. */
export function checkRef(ctx: Ctx, ref: RefDecl): void {
  const target = ctx.store.get(ref.id);
  const wanted = ref.kinds.map((k) => ctx.kindOf(k)?.label ?? k).join(' or ');
  const shown = JSON.stringify(ref.id.slice(0, 80));
  if (!target) throw new ServiceError('ERR_REFERENCE_NOT_FOUND', `${ref.field}: no ${wanted} with id ${shown}`);
  if (!(ref.kinds as readonly string[]).includes(target.kind)) {
    throw new ServiceError('ERR_REFERENCE_WRONG_KIND', `${ref.field}: ${shown} is a ${ctx.kindOf(target.kind)?.label ?? target.kind}, expected ${wanted}`);
  }
}
