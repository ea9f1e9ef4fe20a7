// The standard fetch/create/update/delete hooks, so each kind file only states its paths and normalization.
import { ApiError } from '../errors.ts';
import type { Api, FetchContext, Json, LiveItem, Obj, ResourceKind } from './resource-kind.ts';

type CrudHooks = Pick<ResourceKind, 'fetch' | 'create' | 'update' | 'delete'>;
type ModuleHooks = Required<Pick<ResourceKind, 'putModule' | 'deleteModule'>>;

/**
 * What a PATCH must send to clear a field the manifest no longer sets: the service leaves an absent field
 * unchanged, so "removed from the manifest" has to be said explicitly.
 */
const DEFAULT_CLEAR: Obj = { description: '', metadata: '', hostports: [] };

interface CrudOptions {
  /** Collection path (`/edges/tcp`); items live at `${path}/${id}`. */
  path: string;
  listKey: string;
  /** The kind's own fromLive: used to find fields set live but no longer desired. */
  fromLive: (raw: Obj) => Obj;
  /** Fields never sent in a PATCH (immutable or write-only ones); their changes are replaces, not updates. */
  notPatchable?: readonly string[];
  modules?: readonly string[];
  /** Per-field values that clear a field, over DEFAULT_CLEAR. */
  clear?: Obj;
}

export function liveItem(raw: Obj): LiveItem {
  return { id: String(raw.id), raw };
}

/**
 * The PATCH body: the changed fields, plus a clearing value for each field that is set live but absent from
 * the desired body (modules excepted: those are removed by deleteModule; metadata excepted: it holds the
 * ownership marker). A changed field given as null also means "clear it".
 */
export function patchBody(opts: CrudOptions, live: LiveItem, changed: Obj, desired: Obj): Obj {
  // metadata carries the ownership marker: it is only ever replaced by the engine, never cleared implicitly.
  const skip = new Set(['metadata', ...(opts.notPatchable ?? []), ...(opts.modules ?? [])]);
  const clear = { ...DEFAULT_CLEAR, ...opts.clear };
  const clearOf = (f: string): Json => (f in clear ? clear[f]! : null);
  const body: Obj = {};
  for (const [f, v] of Object.entries(changed)) {
    if (opts.notPatchable?.includes(f)) continue;
    body[f] = v === null && !opts.modules?.includes(f) ? clearOf(f) : v;
  }
  for (const f of Object.keys(opts.fromLive(live.raw))) {
    if (!skip.has(f) && !(f in desired) && !(f in body)) body[f] = clearOf(f);
  }
  return body;
}

/** DELETE that treats "already gone" as done, so a rerun after a partial apply converges. */
export async function deleteIfPresent(api: Api, path: string): Promise<void> {
  try {
    await api.delete(path);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return;
    throw err;
  }
}

export function crudHooks(opts: CrudOptions): CrudHooks {
  const { path, listKey } = opts;
  return {
    async fetch(ctx: FetchContext) {
      return (await ctx.listOnce(path, listKey, ctx.onPage)).map(liveItem);
    },
    async create(api, body) {
      return liveItem(await api.post(path, body));
    },
    async update(api, live, changed, desired) {
      const body = patchBody(opts, live, changed, desired);
      if (Object.keys(body).length > 0) await api.patch(`${path}/${live.id}`, body);
    },
    async delete(api, live) {
      await deleteIfPresent(api, `${path}/${live.id}`);
    },
  };
}

/** Module endpoints `${itemPath}/${module}`: PUT replaces the module whole, DELETE removes it. */
export function moduleHooks(itemPath: (live: LiveItem) => string): ModuleHooks {
  return {
    async putModule(api, live, module, body) {
      await api.put(`${itemPath(live)}/${module}`, body);
    },
    async deleteModule(api, live, module) {
      await deleteIfPresent(api, `${itemPath(live)}/${module}`);
    },
  };
}
