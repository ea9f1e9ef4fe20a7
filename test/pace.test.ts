// Pacing (src/pace.ts, docs/design.md "Pacing"): work gives the event loop a turn about every millisecond, so
// that `plan` and `apply`, which start their lists first, act on a page's answer (ask for the next page) while
// thousands of documents are checked, not after. One mechanism: stages written as steps, driven by runPaced.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computePlan, loadDesired } from '../src/pipeline.ts';
import { readDesiredState } from '../src/manifest/read-desired.ts';
import { Pace, runAll, runPaced, type AsyncSteps, type Steps } from '../src/pace.ts';
import type { Api, Obj } from '../src/kinds/resource-kind.ts';
import { filesUnder } from './helpers/source-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'edgeops-pace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One file of `n` documents that reference each other, so every stage has work per document. */
function manifests(n: number): string {
  const docs: string[] = [];
  for (let i = 0; i < n; i++) {
    docs.push(`kind: IPPolicy\nname: p${i}\ndescription: policy ${i}`);
    docs.push(`kind: IPPolicyRule\nname: r${i}\nip_policy_id: p${i}\ncidr: 10.${i >> 8}.${i & 255}.0/24\naction: allow`);
  }
  const file = join(dir, `m${n}.yaml`);
  writeFileSync(file, docs.join('\n---\n'));
  return file;
}

/**
 * How many turns the event loop took while `work` ran, and the CPU milliseconds the process spent meanwhile: on
 * a busy machine time stretches while the process waits for a core, the work it does does not.
 */
async function turnsDuring(work: () => Promise<unknown>): Promise<{ turns: number; cpuMs: number }> {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    turns++;
    if (running) setImmediate(tick);
  };
  // The garbage collector's pauses are no stage's work, and in a worker that has run other test files first
  // they are long: their time is taken out of the CPU time the turns are measured against.
  let gcMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gc.observe({ entryTypes: ['gc'] });
  setImmediate(tick);
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  running = false;
  // The observer is told of the last pauses on a later turn.
  await new Promise((done) => setImmediate(done));
  gc.disconnect();
  return { turns, cpuMs: Math.max(0, (used.user + used.system) / 1000 - gcMs) };
}

describe('pacing the manifest stages', () => {
  it('a stage written as steps gives the same result in one go and paced', async () => {
    function* count(n: number): Steps<number> {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        yield;
        sum += i;
      }
      return sum;
    }
    expect(runAll(count(1000))).toBe(499500);
    expect(await runPaced(count(1000))).toBe(499500);
  });

  it('a paced stage lets timers and I/O run between its slices', async () => {
    // A fixed amount of work per step (not a fixed time: a busy machine stretches time, not the work).
    function* busy(): Steps<number> {
      let x = 0;
      for (let step = 0; step < 400; step++) {
        yield;
        for (let i = 0; i < 20_000; i++) x = (x * 31 + i) % 1_000_003;
      }
      return x;
    }
    const { turns, cpuMs } = await turnsDuring(() => runPaced(busy(), new Pace()));
    // Slices of about 1 ms: a turn for every few milliseconds of work (one go would give none).
    expect(turns).toBeGreaterThanOrEqual(Math.min(20, cpuMs / 10));
    expect(runAll(busy())).toBe(await runPaced(busy()));
  });

  it('a stage that awaits is paced alike, and a step it awaits is awaited before the next', async () => {
    const order: string[] = [];
    async function* sends(n: number): AsyncSteps<number> {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        yield;
        sum += await Promise.resolve(i);
        order.push(`sent ${i}`);
        for (let j = 0; j < 20_000; j++) sum = (sum * 31 + j) % 1_000_003;
      }
      return sum;
    }
    const { turns } = await turnsDuring(async () => expect(await runPaced(sends(300))).toBeGreaterThanOrEqual(0));
    expect(order).toEqual(Array.from({ length: 300 }, (_, i) => `sent ${i}`));
    expect(turns).toBeGreaterThan(1);
  });

  it('no other code gives the event loop a turn of its own: pace.ts is the one way work is paced', () => {
    const src = resolve(import.meta.dirname, '..', 'src');
    const own = filesUnder(src, /\.ts$/)
      .filter((f) => relative(src, f) !== 'pace.ts')
      .filter((f) => /\bsetImmediate\(|\.due\(\)|\.pause\(\)|\bSLICE\b/.test(readFileSync(f, 'utf8').replace(/\/\/.*$/gm, '')))
      .map((f) => relative(src, f));
    expect(own).toEqual([]);
  });

  it('a plan of 2,000 documents, its lists read meanwhile, hands the event loop back all along', async () => {
    const file = manifests(1000);
    const desired = await loadDesired([file], {}, { stack: 's' });
    const api: Api = {
      get: async () => ({}), post: async () => ({}), patch: async () => ({}), put: async () => ({}), delete: async () => undefined,
      list: async () => [] as Obj[],
    };
    const { turns, cpuMs } = await turnsDuring(async () => {
      const { plan } = await computePlan(desired, api, { stack: 's' });
      expect(plan.summary.create).toBe(2000);
    });
    // Preparing the documents, planning them: about a turn per millisecond of work, and at least one per 20 ms
    // on a machine busy with other test files (unpaced, the plan takes one or two turns in all).
    expect(turns, `${turns} turns in ${cpuMs.toFixed(1)} ms of CPU`).toBeGreaterThanOrEqual(Math.min(30, cpuMs / 20));
  });

  it('reading 2,000 documents in one file hands the event loop back all along', async () => {
    const file = manifests(1000);
    const { turns, cpuMs } = await turnsDuring(async () => {
      const desired = await readDesiredState([file], { cwd: dir, stack: 's' });
      expect(desired.resources).toHaveLength(2000);
    });
    // One file and five stages: without pacing the loop would turn a handful of times. With it, about once a
    // millisecond of work (at least one turn per 10 ms, however busy the machine).
    expect(turns).toBeGreaterThanOrEqual(Math.min(50, cpuMs / 10));
  });
});
