// Property: any valid manifest set converges. For each seed, three generated sets are applied in turn to one
// stack (so creates, updates, module changes, replaces and deletes mix), then everything is removed; after
// every apply the plan is empty. A failing seed reproduces from its number.
import { describe, expect, it } from 'vitest';
import { prng } from '../helpers/service.ts';
import { LISTS } from './fixtures.ts';
import { generateSet } from './generate.ts';
import { e2eForFile, listRaw, ownerOf } from './harness.ts';

const { e, certs } = e2eForFile();

const SEEDS = [1, 2, 3, 5, 8, 13, 21, 34];

describe('random manifest sets converge', () => {
  it.each(SEEDS)('seed %i', async (seed) => {
    const rng = prng(seed);
    const stack = `prop-${seed}`;
    let total = 0;
    for (let step = 0; step < 3; step++) {
      const docs = generateSet(rng, certs);
      total += docs.length;
      await e.converge(docs, stack);
    }
    expect(total).toBeGreaterThan(20);
    await e.converge([], stack);
    const lists = await Promise.all(Object.values(LISTS).map((l) => listRaw(e, ...l)));
    expect(lists.flat().filter((r) => ownerOf(r, stack))).toEqual([]);
  });
});
