// Adoption over the fake kinds (given the real adoptKeys helpers, and the edges' hostport claim): matched unmanaged items are planned as
// updates that write the marker, referenced kinds first; ambiguous matches and other stacks' items are never
// adopted; without --adopt a colliding create carries the hint.
import { describe, expect, it } from 'vitest';
import { planWithAdoption } from '../../src/engine/adopt-plan.ts';
import { runAll } from '../../src/pace.ts';
import { livePlanErrors } from '../../src/engine/plan-checks.ts';
import { liveFingerprint, newFileKey } from '../../src/engine/fingerprint.ts';
import { buildSavedPlan } from '../../src/engine/saved-plan.ts';
import { checkSavedPlan } from '../../src/engine/saved-plan-check.ts';
import { fetchLive } from '../../src/engine/live.ts';
import { parseMetadata } from '../../src/kinds/marker.ts';
import type { Plan } from '../../src/engine/plan-data.ts';
import { describedKeys, fieldsKey, hostportKeys } from '../../src/kinds/adopt-keys.ts';
import { kindByName } from '../../src/kinds/index.ts';
import type { ResourceKind } from '../../src/kinds/resource-kind.ts';
import type { DesiredResource } from '../../src/manifest/document.ts';
import { executePlan } from '../../src/pipeline.ts';
import { fakeWorld, marked, nullApi, ref, res, state } from './fakes.ts';

function world() {
  const w = fakeWorld();
  const hooks: Record<string, ResourceKind['adoptKeys']> = {
    Edge: hostportKeys,
    Pol: describedKeys,
    Rule: (body) => fieldsKey('rule', body, ['pol_id', 'cidr']),
  };
  const kinds = w.kinds.map((k) => (hooks[k.kind] ? { ...k, adoptKeys: hooks[k.kind], ...(k.kind === 'Edge' ? { unique: kindByName('TCPEdge')!.unique } : {}) } : k));
  return { ...w, kinds };
}
type World = ReturnType<typeof world>;

async function planOf(w: World, resources: DesiredResource[], adopt: boolean): Promise<{ plan: Plan; ctx: Parameters<typeof executePlan>[0] }> {
  const fetched = await fetchLive(w.kinds, nullApi);
  const desired = state(resources);
  const { plan, live } = runAll(planWithAdoption({ kinds: w.kinds, desired, live: fetched, stack: 's', adopt }));
  return { plan, ctx: { plan, desired, live } };
}

const lines = (plan: Plan): string[] => plan.actions.map((a) => `${a.id}${a.adopt ? ` (${a.adopt})` : ''}`);

describe('adoption', () => {
  it('plans an update writing the marker instead of a create, then converges', async () => {
    const w = world();
    const edgeId = w.store.seed('Edge', 'edg_', { hostports: ['h:1'], description: 'by hand' });
    const docs = [res('Edge/e', { hostports: ['h:1'], description: 'managed now' })];
    const { plan, ctx } = await planOf(w, docs, true);
    expect(lines(plan)).toEqual(['update:Edge/e (hostport h:1)']);
    expect(plan.actions[0]).toMatchObject({ liveId: edgeId, body: { description: 'managed now', metadata: {} } });
    expect(plan.summary).toEqual({ create: 0, update: 1, replace: 0, delete: 0 });

    const result = await executePlan(ctx, nullApi, { stack: 's', concurrency: 4, kinds: w.kinds });
    expect(result.ok).toBe(true);
    expect(parseMetadata(w.store.table('Edge').get(edgeId)!.metadata).marker).toEqual({ stack: 's', name: 'Edge/e' });
    expect((await planOf(w, docs, false)).plan.actions).toEqual([]);
  });

  it('adds a metadata-only update when nothing else differs, and keeps the user metadata of the item', async () => {
    const w = world();
    const polId = w.store.seed('Pol', 'pol_', { description: 'office', metadata: '{"team":"net"}' });
    const docs = [res('Pol/office', { description: 'office', metadata: { team: 'net' } })];
    const { plan, ctx } = await planOf(w, docs, true);
    expect(plan.actions).toEqual([
      expect.objectContaining({ id: 'update:Pol/office', liveId: polId, body: { metadata: { team: 'net' } }, changes: [], adopt: 'description "office"' }),
    ]);
    await executePlan(ctx, nullApi, { stack: 's', concurrency: 4, kinds: w.kinds });
    expect(parseMetadata(w.store.table('Pol').get(polId)!.metadata)).toEqual({ marker: { stack: 's', name: 'Pol/office' }, user: { team: 'net' } });
  });

  it('adopts referenced kinds first, so a key can use the adopted id', async () => {
    const w = world();
    const polId = w.store.seed('Pol', 'pol_', { description: 'office' });
    const ruleId = w.store.seed('Rule', 'rul_', { pol_id: polId, cidr: '10.0.0.0/8', action: 'allow' });
    const docs = [res('Rule/r', { pol_id: ref('Pol/office'), cidr: '10.0.0.0/8', action: 'allow' }), res('Pol/office', { description: 'office' })];
    const { plan } = await planOf(w, docs, true);
    expect(lines(plan)).toEqual(['update:Pol/office (description "office")', `update:Rule/r (rule ${polId} 10.0.0.0/8)`]);
    expect(plan.actions[1]!.liveId).toBe(ruleId);
    expect(plan.actions.every((a) => a.dependsOn.length === 0)).toBe(true);
  });

  it('replaces an adopted item whose immutable field differs (the new one carries the marker)', async () => {
    const w = world();
    const polId = w.store.seed('Pol', 'pol_', { description: 'office', metadata: marked('s', 'Pol/office') });
    w.store.seed('Rule', 'rul_', { pol_id: polId, cidr: '10.0.0.0/8', action: 'deny' });
    const { plan } = await planOf(w, [res('Pol/office', { description: 'office' }), res('Rule/r', { pol_id: ref('Pol/office'), cidr: '10.0.0.0/8', action: 'allow' })], true);
    expect(lines(plan)).toEqual([`replace:Rule/r (rule ${polId} 10.0.0.0/8)`]);
  });

  it('never adopts an ambiguous match, or another stack\'s resource, and says why', async () => {
    const w = world();
    const a = w.store.seed('Edge', 'edg_', { hostports: ['h:1'] });
    const b = w.store.seed('Edge', 'edg_', { hostports: ['h:2'] });
    const theirs = w.store.seed('Edge', 'edg_', { hostports: ['h:3'], metadata: marked('other', 'Edge/x') });
    w.store.seed('Pol', 'pol_', { description: 'office', metadata: marked('other', 'Pol/office') });
    const docs = [res('Edge/both', { hostports: ['h:1', 'h:2'] }), res('Edge/x', { hostports: ['h:3'] }), res('Pol/office', { description: 'office' })];
    const { plan, ctx } = await planOf(w, docs, true);
    expect(lines(plan)).toEqual(['create:Edge/both', 'create:Edge/x', 'create:Pol/office']);
    // Another stack's policy of the same name and description is no conflict: no warning for it.
    expect(plan.warnings).toEqual([
      `Edge/both is not adopted: it matches 2 unmanaged Edge resources (${a} by hostport h:1, ${b} by hostport h:2); make the manifest match one of them`,
    ]);
    // The hostports stay where they are, so the creates would fail: plan errors, not warnings.
    const held = (id: string, hostport: string, why: string): string => `hostport "${hostport}" is held by ${id}, and the service lets one resource hold it at a time: ${why}`;
    expect(livePlanErrors(w.kinds, ctx.desired, ctx.live, 's', { plan, adopt: true }).map((e) => `${e.address}: ${e.message}`)).toEqual([
      `Edge/both: ${held(`the unmanaged Edge ${a}`, 'h:1', 'it was not adopted (see the warnings); remove it there first')}`,
      `Edge/both: ${held(`the unmanaged Edge ${b}`, 'h:2', 'it was not adopted (see the warnings); remove it there first')}`,
      `Edge/x: ${held('Edge/x (stack other)', 'h:3', 'remove it from stack other first')}`,
    ]);
  });

  it('does not adopt one item for two documents', async () => {
    const w = world();
    const id = w.store.seed('Edge', 'edg_', { hostports: ['h:1', 'h:2'] });
    const { plan } = await planOf(w, [res('Edge/a', { hostports: ['h:1'] }), res('Edge/b', { hostports: ['h:2'] })], true);
    expect(lines(plan)).toEqual(['create:Edge/a', 'create:Edge/b']);
    expect(plan.warnings).toContain(`${id} (Edge) is not adopted: Edge/a, Edge/b all match it; make exactly one document match it`);
  });

  it('without --adopt, reports a colliding create with the --adopt hint', async () => {
    const w = world();
    const id = w.store.seed('Edge', 'edg_', { hostports: ['h:1'] });
    const { plan, ctx } = await planOf(w, [res('Edge/e', { hostports: ['h:1', 'h:9'] })], false);
    expect(lines(plan)).toEqual(['create:Edge/e']);
    // A hostport the service lets one resource hold: the collision is a plan error (apply would fail), with the hint.
    expect(plan.warnings).toEqual([]);
    expect(livePlanErrors(w.kinds, ctx.desired, ctx.live, 's', { plan, adopt: false }).map((e) => e.message)).toEqual([
      `hostport "h:1" is held by the unmanaged Edge ${id}, and the service lets one resource hold it at a time: run plan/apply with --adopt to bring it under management, or remove it there first`,
    ]);
    // Apply's pre-check, before adoption, leaves an unmarked holder to the plan when --adopt is on.
    expect(livePlanErrors(w.kinds, ctx.desired, ctx.live, 's', { adopt: true })).toEqual([]);
  });

  it('leaves managed items and items without a matching key alone', async () => {
    const w = world();
    w.store.seed('Edge', 'edg_', { hostports: ['h:5'] });
    const mine = w.store.seed('Edge', 'edg_', { hostports: ['h:1'], metadata: marked('s', 'Edge/e') });
    const { plan } = await planOf(w, [res('Edge/e', { hostports: ['h:1'] }), res('Edge/f', { hostports: ['h:6'] })], true);
    expect(lines(plan)).toEqual(['create:Edge/f']);
    expect(plan.warnings).toEqual([]);
    expect(mine).toMatch(/^edg_/);
  });

  it('saved with a plan, fingerprints the adopted item as fetched (without the marker it is about to get)', async () => {
    const w = world();
    const edgeId = w.store.seed('Edge', 'edg_', { hostports: ['h:1'] });
    const docs = [res('Edge/e', { hostports: ['h:1'], description: 'mine' })];
    const { plan, ctx } = await planOf(w, docs, true);
    const { key, info } = newFileKey(undefined);
    const saved = buildSavedPlan({ plan, live: ctx.live, kinds: w.kinds, paths: [], adopt: true, checksum: 'x', fileKey: key, keyInfo: info, version: '0' });
    const asFetched = liveFingerprint(w.edge.fromLive(w.store.table('Edge').get(edgeId)!));
    expect(saved.touched).toEqual([{ address: 'Edge/e', kind: 'Edge', id: edgeId, fingerprint: asFetched }]);
    const fresh = await planOf(w, docs, true);
    expect(checkSavedPlan(saved, fresh.ctx, w.kinds, key).actions).toEqual(plan.actions);
    // Someone else claims it meanwhile: the object the plan acts on changed.
    w.store.table('Edge').get(edgeId)!.metadata = marked('other', 'Edge/theirs');
    const later = await planOf(w, docs, true);
    expect(() => checkSavedPlan(saved, later.ctx, w.kinds, key)).toThrow(`Edge/e (${edgeId}) changed`);
  });
});
