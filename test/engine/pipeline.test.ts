import { describe, expect, it } from 'vitest';
import { PerpetualDiffError } from '../../src/errors.ts';
import { computePlan, executePlan } from '../../src/pipeline.ts';
import { fakeWorld, markerKind, nullApi, ref, res, state, Store } from './fakes.ts';

describe('pipeline with fake kinds', () => {
  it('computePlan -> executePlan -> computePlan is empty', async () => {
    const w = fakeWorld();
    const desired = state([res('Pol/p', {}), res('Rule/r', { action: 'deny', pol_id: ref('Pol/p') })]);
    const ctx = await computePlan(desired, nullApi, { stack: 's', kinds: w.kinds });
    expect(ctx.plan.summary.create).toBe(2);
    const result = await executePlan(ctx, nullApi, { stack: 's', concurrency: 2, kinds: w.kinds });
    expect(result).toEqual({ ok: true, results: [{ actionId: 'create:Pol/p', status: 'done' }, { actionId: 'create:Rule/r', status: 'done' }] });
    expect((await computePlan(desired, nullApi, { stack: 's', kinds: w.kinds })).plan.actions).toEqual([]);
  });

  it('a normalization bug shows as a PerpetualDiffError naming the resource and the field, never the value', async () => {
    const store = new Store();
    const buggy = markerKind(store, { kind: 'Hdr', prefix: 'hdr_' });
    // The service lower-cases header names; a kind that forgets to normalize the desired side diffs forever.
    const create = buggy.create.bind(buggy);
    buggy.create = async (api, body) => {
      const headers = Object.fromEntries(Object.entries((body.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
      const item = await create(api, { ...body, headers });
      return item;
    };
    const desired = state([res('Hdr/h', { headers: { 'X-Secret-Name': 'value-123' } })]);
    const ctx = await computePlan(desired, nullApi, { stack: 's', kinds: [buggy] });
    const err = await executePlan(ctx, nullApi, { stack: 's', concurrency: 1, kinds: [buggy] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PerpetualDiffError);
    const message = (err as PerpetualDiffError).message;
    expect(message).toContain('Hdr/h');
    expect(message).toContain('/headers/X-Secret-Name');
    expect(message).not.toContain('value-123');
  });
});
