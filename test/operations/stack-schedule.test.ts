// The order several stacks apply in (edgeops apply and the Action's merge): after `after`, independent stacks at once up to the limit, and a stack
// that did not finish well skips everything after it (directly or through others), naming the first cause.
import { describe, expect, it } from 'vitest';
import { runInOrder } from '../../src/operations/stack-schedule.ts';

interface Item { dir: string; stack: string; after: string[] }
interface Result { ok: boolean; text: string }

const item = (dir: string, after: string[] = []): Item => ({ dir, stack: dir.toUpperCase(), after });

/** Runs the items, each taking a few milliseconds, recording when each starts and ends and how many overlap. */
async function schedule(items: Item[], failing: string[] = [], parallel = 4) {
  const events: string[] = [];
  let running = 0;
  let peak = 0;
  const byDir = new Map(items.map((x) => [x.dir, x]));
  const results = await runInOrder(items, async (x): Promise<Result> => {
    events.push(`start ${x.dir}`);
    running++;
    peak = Math.max(peak, running);
    await new Promise((done) => setTimeout(done, 5));
    running--;
    events.push(`end ${x.dir}`);
    return { ok: !failing.includes(x.dir), text: failing.includes(x.dir) ? 'failed' : 'applied' };
  }, {
    after: (x) => x.after.flatMap((dir) => byDir.get(dir) ?? []),
    parallel,
    ok: (r) => r.ok,
    skipped: (_x, cause, why) => ({ ok: false, text: `skipped: ${cause.stack} ${why.text}` }),
  });
  return { events, peak, results: Object.fromEntries([...results].map(([x, r]) => [x.dir, r.text])) };
}

describe('runInOrder', () => {
  it('runs a stack only after the stacks it names, and independent stacks at once', async () => {
    const { events, peak, results } = await schedule([item('prod', ['staging']), item('partners'), item('staging')]);
    expect(events.indexOf('start prod')).toBeGreaterThan(events.indexOf('end staging'));
    // partners and staging wait on nothing: both start before either ends.
    expect(events.slice(0, 2).sort()).toEqual(['start partners', 'start staging']);
    expect(peak).toBe(2);
    expect(results).toEqual({ partners: 'applied', staging: 'applied', prod: 'applied' });
  });

  it('a failure skips its dependents and theirs, naming the stack that failed; the rest go on', async () => {
    const { events, results } = await schedule([item('a'), item('b', ['a']), item('c', ['b']), item('d')], ['a']);
    expect(results).toEqual({ a: 'failed', b: 'skipped: A failed', c: 'skipped: A failed', d: 'applied' });
    expect(events).not.toContain('start b');
    expect(events).not.toContain('start c');
    // The failure is the last to finish: what it skips is all that is left.
    expect((await schedule([item('a'), item('b', ['a'])], ['a'])).results).toEqual({ a: 'failed', b: 'skipped: A failed' });
  });

  it('keeps to the parallel limit, and ignores an after naming a stack outside the run', async () => {
    const { peak, results } = await schedule([item('a'), item('b'), item('c', ['elsewhere']), item('d')], [], 2);
    expect(peak).toBe(2);
    expect(Object.values(results)).toEqual(['applied', 'applied', 'applied', 'applied']);
  });

  it('hands each result over as soon as it is done, a skipped one included, and refuses a cycle', async () => {
    const seen: string[] = [];
    const a = item('a');
    const b = item('b', ['a']);
    await runInOrder([b, a], async (x) => ({ ok: x !== a, text: x.dir }), {
      after: (x) => (x === b ? [a] : []), parallel: 1, ok: (r) => r.ok,
      skipped: (x) => ({ ok: false, text: `skipped ${x.dir}` }), onDone: (_x, r) => seen.push(r.text),
    });
    expect(seen).toEqual(['a', 'skipped b']);
    const c = item('c');
    const d = item('d');
    await expect(runInOrder([c, d], async () => ({ ok: true, text: '' }), {
      after: (x) => (x === c ? [d] : [c]), parallel: 2, ok: (r) => r.ok, skipped: () => ({ ok: false, text: '' }),
    })).rejects.toThrow('after: a cycle among 2 stacks');
  });
});
