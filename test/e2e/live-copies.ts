// The audit of duplicates by ownership marker: every live resource of a stack, counted per document, read
// through any client (the retrying one under faults, or plain HTTP). A document with two live resources is a
// duplicate unless the run that left it reported it as a replace's old half kept beside its new one.
import { expect } from 'vitest';
import type { ApplyResult } from '../../src/engine/plan-data.ts';
import type { Api, Obj } from '../../src/kinds/resource-kind.ts';
import { LISTS } from './fixtures.ts';
import { ownerOf } from './harness.ts';

export interface LiveCopies {
  /** Live copies per `Kind/name` of the stack, every marker kind and HTTPS routes included. */
  owners: Record<string, number>;
  unmarked: number;
  /** Routes (by owner) with a response-headers module; one entry per route. */
  headers: string[];
  /** Each subscription's (by owner) source types, as listed: a type twice is a duplicate. */
  sources: Record<string, string[]>;
}

/** Every live resource of `stack`, through `client`. */
export async function liveCopies(client: Pick<Api, 'list'>, stack: string): Promise<LiveCopies> {
  const out: LiveCopies = { owners: {}, unmarked: 0, headers: [], sources: {} };
  const count = (item: Obj): void => {
    const owner = ownerOf(item, stack);
    if (owner) out.owners[owner] = (out.owners[owner] ?? 0) + 1;
    else out.unmarked++;
  };
  for (const [path, key] of Object.values(LISTS)) {
    for (const item of await client.list(path, key)) {
      count(item);
      if (path === '/event_subscriptions' && ownerOf(item, stack)) {
        out.sources[ownerOf(item, stack)!] = ((item.sources ?? []) as Obj[]).map((s) => String(s.type));
      }
      if (path !== '/edges/https') continue;
      for (const route of await client.list(`/edges/https/${String(item.id)}/routes`, 'routes')) {
        count(route);
        if (route.response_headers !== null && route.response_headers !== undefined) out.headers.push(ownerOf(route, stack) ?? String(route.id));
      }
    }
  }
  return out;
}

/** Addresses with more than one live copy, and subscriptions listing a source type twice. */
export function duplicates(live: LiveCopies): string[] {
  const copies = Object.entries(live.owners).filter(([, n]) => n > 1).map(([address]) => address);
  const types = Object.entries(live.sources).filter(([, t]) => new Set(t).size !== t.length).map(([owner]) => `${owner} sources`);
  return [...copies, ...types].sort();
}

/** The documents a run reported keeping two live resources for (a replace's old half kept, and why). */
export const keptBy = (result: ApplyResult | undefined): string[] => [...new Set((result?.kept ?? []).map((k) => k.address))].sort();

/** After a run: no document has two live resources unless that run reported it kept (with both ids and why). */
export async function expectNoUnreportedDuplicates(client: Pick<Api, 'list'>, stack: string, result: ApplyResult | undefined, when: string): Promise<void> {
  const dup = duplicates(await liveCopies(client, stack));
  expect(dup.filter((d) => !keptBy(result).includes(d)), `unreported duplicates ${when}`).toEqual([]);
}

/** A lister over a test service's plain HTTP (no retries, no faults of the client's own). */
export const plainLister = (svc: { http: { listAll(path: string, key: string): Promise<unknown[]> } }): Pick<Api, 'list'> => ({
  list: async (path, key) => (await svc.http.listAll(path, key)) as Obj[],
});
