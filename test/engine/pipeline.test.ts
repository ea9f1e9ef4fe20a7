import { describe, expect, it } from 'vitest';
import { PerpetualDiffError } from '../../src/errors.ts';
import type { ResourceKind } from '../../src/kinds/resource-kind.ts';
import { computePlan, executeAndCheck, executePlan } from '../../src/pipeline.ts';
import { fakeWorld, markerKind, nullApi, ref, res, state, Store } from './fakes.ts';

/** A kind whose create lower-cases header names on the service side but not in its normalization: diffs forever. */
function lowerCasingKind(store: Store, kind = 'Hdr'): ResourceKind {
  const buggy = markerKind(store, { kind, prefix: `${kind.toLowerCase()}_` });
  const create = buggy.create.bind(buggy);
  buggy.create = async (api, body) => {
    const headers = Object.fromEntries(Object.entries((body.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    return create(api, { ...body, headers });
  };
  return buggy;
}

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
    const buggy = lowerCasingKind(store);
    const desired = state([res('Hdr/h', { headers: { 'X-Secret-Name': 'value-123' } })]);
    const ctx = await computePlan(desired, nullApi, { stack: 's', kinds: [buggy] });
    const err = await executePlan(ctx, nullApi, { stack: 's', concurrency: 1, kinds: [buggy] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PerpetualDiffError);
    const message = (err as PerpetualDiffError).message;
    expect(message).toContain('Hdr/h');
    expect(message).toContain('/headers/X-Secret-Name');
    expect(message).not.toContain('value-123');
  });

  it('executeAndCheck returns the apply result with the self-check failure instead of throwing it', async () => {
    const store = new Store();
    const buggy = lowerCasingKind(store);
    const desired = state([res('Hdr/h', { headers: { 'X-A': '1' } })]);
    const ctx = await computePlan(desired, nullApi, { stack: 's', kinds: [buggy] });
    const { result, selfCheck } = await executeAndCheck(ctx, nullApi, { stack: 's', concurrency: 1, kinds: [buggy] });
    expect(result).toEqual({ ok: true, results: [{ actionId: 'create:Hdr/h', status: 'done' }] });
    expect(selfCheck).toBeInstanceOf(PerpetualDiffError);
    expect(selfCheck!.message).toContain('Hdr/h: update: /headers/X-A');
  });

  it('runs the self-check after a partial failure, over the actions that completed only', async () => {
    const store = new Store();
    const buggy = lowerCasingKind(store);
    const plain = markerKind(store, { kind: 'Pol', prefix: 'pol_' });
    const kinds = [buggy, plain];
    store.gate = (call) => {
      if (call.kind === 'Pol') throw new Error('refused by the fake service');
    };
    const desired = state([res('Hdr/h', { headers: { 'X-A': '1' } }), res('Pol/p', { description: 'x' })]);
    const ctx = await computePlan(desired, nullApi, { stack: 's', kinds });
    const { result, selfCheck } = await executeAndCheck(ctx, nullApi, { stack: 's', concurrency: 2, kinds });
    expect(result.ok).toBe(false);
    expect(result.results.find((r) => r.actionId === 'create:Pol/p')?.status).toBe('failed');
    expect(selfCheck).toBeInstanceOf(PerpetualDiffError);
    // The failed create is still in the re-plan, but it is the apply's failure, not a perpetual diff.
    expect(selfCheck!.message).toContain('Hdr/h: update: /headers/X-A');
    expect(selfCheck!.message).not.toContain('Pol/p');
    await expect(executePlan(ctx, nullApi, { stack: 's', concurrency: 2, kinds })).rejects.toBeInstanceOf(PerpetualDiffError);
  });

  it('a partial failure without a normalization bug passes the self-check', async () => {
    const w = fakeWorld();
    w.store.gate = (call) => {
      if (call.kind === 'Back') throw new Error('refused by the fake service');
    };
    const desired = state([res('Pol/p', {}), res('Rule/r', { action: 'deny', pol_id: ref('Pol/p') }), res('Back/b', {})]);
    const ctx = await computePlan(desired, nullApi, { stack: 's', kinds: w.kinds });
    const { result, selfCheck } = await executeAndCheck(ctx, nullApi, { stack: 's', concurrency: 2, kinds: w.kinds });
    expect(result.ok).toBe(false);
    expect(selfCheck).toBeUndefined();
  });

  it('reports a re-plan that cannot run as a self-check failure, after the apply result', async () => {
    const store = new Store();
    const pol = markerKind(store, { kind: 'Pol', prefix: 'pol_' });
    const ctx = await computePlan(state([res('Pol/p', {})]), nullApi, { stack: 's', kinds: [pol] });
    pol.fetch = async () => {
      throw new Error('list failed');
    };
    const { result, selfCheck } = await executeAndCheck(ctx, nullApi, { stack: 's', concurrency: 1, kinds: [pol] });
    expect(result.ok).toBe(true);
    expect(selfCheck?.message).toBe('the check after apply could not re-plan: list failed');
  });

  it('skips the self-check when the apply was interrupted', async () => {
    const store = new Store();
    const buggy = lowerCasingKind(store);
    const desired = state([res('Hdr/h', { headers: { 'X-A': '1' } })]);
    const ctx = await computePlan(desired, nullApi, { stack: 's', kinds: [buggy] });
    const stop = new AbortController();
    store.gate = () => stop.abort();
    const { result, selfCheck } = await executeAndCheck(ctx, nullApi, { stack: 's', concurrency: 1, kinds: [buggy], signal: stop.signal });
    expect(result.results).toEqual([{ actionId: 'create:Hdr/h', status: 'done' }]);
    expect(selfCheck).toBeUndefined();
  });
});
