// What TCP, TLS and HTTPS edges share: description, metadata, hostports and a set of modules, with create, get, list,
// PATCH (an omitted field or module is unchanged; a sent module replaces the stored one whole; null counts as
// omitted, since a module is removed only through its DELETE endpoint), delete, and the module endpoints.
// Bodies, references and the rules across modules come from the kind's contract.
import { type CollectionDef, defineCollection } from './collection.ts';
import type { Ctx, KindDef, ResourceModule } from './resource-def.ts';
import { baseFields, describedFields } from './resource-def.ts';
import type { StoredDoc } from './store.ts';
import type { JsonObject } from './json-values.ts';
import { renderModules, storedModules, type ModuleDef } from './modules/stored-modules.ts';
import { moduleRoutes } from './modules/module-routes.ts';
import { hostportClaims, renderHostports } from './hostports.ts';

/** The stored edge: the sent shape, each module stored (see modules/stored-modules.ts) or null. */
interface EdgeDoc {
  description?: string;
  metadata?: string;
  hostports: string[];
  [module: string]: unknown;
}

interface EdgeResourceOptions {
  kind: KindDef;
  /** In response order, one per module of the kind's contract. */
  modules: readonly ModuleDef<unknown>[];
  /** Fields appended to the rendered edge (HTTPS edges: routes). */
  renderExtra?(doc: StoredDoc<EdgeDoc>, ctx: Ctx): Promise<Record<string, unknown>>;
  /** Cascade on delete (HTTPS edges: their routes). */
  beforeDelete?(doc: StoredDoc<EdgeDoc>, ctx: Ctx): Promise<void>;
}

/** The fields of a checked create body: every module present, null when unset. */
function newEdgeDoc(body: JsonObject, modules: readonly ModuleDef<unknown>[]): EdgeDoc {
  const doc: EdgeDoc = { hostports: (body.hostports as string[] | undefined) ?? [] };
  if (body.description !== undefined) doc.description = body.description as string;
  if (body.metadata !== undefined) doc.metadata = body.metadata as string;
  for (const m of modules) doc[m.name] = null;
  return { ...doc, ...storedModules(body, modules) };
}

function renderEdge(doc: StoredDoc<EdgeDoc>, modules: readonly ModuleDef<unknown>[], ctx: Ctx): Record<string, unknown> {
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
  const collection = defineCollection<EdgeDoc>({
    kind: opts.kind,
    create: (body) => newEdgeDoc(body, opts.modules),
    update: (body, current) => ({ ...current.data, ...body, ...storedModules(body, opts.modules) }),
    render: async (doc, ctx) => ({ ...renderEdge(doc, opts.modules, ctx), ...await opts.renderExtra?.(doc, ctx) }),
    claims: (data) => hostportClaims(data.hostports),
    beforeDelete: opts.beforeDelete,
  });
  return { ...collection, routes: [...collection.routes, ...moduleRoutes(collection.def, opts.modules)] };
}
