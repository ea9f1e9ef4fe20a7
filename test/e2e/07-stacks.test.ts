// Two stacks in one account: each sees only its own resources, even with the same kinds and names.
import { describe, expect, it } from 'vitest';
import { allKinds, LISTS } from './fixtures.ts';
import type { Doc } from './harness.ts';
import { e2eForFile, listRaw, ownerOf } from './harness.ts';

const { e, certs } = e2eForFile();

/** The same documents with their hostports moved (a hostport belongs to one edge in the whole account). */
function otherHostports(docs: Doc[]): Doc[] {
  return docs.map((d) => {
    const copy = structuredClone(d);
    if (Array.isArray(copy.hostports)) copy.hostports = (copy.hostports as string[]).map((h) => `b-${h.replace(/^\d+\./, '')}`.replace('b-tcp', 'b.tcp'));
    return copy;
  });
}

const owned = async (stack: string): Promise<string[]> => {
  const lists = await Promise.all(Object.values(LISTS).map((l) => listRaw(e, ...l)));
  return lists.flat().map((r) => ownerOf(r, stack)).filter((a): a is string => a !== undefined).sort();
};

describe('stacks', () => {
  it('the same manifests in two stacks make two independent sets', async () => {
    const a = allKinds(certs);
    const b = otherHostports(allKinds(certs));
    await e.converge(a, 'alpha');
    const bFirst = await e.plan(b, 'beta');
    expect(bFirst.plan.summary).toEqual({ create: b.length, update: 0, replace: 0, delete: 0 });
    await e.converge(b, 'beta');
    expect((await e.plan(a, 'alpha')).plan.actions).toEqual([]);
    expect(await owned('alpha')).toEqual(await owned('beta'));
  });

  it('changing and emptying one stack leaves the other untouched', async () => {
    const a = allKinds(certs);
    const b = otherHostports(allKinds(certs));
    const beforeAlpha = await Promise.all(Object.values(LISTS).map(async (l) => (await listRaw(e, ...l)).filter((r) => ownerOf(r, 'alpha'))));
    await e.converge(b.map((d) => (d.kind === 'IPPolicy' ? { ...d, description: 'beta says hi' } : d)), 'beta');
    await e.converge([], 'beta');
    expect(await owned('beta')).toEqual([]);
    const afterAlpha = await Promise.all(Object.values(LISTS).map(async (l) => (await listRaw(e, ...l)).filter((r) => ownerOf(r, 'alpha'))));
    expect(afterAlpha).toEqual(beforeAlpha);
    expect((await e.plan(a, 'alpha')).plan.actions).toEqual([]);
  });
});
