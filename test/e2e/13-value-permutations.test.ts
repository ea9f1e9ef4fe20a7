// Property: any permutation of unique values (hostports) among edges converges in one apply. Each case is a
// small set of edges over its own pool of hostports; a step moves the pool at random: one-way moves, swaps,
// rotations, values dropped or taken by edges that are created, deleted, renamed or change kind, with the
// case of a host name changed at times (the service compares hostports without case). Cases use disjoint
// pools and names, so several run in one apply: every apply must succeed with no failed action and the next
// plan must be empty. A failing seed reproduces from its number.
import { describe, expect, it } from 'vitest';
import { prng, type Rng } from '../helpers/service.ts';
import { e2eForFile, planLines, type Doc } from './harness.ts';

const { e } = e2eForFile({ certs: false });

const KINDS = ['TCPEdge', 'TLSEdge', 'HTTPSEdge'];
const SEEDS = [1, 2, 3, 4, 5];
const STEPS = 6;
const CASES_PER_APPLY = 10;
const POOL = 5;

type Edge = { kind: string; hostports: string[] };
type CaseState = Map<string, Edge>;

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The same edges with the values they hold shuffled among them (each keeps its count): swaps and rotations. */
function permuted(rng: Rng, state: CaseState): CaseState {
  const values = shuffled(rng, [...state.values()].flatMap((e) => e.hostports));
  return new Map([...state].map(([name, edge]) => [name, { kind: edge.kind, hostports: values.splice(0, edge.hostports.length) }]));
}

/** The next state of one case: a permutation of what the edges hold, or names kept, renamed, dropped or
 *  added and the pool dealt out again. */
function nextState(rng: Rng, prefix: string, state: CaseState, serial: { n: number }): CaseState {
  if (state.size > 1 && rng() < 0.4) return permuted(rng, state);
  const names: [string, string][] = [];
  for (const [name, edge] of state) {
    const roll = rng();
    if (roll < 0.65) names.push([name, rng() < 0.1 ? pick(rng, KINDS) : edge.kind]);
    else if (roll < 0.85) names.push([`${prefix}-e${serial.n++}`, edge.kind]); // renamed: a delete and a create
    // else: deleted
  }
  const added = Math.floor(rng() * 3);
  for (let i = 0; i < added || names.length === 0; i++) names.push([`${prefix}-e${serial.n++}`, pick(rng, KINDS)]);
  const next: CaseState = new Map(names.map(([name, kind]) => [name, { kind, hostports: [] }]));
  const edges = [...next.values()];
  for (let v = 0; v < POOL; v++) {
    if (rng() < 0.2) continue;
    const host = `h${v}.${prefix}.example.com`;
    pick(rng, edges).hostports.push(`${rng() < 0.15 ? host.toUpperCase() : host}:${443 + v}`);
  }
  for (const edge of edges) edge.hostports = shuffled(rng, edge.hostports);
  return next;
}

function docsOf(cases: CaseState[]): Doc[] {
  return cases.flatMap((c) => [...c].map(([name, edge]) => ({ kind: edge.kind, name, hostports: edge.hostports })));
}

let permutations = 0;
let cycles = 0;

describe('unique values permuted at random converge in one apply', () => {
  it.each(SEEDS)('seed %i', async (seed) => {
    const rng = prng(seed);
    const stack = `perm-${seed}`;
    const serial = { n: 0 };
    let cases: CaseState[] = Array.from({ length: CASES_PER_APPLY }, (_, i) => nextState(rng, `s${seed}c${i}`, new Map(), serial));
    await e.converge(docsOf(cases), stack);
    for (let step = 0; step < STEPS; step++) {
      cases = cases.map((c, i) => nextState(rng, `s${seed}c${i}`, c, serial));
      const docs = docsOf(cases);
      const { plan } = await e.plan(docs, stack);
      cycles += plan.actions.filter((a) => a.releaseFor).length;
      await e.apply(docs, stack);
      const again = await e.plan(docs, stack);
      expect(planLines(again.plan), `seed ${seed} step ${step + 1}`).toEqual([]);
    }
    await e.converge([], stack);
    permutations += STEPS * CASES_PER_APPLY;
  });

  it('covered at least 200 cases, many of them cycles that needed a release step', () => {
    expect(permutations).toBeGreaterThanOrEqual(200);
    expect(cycles).toBeGreaterThanOrEqual(20);
  });
});
