// Wraps an Api to learn which reads a plan makes, so the fetch floor replays exactly those reads (the same
// list endpoints, hence the same pages) with the same client and nothing else.
import type { Api, Obj } from '../../src/kinds/resource-kind.ts';

export type Read = { op: 'list'; path: string; listKey: string } | { op: 'get'; path: string };

export interface Recording {
  api: Api;
  reads: Read[];
  writes: number;
}

export function recordingApi(inner: Api): Recording {
  const rec: Recording = { api: undefined as unknown as Api, reads: [], writes: 0 };
  rec.api = {
    get: (path) => (rec.reads.push({ op: 'get', path }), inner.get(path)),
    list: (path, listKey, onPage) => (rec.reads.push({ op: 'list', path, listKey }), inner.list(path, listKey, onPage)),
    post: (path, body: Obj) => (rec.writes++, inner.post(path, body)),
    patch: (path, body: Obj) => (rec.writes++, inner.patch(path, body)),
    put: (path, body: Obj) => (rec.writes++, inner.put(path, body)),
    delete: (path) => (rec.writes++, inner.delete(path)),
  };
  return rec;
}

/** The floor: every recorded read at once (each list still walks its pages in order), results dropped. */
export async function replayReads(api: Api, reads: readonly Read[]): Promise<number> {
  const results = await Promise.all(reads.map((r) => (r.op === 'list' ? api.list(r.path, r.listKey) : api.get(r.path))));
  return results.reduce<number>((n, r) => n + (Array.isArray(r) ? r.length : 1), 0);
}
