// Reading manifests gives the event loop a turn about every millisecond: `plan` starts its lists first, and a
// page's answer must be acted on (the next page asked for) while thousands of documents are checked, not after.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDesiredState } from '../src/manifest/read-desired.ts';
import { Pace, runAll, runPaced, type Steps } from '../src/pace.ts';

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

/** How many turns the event loop took while `work` ran, and the longest it waited for one. */
async function turnsDuring(work: () => Promise<unknown>): Promise<{ turns: number; longest: number }> {
  let turns = 0;
  let longest = 0;
  let last = performance.now();
  let running = true;
  const tick = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  running = false;
  return { turns, longest };
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
    const started = performance.now();
    const { turns } = await turnsDuring(() => runPaced(busy(), new Pace()));
    const took = performance.now() - started;
    // Slices of about 1 ms: a turn for every few milliseconds of work (one go would give none).
    expect(turns).toBeGreaterThanOrEqual(Math.min(20, took / 10));
    expect(runAll(busy())).toBe(await runPaced(busy()));
  });

  it('reading 2,000 documents in one file hands the event loop back all along', async () => {
    const file = manifests(1000);
    const started = performance.now();
    const { turns } = await turnsDuring(async () => {
      const desired = await readDesiredState([file], { cwd: dir, stack: 's' });
      expect(desired.resources).toHaveLength(2000);
    });
    const took = performance.now() - started;
    // One file and five stages: without pacing the loop would turn a handful of times. With it, about once a
    // millisecond of work (at least one turn per 10 ms, however busy the machine).
    expect(turns).toBeGreaterThanOrEqual(Math.min(50, took / 10));
  });
});
