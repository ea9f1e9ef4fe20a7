// What TCP, TLS and HTTPS edges share: description, metadata, hostports and a set of modules, with create, get, list,
// PATCH (an omitted field or module is unchanged; a sent module replaces the stored one whole; null counts as
// omitted, since a module is removed only through its DELETE endpoint), delete, and the module endpoints.
import { type CollectionDef, defineCollection } from '../collection.ts';
import type { Ctx, KindDef, ResourceModule } from '../resource-def.ts';
import { baseFields, describedFields } from '../resource-def.ts';
import type { StoredDoc } from '../store.ts';
import { description, metadata, parseBody, type Shape } from '../validate.ts';
import { moduleField, moduleRefs, renderModules, type ModuleDef } from './edge-module-rules.ts';
import { moduleRoutes } from './edge-modules.ts';
import { hostportClaims, hostports, renderHostports } from './hostports.ts';

/** The stored edge: the sent shape, each module stored parsed (see edge-module-rules.ts) or null. */
export interface EdgeDoc {
  description?: string;
  metadata?: string;
  hostports: string[];
  [module: string]: unknown;
}

export interface EdgeResourceOptions {
  kind: KindDef;
  listKey: string;
  /** In response order. */
  modules: readonly ModuleDef<unknown>[];
  /** Whole-document rules, on every write (create, PATCH, module PUT/DELETE). */
  check?(data: EdgeDoc, ctx: Ctx): void;
  /** Fields appended to the rendered edge (HTTPS edges: routes). */
  renderExtra?(doc: StoredDoc<EdgeDoc>, ctx: Ctx): Record<string, unknown>;
  /** Cascade on delete (HTTPS edges: their routes). */
  beforeDelete?(doc: StoredDoc<EdgeDoc>, ctx: Ctx): void;
}

export function edgeShape(modules: readonly ModuleDef<unknown>[]): Shape {
  const shape: Shape = { description, metadata, hostports };
  for (const m of modules) shape[m.name] = moduleField(m);
  return shape;
}

/** The fields of a create body: every module present, null when unset. */
export function newEdgeDoc(parsed: Record<string, unknown>, modules: readonly ModuleDef<unknown>[]): EdgeDoc {
  const doc: EdgeDoc = { hostports: (parsed.hostports as string[] | undefined) ?? [] };
  if (parsed.description !== undefined) doc.description = parsed.description as string;
  if (parsed.metadata !== undefined) doc.metadata = parsed.metadata as string;
  for (const m of modules) doc[m.name] = parsed[m.name] ?? null;
  return doc;
}

export function renderEdge(doc: StoredDoc<EdgeDoc>, modules: readonly ModuleDef<unknown>[], ctx: Ctx): Record<string, unknown> {
  const { id, uri, created_at } = baseFields(ctx, doc);
  return {
    id,
    ...describedFields(doc.data),
    created_at,
    uri,
    hostports: renderHostports(doc.data.hostports),
    ...renderModules(doc.data, modules, ctx),
  };
}

export function defineEdgeResource(opts: EdgeResourceOptions): ResourceModule & { def: CollectionDef<EdgeDoc> } {
  const shape = edgeShape(opts.modules);
  const collection = defineCollection<EdgeDoc>({
    kind: opts.kind,
    listKey: opts.listKey,
    create: (body) => newEdgeDoc(parseBody(body, shape), opts.modules),
    update: (body, current) => ({ ...current.data, ...parseBody(body, shape) }),
    render: (doc, ctx) => ({ ...renderEdge(doc, opts.modules, ctx), ...opts.renderExtra?.(doc, ctx) }),
    refs: (data) => moduleRefs(data, opts.modules),
    claims: (data) => hostportClaims(data.hostports),
    check: opts.check,
    beforeDelete: opts.beforeDelete,
  });
  return { ...collection, routes: [...collection.routes, ...moduleRoutes(collection.def, opts.modules)] };
}
