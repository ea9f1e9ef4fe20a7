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

/**
 * An Api answering every list from pages held as JSON text (parsed on each call, as the client parses what
 * it receives), to time the plan's own CPU with no I/O at all. `from` lists each path once to fill the pages.
 */
export async function memoryApi(from: Api, reads: readonly Read[]): Promise<Api> {
  const pages = new Map<string, string[]>();
  for (const r of reads) {
    if (r.op !== 'list') continue;
    const items = await from.list(r.path, r.listKey);
    const texts: string[] = [];
    for (let i = 0; i === 0 || i < items.length; i += 100) texts.push(JSON.stringify({ [r.listKey]: items.slice(i, i + 100) }));
    pages.set(`${r.path}\u0000${r.listKey}`, texts);
  }
  const refuse = (): never => {
    throw new Error('the memory Api answers lists only');
  };
  return {
    async list(path, listKey, onPage) {
      const texts = pages.get(`${path}\u0000${listKey}`);
      if (!texts) throw new Error(`no recorded pages for ${path}`);
      const out: Obj[] = [];
      for (const text of texts) {
        await null; // each page arrives in its own turn, as from the network
        const items = (JSON.parse(text) as Record<string, Obj[]>)[listKey]!;
        out.push(...items);
        onPage?.(items);
      }
      return out;
    },
    get: refuse,
    post: refuse,
    patch: refuse,
    put: refuse,
    delete: refuse,
  };
}
