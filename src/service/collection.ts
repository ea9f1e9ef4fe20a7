// Generic CRUD over one KindDef: defineCollection() builds the five standard routes, and the helpers below
// (loadDoc, createDoc, saveDoc, deleteDoc, renderList) are what custom routes use for the same guarantees:
// bodies checked against the kind's contract schemas (bodies.ts), the contract's references checked (400) and
// recorded, claims kept unique, referenced documents protected (409), the contract's cross-field rules held.
import { contractKind, notFoundCode, referencedIds } from '../contract/index.ts';
import { parentParam } from '../contract/path.ts';
import { checkCreate, checkDocument, checkUpdate } from './bodies.ts';
import { withoutEchoedIds } from './echoed-ids.ts';
import { ServiceError } from './errors.ts';
import { newId } from './ids.ts';
import { pageQuery, pageLinks } from './pagination.ts';
import {
  baseFields, created, describedFields, noContent, ok,
  type Claim, type Ctx, type KindDef, type RefDecl, type ResourceModule, type RouteDef,
} from './resource-def.ts';
import { ClaimTakenError, type StoredDoc } from './store.ts';
import type { JsonObject } from './json-values.ts';

export interface CollectionDef<D> {
  kind: KindDef;
  /** The stored document of a create body already checked against the contract (default: the body as sent). */
  create?(body: JsonObject, ctx: Ctx, parent: StoredDoc<unknown> | undefined): D | Promise<D>;
  /** The stored document after a checked PATCH body (default: the current data with the sent fields replaced). */
  update?(body: JsonObject, current: StoredDoc<D>, ctx: Ctx): D | Promise<D>;
  /** The response for a stored document (default: the common fields, then the stored ones; see storedAsRendered). */
  render?(doc: StoredDoc<D>, ctx: Ctx): unknown | Promise<unknown>;
  /** Values unique across documents (hostports). */
  claims?(data: D): Claim[];
  /** Runs before the referrer check on delete: delete children here to cascade. */
  beforeDelete?(doc: StoredDoc<D>, ctx: Ctx): Promise<void>;
}

/** The parent kind of a child collection. */
function parentKind(def: { kind: KindDef }): KindDef | undefined {
  return def.kind.parent === undefined ? undefined : contractKind(def.kind.parent);
}

/**
 * A response that is the document as stored: id, uri and created_at, then the stored fields, with an empty
 * description or metadata left out (as the public API does).
 */
function storedAsRendered(doc: StoredDoc<unknown>, ctx: Ctx): JsonObject {
  const data = doc.data as JsonObject;
  const { description: _description, metadata: _metadata, ...rest } = data;
  return { ...baseFields(ctx, doc), ...describedFields(data as { description?: string; metadata?: string }), ...rest };
}

/** How a collection renders its documents: its own render, else as stored. */
function renderOf<D>(def: CollectionDef<D>): (doc: StoredDoc<D>, ctx: Ctx) => unknown | Promise<unknown> {
  return def.render ?? storedAsRendered;
}

export function defineCollection<D>(def: CollectionDef<D>): ResourceModule & { def: CollectionDef<D> } {
  const render = renderOf(def);
  const base = def.kind.path;
  const create = def.create ?? ((body: JsonObject) => body as D);
  const update = def.update ?? ((body: JsonObject, current: StoredDoc<D>) => ({ ...current.data, ...body }));
  const echoes = (ctx: Ctx): JsonObject => withoutEchoedIds(def.kind.echoedIds, ctx.body, ctx.params);
  const routes: RouteDef[] = [
    {
      method: 'POST', path: base, handler: async (ctx) => {
        const parent = await parentOf(ctx, def);
        const body = checkCreate(def.kind, echoes(ctx));
        const doc = await createDoc<D>(ctx, def, await create(body, ctx, parent), parent?.id);
        return created(await render(doc, ctx));
      },
    },
    { method: 'GET', path: `${base}/:id`, handler: async (ctx) => ok(await render(await loadDoc<D>(ctx, def, ctx.params.id!), ctx)) },
    {
      method: 'PATCH', path: `${base}/:id`, handler: async (ctx) => {
        const doc = await loadDoc<D>(ctx, def, ctx.params.id!);
        const body = checkUpdate(def.kind, echoes(ctx));
        return ok(await render(await saveDoc(ctx, def, doc, await update(body, doc, ctx)), ctx));
      },
    },
    {
      method: 'DELETE', path: `${base}/:id`, handler: async (ctx) => {
        await deleteDoc(ctx, def, await loadDoc<D>(ctx, def, ctx.params.id!));
        return noContent();
      },
    },
  ];
  if (def.kind.listKey !== null) {
    const key = def.kind.listKey;
    routes.push({ method: 'GET', path: base, handler: async (ctx) => ok(await renderList(ctx, def, key, (await parentOf(ctx, def))?.id)) });
  }
  return { kinds: [def.kind], routes, def };
}

/** The parent document of a child collection request (404 when missing), undefined for top-level ones. */
async function parentOf<D>(ctx: Ctx, def: CollectionDef<D>): Promise<StoredDoc<unknown> | undefined> {
  const parent = parentKind(def);
  if (!parent) return undefined;
  const param = parentParam(def.kind.path)!;
  return loadDoc(ctx, { kind: parent }, ctx.params[param]!);
}

/** The document of this kind (and, for child kinds, this parent) or a 404 with the kind's code. */
export async function loadDoc<D>(ctx: Ctx, def: { kind: KindDef }, id: string): Promise<StoredDoc<D>> {
  const doc = await ctx.tx.get<D>(id);
  const parentId = def.kind.parent ? ctx.params[parentParam(def.kind.path) ?? ''] : undefined;
  if (!doc || doc.kind !== def.kind.kind || (parentId !== undefined && doc.parentId !== parentId)) {
    throw new ServiceError(notFoundCode(def.kind.kind), `${def.kind.label} ${JSON.stringify(id.slice(0, 80))} not found`);
  }
  return doc;
}

async function createDoc<D>(ctx: Ctx, def: CollectionDef<D>, data: D, parentId?: string): Promise<StoredDoc<D>> {
  const id = newId(def.kind.prefix);
  await checkWrite(ctx, def, id, data);
  const doc = await ctx.tx.insert({ id, kind: def.kind.kind, parentId: parentId ?? null }, data);
  await recordWrite(ctx, def, id, data);
  return doc;
}

/** Replaces a document's data, with the same checks as create. Returns the updated document. */
export async function saveDoc<D>(ctx: Ctx, def: CollectionDef<D>, doc: StoredDoc<D>, data: D): Promise<StoredDoc<D>> {
  await checkWrite(ctx, def, doc.id, data);
  await ctx.tx.update(doc.id, data);
  await recordWrite(ctx, def, doc.id, data);
  return { ...doc, data };
}

export async function deleteDoc<D>(ctx: Ctx, def: CollectionDef<D>, doc: StoredDoc<D>): Promise<void> {
  await def.beforeDelete?.(doc, ctx);
  const referrers = await ctx.tx.referrers(doc.id);
  if (referrers.length > 0) {
    const names = referrers.map((r) => `${r.fromId} (${ctx.kindOf(r.kind)?.label ?? r.kind}, ${r.field})`);
    throw new ServiceError('ERR_RESOURCE_IN_USE', `${def.kind.label} ${doc.id} is still referenced by ${names.join(', ')}`);
  }
  await ctx.tx.delete(doc);
}

async function renderList<D>(ctx: Ctx, def: CollectionDef<D>, key: string, parentId?: string): Promise<JsonObject> {
  const page = await pageQuery(ctx, def.kind.kind);
  const docs = await ctx.tx.list<D>(def.kind.kind, { parentId, beforeSeq: page.beforeSeq, limit: page.limit + 1 });
  const more = docs.length > page.limit;
  const shown = more ? docs.slice(0, page.limit) : docs;
  const render = renderOf(def);
  const items = [];
  for (const d of shown) items.push(await render(d, ctx));
  return { [key]: items, ...pageLinks(ctx, page.limit, more ? shown.at(-1)!.id : null) } as JsonObject;
}

async function checkWrite<D>(ctx: Ctx, def: CollectionDef<D>, id: string, data: D): Promise<void> {
  checkDocument(def.kind, data);
  for (const ref of refsOf(def, data)) await checkRef(ctx, ref);
  for (const claim of def.claims?.(data) ?? []) {
    const holder = await ctx.tx.claimHolder(claim.scope, claim.key);
    if (holder !== undefined && holder.ownerId !== id) throw claimConflict(ctx, claim, holder.sameAccount ? await ctx.tx.get(holder.ownerId) : undefined);
  }
}

/**
 * A claimed value held elsewhere. The holder is named only when it is in the caller's account: another
 * account's resources are not revealed, not even that they exist beyond the value being taken.
 */
function claimConflict(ctx: Ctx, claim: Claim, holder: StoredDoc<unknown> | undefined): ServiceError {
  const value = `${claim.field}: ${JSON.stringify(claim.key)}`;
  if (!holder) return new ServiceError(claim.conflict, `${value} is already in use`);
  return new ServiceError(claim.conflict, `${value} is already used by ${ctx.kindOf(holder.kind)?.label ?? holder.kind} ${holder.id}`);
}

/** The ids a document references, where its kind's contract declares reference fields. */
function refsOf<D>(def: CollectionDef<D>, data: D): RefDecl[] {
  return referencedIds(def.kind.refs, data);
}

async function recordWrite<D>(ctx: Ctx, def: CollectionDef<D>, id: string, data: D): Promise<void> {
  await ctx.tx.setRefs(id, refsOf(def, data).map((r) => ({ toId: r.id, field: r.field })));
  if (!def.claims) return;
  const claims = def.claims(data);
  try {
    await ctx.tx.setClaims(id, claims.map((c) => ({ scope: c.scope, key: c.key })));
  } catch (err) {
    // Only a writer the lock did not serialize can get here; the database's unique key is the backstop.
    const claim = err instanceof ClaimTakenError ? claims.find((c) => c.scope === err.scope && c.key === err.key) : undefined;
    if (claim) throw claimConflict(ctx, claim, undefined);
    throw err;
  }
}

/** 400 unless ref.id names an existing document of one of ref.kinds. */
async function checkRef(ctx: Ctx, ref: RefDecl): Promise<void> {
  const target = await ctx.tx.get(ref.id);
  const wanted = ref.kinds.map((k) => ctx.kindOf(k)?.label ?? k).join(' or ');
  const shown = JSON.stringify(ref.id.slice(0, 80));
  if (!target) throw new ServiceError('ERR_REFERENCE_NOT_FOUND', `${ref.field}: no ${wanted} with id ${shown}`);
  if (!(ref.kinds as readonly string[]).includes(target.kind)) {
    throw new ServiceError('ERR_REFERENCE_WRONG_KIND', `${ref.field}: ${shown} is a ${ctx.kindOf(target.kind)?.label ?? target.kind}, expected ${wanted}`);
  }
}
