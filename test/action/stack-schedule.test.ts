// The order a merge applies stacks in: after `after`, independent stacks at once up to the limit, and a stack
// that did not finish well skips everything after it (directly or through others), naming the first cause.
import { describe, expect, it } from 'vitest';
import { runInOrder } from '../../src/action/stack-schedule.ts';

interface Item { dir: string; stack: string; after: string[] }
interface Result { ok: boolean; text: string }

const item = (dir: string, after: string[] = []): Item => ({ dir, stack: dir.toUpperCase(), after });

/** Runs the items, each taking a few milliseconds, recording when each starts and ends and how many overlap. */
async function schedule(items: Item[], failing: string[] = [], parallel = 4) {
  const events: string[] = [];
  let running = 0;
  let peak = 0;
  const results = await runInOrder(items, async (x): Promise<Result> => {
    events.push(`start ${x.dir}`);
    running++;
    peak = Math.max(peak, running);
    await new Promise((done) => setTimeout(done, 5));
    running--;
    events.push(`end ${x.dir}`);
    return { ok: !failing.includes(x.dir), text: failing.includes(x.dir) ? 'failed' : 'applied' };
  }, (x, cause, why) => ({ ok: false, text: `skipped: ${cause.stack} ${why.text}` }), parallel);
  return { events, peak, results: Object.fromEntries([...results].map(([dir, r]) => [dir, r.text])) };
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
});
