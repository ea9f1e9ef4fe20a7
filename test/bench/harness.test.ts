// The benchmark harness itself (bench/lib): the generated manifest sets are valid and resolve, seeding through
// a service child converges, the fetch floor replays exactly the reads a plan made, and the printed line keeps
// the ratio last. No timing is asserted here; `npm run bench` measures.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFigure, spread } from '../../bench/lib/figure.ts';
import { countByKind, generateDocs, writeManifests } from '../../bench/lib/generate.ts';
import { median, pairedRatio } from '../../bench/lib/measure.ts';
import { recordingApi, replayReads } from '../../bench/lib/recording-api.ts';
import { seed, startSeeded, STACK } from '../../bench/lib/seed.ts';
import { createApi } from '../../src/client/http.ts';
import type { Api, Obj } from '../../src/kinds/resource-kind.ts';
import { computePlan, loadDesired } from '../../src/pipeline.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'edgeops-bench-test-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('generated manifests', () => {
  it('gives exactly the requested count, names unique per kind, many kinds', () => {
    const docs = generateDocs(137);
    expect(docs).toHaveLength(137);
    const addresses = docs.map((d) => `${d.kind}/${d.name}`);
    expect(new Set(addresses).size).toBe(137);
    expect(Object.keys(countByKind(docs)).length).toBeGreaterThanOrEqual(8);
  });

  it('is a valid manifest set that resolves, with references and modules, across files', async () => {
    const dir = join(tmp, 'valid');
    const files = await writeManifests(dir, generateDocs(95), 7);
    expect(files).toHaveLength(7);
    const desired = await loadDesired([dir], undefined, { stack: STACK });
    expect(desired.resources).toHaveLength(95);
    const withRefs = desired.resources.filter((r) => r.dependsOn.length > 0);
    expect(withRefs.length).toBeGreaterThan(40);
    const tcp = desired.resources.find((r) => r.address === 'TCPEdge/tcp-3')!;
    expect(tcp.spec.backend).toEqual({ backend_id: { $ref: 'TunnelGroupBackend/tg-3' } });
    expect(tcp.spec.ip_restriction).toEqual({ ip_policy_ids: [{ $ref: 'IPPolicy/ipp-3' }] });
  });
});

describe('seeding through a service child', () => {
  it('applies the set so that the next plan has no actions, and the floor replays the plan reads', async () => {
    const set = await seed(tmp, 40, () => {});
    expect(set.residualActions).toBe(0);
    const service = await startSeeded(set, tmp);
    const api = createApi({ url: service.url, apiKey: service.apiKey });
    try {
      const desired = await loadDesired([set.manifestDir], undefined, { stack: STACK });
      const rec = recordingApi(api);
      const ctx = await computePlan(desired, rec.api, { stack: STACK });
      expect(ctx.plan.actions).toEqual([]);
      expect(rec.writes).toBe(0);
      expect(rec.reads.length).toBeGreaterThan(3);
      // Lists of the HTTPS edges embed routes and response headers, so the floor fetches fewer items than
      // the plan has live items; every top-level item is fetched.
      const live = [...ctx.live.byKind.values()].reduce((n, items) => n + items.length, 0);
      expect(live).toBe(40);
      const fetched = await replayReads(api, rec.reads);
      expect(fetched).toBeGreaterThan(0);
      expect(fetched).toBeLessThanOrEqual(live);
    } finally {
      await api.close();
      await service.stop();
    }
  });
});

describe('recording api', () => {
  it('records reads in order, counts writes, and replays the same reads', async () => {
    const calls: string[] = [];
    const fake: Api = {
      get: async (p) => (calls.push(`get ${p}`), { id: p }),
      list: async (p, k) => (calls.push(`list ${p} ${k}`), [{ id: 'a' }, { id: 'b' }] as Obj[]),
      post: async () => ({}),
      patch: async () => ({}),
      put: async () => ({}),
      delete: async () => {},
    };
    const rec = recordingApi(fake);
    await rec.api.list('/edges/tcp', 'tcp_edges');
    await rec.api.get('/ip_policies/ipp_1');
    await rec.api.post('/ip_policies', {});
    expect(rec.reads).toEqual([
      { op: 'list', path: '/edges/tcp', listKey: 'tcp_edges' },
      { op: 'get', path: '/ip_policies/ipp_1' },
    ]);
    expect(rec.writes).toBe(1);
    calls.length = 0;
    expect(await replayReads(fake, rec.reads)).toBe(3);
    expect(calls.sort()).toEqual(['get /ip_policies/ipp_1', 'list /edges/tcp tcp_edges']);
  });
});

describe('figures', () => {
  it('median of odd and even samples', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });

  it('a paired ratio is the median of the rounds\' own ratios, not the ratio of the medians', () => {
    // Round 2 ran on a slowed machine: both sides took twice as long, and the paired ratio does not move.
    expect(pairedRatio([100, 200, 110], [50, 100, 55])).toBe(2);
    expect(median([100, 200, 110]) / median([50, 100, 55])).toBe(2);
    // Here each side's median comes from another round: the ratio of the medians says 1x, the rounds 1.5x.
    expect(pairedRatio([90, 300, 100], [100, 200, 50])).toBe(1.5);
    expect(median([90, 300, 100]) / median([100, 200, 50])).toBe(1);
    expect(() => pairedRatio([1, 2], [1])).toThrow(/differ in number/);
  });

  it('prints the values, then the ratio and the verdict last', () => {
    const line = formatFigure({ name: 'plan-vs-fetch-floor', values: [['floor', '812.3 ms'], ['plan', '901.2 ms']], ratio: 1.1094, target: '<= 1.25x', ok: true });
    expect(line).toBe('plan-vs-fetch-floor  floor 812.3 ms  plan 901.2 ms  ratio 1.11x (target <= 1.25x) OK');
    const missed = formatFigure({ name: 'x', values: [['a', '1']], ratio: 3, target: '<= 2x', ok: false });
    expect(missed).toMatch(/ratio 3\.00x \(target <= 2x\) MISSED$/);
    expect(spread([3, 1, 2])).toBe('n=3 min 1.0 med 2.0 max 3.0 ms');
  });
});
