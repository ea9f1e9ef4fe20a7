// A saved plan's digest, as pure data: written by buildSavedPlan over everything else in the file (the delete
// limits included), independent of key order and indentation, and any edited value is refused on reading.
import { describe, expect, it } from 'vitest';
import { newFileKey } from '../../src/engine/fingerprint.ts';
import { fetchLive } from '../../src/engine/live.ts';
import { buildPlan } from '../../src/engine/plan.ts';
import { runAll } from '../../src/pace.ts';
import { buildSavedPlan, parseSavedPlan } from '../../src/engine/saved-plan.ts';
import { digestMatches, savedPlanDigest } from '../../src/engine/saved-plan-digest.ts';
import { SavedPlanEditedError } from '../../src/errors.ts';
import { canonicalJson } from '../../src/kinds/marker.ts';
import type { Json } from '../../src/kinds/resource-kind.ts';
import { fakeWorld, marked, nullApi, res, state } from './fakes.ts';

async function savedText(config = {}): Promise<string> {
  const w = fakeWorld();
  w.store.seed('Edge', 'edg_', { description: 'old', hostports: ['h:1'], metadata: marked('s', 'Edge/e') });
  w.store.seed('Back', 'bak_', { description: 'gone', metadata: marked('s', 'Back/b') });
  const live = await fetchLive(w.kinds, nullApi);
  const plan = runAll(buildPlan({ kinds: w.kinds, desired: state([res('Edge/e', { description: 'new', hostports: ['h:1'] })]), live, stack: 's' }));
  const { key, info } = newFileKey(undefined);
  const saved = buildSavedPlan({ plan, live, kinds: w.kinds, paths: ['infra'], adopt: false, checksum: 'sha256:x', fileKey: key, keyInfo: info, version: '0', config });
  return JSON.stringify(saved, null, 2);
}

describe('the digest of a saved plan', () => {
  it('covers the content and the delete limits, and reads back', async () => {
    const text = await savedText({ max_deletes: 3, max_deletes_per_kind: { Back: 1 } });
    const data = JSON.parse(text) as Record<string, unknown>;
    expect(data.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(data.delete_limits).toEqual({ max_deletes: 3, max_deletes_per_kind: { Back: 1 } });
    expect(digestMatches(data)).toBe(true);
    expect(parseSavedPlan(text, 'p.json').plan.summary).toMatchObject({ update: 1, delete: 1 });
    // Key order and indentation are no edit.
    expect(() => parseSavedPlan(canonicalJson(data as Json), 'p.json')).not.toThrow();
    // Without an edgeops.yaml, the defaults are what the delete line was measured against.
    expect(JSON.parse(await savedText()).delete_limits).toEqual({ max_deletes: 10, max_deletes_per_kind: {} });
  });

  it.each([
    ['a field change', (d: any) => { d.plan.actions.find((a: { op: string }) => a.op === 'update').changes[0].new = 'edited'; }],
    ['a dropped action', (d: any) => { d.plan.actions.pop(); }],
    ['the checksum', (d: any) => { d.checksum = 'sha256:y'; }],
    ['the delete limits', (d: any) => { d.delete_limits.max_deletes = 99; }],
    ['the digest itself', (d: any) => { d.digest = `sha256:${'0'.repeat(64)}`; }],
    ['a field added', (d: any) => { d.note = 'approved'; }],
  ])('refuses %s', async (_what, edit) => {
    const data = JSON.parse(await savedText());
    edit(data);
    expect(digestMatches(data)).toBe(false);
    expect(() => parseSavedPlan(JSON.stringify(data), 'p.json')).toThrow(SavedPlanEditedError);
    expect(() => parseSavedPlan(JSON.stringify(data), 'p.json')).toThrow(/^p\.json: the saved plan was edited after it was saved/);
  });

  it('is the digest of everything but itself', async () => {
    const data = JSON.parse(await savedText());
    const { digest, ...rest } = data;
    expect(savedPlanDigest(rest)).toBe(digest);
    expect(savedPlanDigest({ ...rest, digest: 'anything' })).toBe(digest);
  });
});
