// Module endpoints, the same for every edge kind and for routes: PUT/GET/DELETE <item path>/<module>.
// - PUT takes the bare module (checked against the module's contract schema), or `{"id", "module"}` (routes: also `edge_id`) as the official TypeScript client
//   sends it; it replaces the module whole and answers 200 with it in the returned shape. The whole document
//   is saved through saveDoc, so references, claims and whole-document rules (upstream termination) are checked
//   on the merged result.
// - GET answers 200 with the module, or 404 ERR_MODULE_NOT_SET when it is not set.
// - DELETE answers 204, also when the module was not set (idempotent: a retried delete is not an error).
// Only the modules valid for a kind get routes, so any other module name is a 404 for the path.
import { checkModule } from '../bodies.ts';
import { type CollectionDef, loadDoc, saveDoc } from '../collection.ts';
import { withoutEchoedIds } from '../echoed-ids.ts';
import { ServiceError } from '../errors.ts';
import { noContent, ok, type Ctx, type RouteDef } from '../resource-def.ts';
import type { StoredDoc } from '../store.ts';
import { clip, type JsonObject } from '../json-values.ts';
import type { ModuleDef } from './stored-modules.ts';

/** The module body of a PUT: the bare module, or the `module` of the `{id, module}` wrapper. */
function moduleBody(ctx: Ctx, def: CollectionDef<unknown>): unknown {
  const body: JsonObject = ctx.body;
  if (!Object.hasOwn(body, 'module')) return body;
  const echoed = def.kind.echoedIds;
  const unknown = Object.keys(body).find((key) => key !== 'module' && !echoed.includes(key));
  if (unknown !== undefined) throw new ServiceError('ERR_UNKNOWN_FIELD', `unknown field "${clip(unknown)}"; allowed with "module": ${echoed.join(', ')}`);
  return withoutEchoedIds(echoed, body, ctx.params).module;
}

type Doc = StoredDoc<Record<string, unknown>>;

function moduleRoutesFor(def: CollectionDef<unknown>, module: ModuleDef<unknown>): RouteDef[] {
  const path = `${def.kind.path}/:id/${module.name}`;
  const load = (ctx: Ctx): Promise<Doc> => loadDoc<Record<string, unknown>>(ctx, def, ctx.params.id!);
  const save = (ctx: Ctx, doc: Doc, value: unknown): Promise<Doc> =>
    saveDoc(ctx, def as CollectionDef<Record<string, unknown>>, doc, { ...doc.data, [module.name]: value });
  return [
    {
      method: 'PUT', path, handler: async (ctx) => {
        const doc = await load(ctx);
        const value = module.store(checkModule(module.contract, moduleBody(ctx, def)));
        const saved = await save(ctx, doc, value);
        return ok(module.render(saved.data[module.name], ctx));
      },
    },
    {
      method: 'GET', path, handler: async (ctx) => {
        const doc = await load(ctx);
        const value = doc.data[module.name];
        if (value === null || value === undefined) {
          throw new ServiceError('ERR_MODULE_NOT_SET', `${module.name}: not set on ${def.kind.label} ${doc.id}`);
        }
        return ok(module.render(value, ctx));
      },
    },
    {
      method: 'DELETE', path, handler: async (ctx) => {
        const doc = await load(ctx);
        if (doc.data[module.name] !== null && doc.data[module.name] !== undefined) await save(ctx, doc, null);
        return noContent();
      },
    },
  ];
}

/** PUT/GET/DELETE routes for each of `modules` on the items of `def`. */
export function moduleRoutes<D>(def: CollectionDef<D>, modules: readonly ModuleDef<unknown>[]): RouteDef[] {
  return modules.flatMap((m) => moduleRoutesFor(def as CollectionDef<unknown>, m));
}
