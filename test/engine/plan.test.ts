import { describe, expect, it } from 'vitest';
import { StepGraph } from '../../src/engine/graph.ts';
import { fetchLive } from '../../src/engine/live.ts';
import { buildPlan } from '../../src/engine/plan.ts';
import { runAll } from '../../src/pace.ts';
import { deleteStatusLine } from '../../src/engine/safety.ts';
import type { Action, Plan } from '../../src/engine/plan-data.ts';
import { ManifestError } from '../../src/errors.ts';
import type { DesiredResource } from '../../src/manifest/document.ts';
import { fakeWorld, marked, nullApi, ref, res, state } from './fakes.ts';

type World = ReturnType<typeof fakeWorld>;

async function planOf(w: World, resources: DesiredResource[], opts: { stack?: string; config?: object } = {}): Promise<Plan> {
  const live = await fetchLive(w.kinds, nullApi);
  return runAll(buildPlan({ kinds: w.kinds, desired: state(resources, opts.config ?? {}), live, stack: opts.stack ?? 's' }));
}

const byId = (plan: Plan): Map<string, Action> => new Map(plan.actions.map((a) => [a.id, a]));
const ids = (plan: Plan): string[] => plan.actions.map((a) => a.id);
const before = (plan: Plan, first: string, then: string): boolean => ids(plan).indexOf(first) < ids(plan).indexOf(then);

describe('creates', () => {
  const manifests = () => [
    res('Edge/e', { hostports: ['h:1'], backend: { enabled: true, backend_id: ref('Back/b') }, ip: { enabled: true, pol_ids: [ref('Pol/p'), 'pol_literal'] } }),
    res('Rule/r', { cidr: '10.0.0.0/8', action: 'allow', pol_id: ref('Pol/p') }),
    res('Pol/p', { description: 'office' }),
    res('Back/b', { labels: { app: 'web' } }),
  ];

  it('is made a step per document, so it can give the event loop turns, and the steps make the same plan', async () => {
    const w = fakeWorld();
    const live = await fetchLive(w.kinds, nullApi);
    const input = { kinds: w.kinds, desired: state(manifests()), live, stack: 's' };
    const steps = buildPlan(input);
    let count = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) count++;
    // A step per document to prepare it (no live state needed), and one to plan it.
    expect(count).toBe(2 * manifests().length);
    expect(next.value).toEqual(runAll(buildPlan(input)));
  });

  it('run dependencies first, linked by the references in the desired bodies', async () => {
    const plan = await planOf(fakeWorld(), manifests());
    expect(ids(plan)).toEqual(['create:Back/b', 'create:Pol/p', 'create:Rule/r', 'create:Edge/e']);
    const a = byId(plan);
    // The edge is pointed at the policy only once its rules exist (no moment with an empty policy).
    expect(a.get('create:Edge/e')!.dependsOn).toEqual(['create:Back/b', 'create:Pol/p', 'create:Rule/r']);
    expect(a.get('create:Rule/r')!.dependsOn).toEqual(['create:Pol/p']);
    expect(a.get('create:Pol/p')!.dependsOn).toEqual([]);
    expect(plan.summary).toEqual({ create: 4, update: 0, replace: 0, delete: 0 });
  });

  it('show every field as an add, with unknown ids as known after apply', async () => {
    const plan = await planOf(fakeWorld(), manifests());
    const edge = byId(plan).get('create:Edge/e')!;
    expect(edge.changes.find((c) => c.path === '/backend')).toMatchObject({ kind: 'add', knownAfterApply: true });
    expect(edge.changes.find((c) => c.path === '/hostports')).toEqual({ path: '/hostports', kind: 'add', new: ['h:1'] });
  });

  it('are deterministic whatever the document order', async () => {
    const a = await planOf(fakeWorld(), manifests());
    const b = await planOf(fakeWorld(), manifests().reverse());
    expect(b).toEqual(a);
  });

  it('refs to live managed resources become their ids, with no dependency', async () => {
    const w = fakeWorld();
    const polId = w.store.seed('Pol', 'pol_', { description: 'office', metadata: marked('s', 'Pol/p') });
    const plan = await planOf(w, manifests().filter((r) => r.address !== 'Edge/e'));
    expect(ids(plan)).toEqual(['create:Back/b', 'create:Rule/r']);
    expect(byId(plan).get('create:Rule/r')).toMatchObject({ body: { pol_id: polId }, dependsOn: [] });
  });
});

describe('deletes', () => {
  it('run dependents first: a resource goes after everything whose live body references it', async () => {
    const w = fakeWorld();
    const pol = w.store.seed('Pol', 'pol_', { metadata: marked('s', 'Pol/p') });
    const back = w.store.seed('Back', 'bak_', { metadata: marked('s', 'Back/b') });
    w.store.seed('Rule', 'rul_', { pol_id: pol, action: 'allow', metadata: marked('s', 'Rule/r') });
    const edge = w.store.seed('Edge', 'edg_', { backend: { enabled: true, backend_id: back }, ip: { enabled: true, pol_ids: [pol] }, metadata: marked('s', 'Edge/e') });
    w.store.table('Tag').set(edge, { parent_id: edge, values: ['x'] });
    const plan = await planOf(w, []);
    const a = byId(plan);
    expect(a.get('delete:Pol/p')!.dependsOn).toEqual(['delete:Edge/e', 'delete:Rule/r']);
    expect(a.get('delete:Back/b')!.dependsOn).toEqual(['delete:Edge/e']);
    expect(a.get('delete:Edge/e')!.dependsOn).toEqual([`delete:Tag/${edge}`]);
    expect(before(plan, `delete:Tag/${edge}`, 'delete:Edge/e')).toBe(true);
    expect(before(plan, 'delete:Edge/e', 'delete:Pol/p')).toBe(true);
    expect(plan.summary.delete).toBe(5);
  });

  it('wait for the updates that stop referencing the deleted resource', async () => {
    const w = fakeWorld();
    const old = w.store.seed('Back', 'bak_', { metadata: marked('s', 'Back/old') });
    w.store.seed('Edge', 'edg_', { backend: { enabled: true, backend_id: old }, metadata: marked('s', 'Edge/e') });
    const plan = await planOf(w, [res('Back/new', {}), res('Edge/e', { backend: { enabled: true, backend_id: ref('Back/new') } })]);
    expect(ids(plan)).toEqual(['create:Back/new', 'module-put:Edge/e:backend', 'delete:Back/old']);
    expect(byId(plan).get('delete:Back/old')!.dependsOn).toEqual(['module-put:Edge/e:backend']);
    expect(byId(plan).get('module-put:Edge/e:backend')!.dependsOn).toEqual(['create:Back/new']);
  });
});

describe('replace', () => {
  it('creates the new resource, repoints dependents, then deletes the old one', async () => {
    const w = fakeWorld();
    const cert = w.store.seed('Cert', 'crt_', { pem: 'OLD', metadata: marked('s', 'Cert/c') });
    w.store.seed('Edge', 'edg_', { mtls: { enabled: true, cert_ids: [cert] }, metadata: marked('s', 'Edge/e') });
    const plan = await planOf(w, [
      res('Cert/c', { pem: 'NEW', key: 'k' }),
      res('Edge/e', { mtls: { enabled: true, cert_ids: [ref('Cert/c')] } }),
    ]);
    const a = byId(plan);
    const replace = a.get('replace:Cert/c')!;
    expect(replace).toMatchObject({ op: 'replace', liveId: cert, reason: 'pem cannot be updated', dependsOn: [], deleteDependsOn: ['module-put:Edge/e:mtls'] });
    expect(replace.body).toEqual({ pem: 'NEW', key: 'k' });
    expect(a.get('module-put:Edge/e:mtls')).toMatchObject({ dependsOn: ['replace:Cert/c'], changes: [{ path: '/mtls/cert_ids', knownAfterApply: true }] });
    expect(plan.summary).toEqual({ create: 0, update: 1, replace: 1, delete: 0 });
    const levels = new StepGraph(plan.actions).levels();
    expect(levels.get('replace:Cert/c')).toBeLessThan(levels.get('module-put:Edge/e:mtls')!);
    expect(levels.get('module-put:Edge/e:mtls')).toBeLessThan(levels.get('replace:Cert/c#old')!);
  });

  it('a deleted resource referenced by a replaced one waits for the old copy to go', async () => {
    const w = fakeWorld();
    const pol = w.store.seed('Pol', 'pol_', { metadata: marked('s', 'Pol/old') });
    w.store.seed('Rule', 'rul_', { pol_id: pol, action: 'allow', metadata: marked('s', 'Rule/r') });
    const plan = await planOf(w, [res('Pol/new', {}), res('Rule/r', { pol_id: ref('Pol/new'), action: 'allow' })]);
    expect(byId(plan).get('replace:Rule/r')!.dependsOn).toEqual(['create:Pol/new']);
    expect(byId(plan).get('delete:Pol/old')!.dependsOn).toEqual(['replace:Rule/r#old']);
  });
});

describe('ownership scope', () => {
  it('never touches unmarked resources or other stacks, and never shows them', async () => {
    const w = fakeWorld();
    w.store.seed('Pol', 'pol_', { description: 'made by hand' });
    w.store.seed('Pol', 'pol_', { metadata: '{"owned-by":"operator"}' });
    w.store.seed('Pol', 'pol_', { metadata: marked('other', 'Pol/p') });
    const plan = await planOf(w, [res('Pol/p', { description: 'mine' })]);
    expect(ids(plan)).toEqual(['create:Pol/p']);
    const other = await planOf(w, [res('Pol/p', {})], { stack: 'other' });
    expect(other.actions).toEqual([]);
  });

  it('natural-key items: in scope when a document names the key or the parent is managed', async () => {
    const w = fakeWorld();
    const mine = w.store.seed('Edge', 'edg_', { metadata: marked('s', 'Edge/e') });
    const foreign = w.store.seed('Edge', 'edg_', {});
    const named = w.store.seed('Edge', 'edg_', {});
    w.store.table('Tag').set(mine, { parent_id: mine, values: ['a'] });
    w.store.table('Tag').set(foreign, { parent_id: foreign, values: ['b'] });
    w.store.table('Tag').set(named, { parent_id: named, values: ['c'] });
    const plan = await planOf(w, [res('Edge/e', {}), res('Tag/t', { parent_id: named, values: ['c', 'd'] })]);
    expect(ids(plan)).toEqual(['update:Tag/t', `delete:Tag/${mine}`].sort());
    expect(byId(plan).get('update:Tag/t')).toMatchObject({ liveId: named, changes: [{ path: '/values', old: ['c'], new: ['c', 'd'] }] });
  });

  it('a natural-key document whose parent is created gets a create, never a match', async () => {
    const w = fakeWorld();
    const plan = await planOf(w, [res('Edge/e', {}), res('Tag/t', { parent_id: ref('Edge/e'), values: ['x'] })]);
    expect(byId(plan).get('create:Tag/t')!.dependsOn).toEqual(['create:Edge/e']);
  });

  it('two documents for the same natural key are an error', async () => {
    const w = fakeWorld();
    await expect(planOf(w, [res('Tag/a', { parent_id: 'edg_x' }), res('Tag/b', { parent_id: 'edg_x' })])).rejects.toThrow(/same Tag as Tag\/a/);
  });

  it('duplicate copies of a managed resource: the oldest is kept, the others deleted, with a warning', async () => {
    const w = fakeWorld();
    const first = w.store.seed('Pol', 'pol_', { metadata: marked('s', 'Pol/p') });
    const second = w.store.seed('Pol', 'pol_', { metadata: marked('s', 'Pol/p') });
    const plan = await planOf(w, [res('Pol/p', {})]);
    expect(plan.actions.map((a) => [a.id, a.liveId])).toEqual([[`delete:Pol/p@${second}`, second]]);
    expect(plan.warnings[0]).toContain(`keeping ${first}`);
  });

  it('after a replace whose old delete failed, the copy matching the manifest is kept', async () => {
    const w = fakeWorld();
    const old = w.store.seed('Rule', 'rul_', { pol_id: 'pol_x', action: 'allow', metadata: marked('s', 'Rule/r') });
    w.store.seed('Rule', 'rul_', { pol_id: 'pol_x', action: 'deny', metadata: marked('s', 'Rule/r') });
    const plan = await planOf(w, [res('Rule/r', { pol_id: 'pol_x', action: 'deny' })]);
    expect(plan.actions.map((a) => [a.id, a.liveId])).toEqual([[`delete:Rule/r@${old}`, old]]);
  });
});

describe('values that move between resources', () => {
  it('a hostport kept through a rename: the new edge is created after the old one is deleted', async () => {
    const w = fakeWorld();
    w.store.seed('Edge', 'edg_', { hostports: ['h:1', 'h:2'], metadata: marked('s', 'Edge/old') });
    const plan = await planOf(w, [res('Edge/new', { hostports: ['h:2'] })]);
    expect(ids(plan)).toEqual(['delete:Edge/old', 'create:Edge/new']);
    expect(byId(plan).get('create:Edge/new')!.dependsOn).toEqual(['delete:Edge/old']);
  });

  it('a hostport moved between live edges: the edge giving it up is updated first', async () => {
    const w = fakeWorld();
    w.store.seed('Edge', 'edg_', { hostports: ['h:1'], metadata: marked('s', 'Edge/a') });
    w.store.seed('Edge', 'edg_', { hostports: ['h:2'], metadata: marked('s', 'Edge/b') });
    const plan = await planOf(w, [res('Edge/a', { hostports: [] }), res('Edge/b', { hostports: ['h:2', 'h:1'] })]);
    expect(byId(plan).get('update:Edge/b')!.dependsOn).toEqual(['update:Edge/a']);
    expect(byId(plan).get('update:Edge/a')!.dependsOn).toEqual([]);
  });

  it('adds no ordering that would close a cycle', async () => {
    const w = fakeWorld();
    const back = w.store.seed('Back', 'bak_', { hostports: ['h:1'], metadata: marked('s', 'Back/old') });
    w.store.seed('Edge', 'edg_', { backend: { enabled: true, backend_id: back }, metadata: marked('s', 'Edge/e') });
    const plan = await planOf(w, [res('Back/new', {}), res('Edge/e', { hostports: ['h:1'], backend: { enabled: true, backend_id: ref('Back/new') } })]);
    // The delete waits for the edge to leave the backend, so the edge cannot wait for the delete to take the
    // hostport: the old backend releases it in a step of its own first.
    expect(byId(plan).get('delete:Back/old')!.dependsOn).toEqual(['module-put:Edge/e:backend', 'release:Back/old', 'update:Edge/e']);
    expect(byId(plan).get('update:Edge/e')!.dependsOn).toEqual(['create:Back/new', 'module-put:Edge/e:backend', 'release:Back/old']);
    expect(byId(plan).get('release:Back/old')).toMatchObject({ op: 'update', body: { hostports: [] }, releaseFor: ['Edge/e'], dependsOn: [] });
    expect(plan.summary).toEqual({ create: 1, update: 1, replace: 0, delete: 1 });
  });

  it('a swap, across kinds sharing a scope and in any letter case: one side releases first', async () => {
    const w = fakeWorld();
    w.store.seed('Edge', 'edg_', { hostports: ['h:1'], metadata: marked('s', 'Edge/a') });
    w.store.seed('Back', 'bak_', { hostports: ['h:2'], metadata: marked('s', 'Back/b') });
    const plan = await planOf(w, [res('Edge/a', { hostports: ['H:2'] }), res('Back/b', { hostports: ['h:1'] })]);
    const a = byId(plan);
    const [step] = plan.actions.filter((x) => x.releaseFor);
    expect(step).toMatchObject({ op: 'update', body: { hostports: [] }, dependsOn: [] });
    const released = step!.address;
    const other = released === 'Edge/a' ? 'Back/b' : 'Edge/a';
    expect(step!.releaseFor).toEqual([other]);
    expect(a.get(`update:${other}`)!.dependsOn).toContain(step!.id);
    expect(a.get(`update:${released}`)!.dependsOn).toEqual(expect.arrayContaining([step!.id, `update:${other}`]));
  });

  it('unrelated list values add no ordering', async () => {
    const w = fakeWorld();
    w.store.seed('Edge', 'edg_', { hostports: ['h:1'], metadata: marked('s', 'Edge/old') });
    const plan = await planOf(w, [res('Edge/new', { hostports: ['h:9'] })]);
    expect(byId(plan).get('create:Edge/new')!.dependsOn).toEqual([]);
  });
});

describe('summary and safety', () => {
  it('counts an address with update and module actions once as an update', async () => {
    const w = fakeWorld();
    w.store.seed('Edge', 'edg_', { description: 'a', backend: { enabled: true, backend_id: 'bak_x' }, metadata: marked('s', 'Edge/e') });
    const plan = await planOf(w, [res('Edge/e', { description: 'b', ip: { enabled: true, pol_ids: ['pol_x'] } })]);
    // The module removal runs before the put (the service may check an edge's modules together).
    expect(ids(plan)).toEqual(['update:Edge/e', 'module-delete:Edge/e:backend', 'module-put:Edge/e:ip']);
    expect(plan.summary).toEqual({ create: 0, update: 1, replace: 0, delete: 0 });
  });

  it('warns when deletes exceed max_deletes (default 10) or a per-kind limit', async () => {
    const w = fakeWorld();
    for (let i = 0; i < 11; i++) w.store.seed('Pol', 'pol_', { metadata: marked('s', `Pol/p${i}`) });
    const plan = await planOf(w, []);
    expect(plan.warnings).toEqual([expect.stringContaining('deletes 11 resources, more than max_deletes (10)')]);
    expect((await planOf(w, [], { config: { max_deletes: 20 } })).warnings).toEqual([]);
    const perKind = await planOf(w, [], { config: { max_deletes: 20, max_deletes_per_kind: { Pol: 3 } } });
    expect(perKind.warnings).toEqual([expect.stringContaining('deletes 11 Pol resources')]);
    expect(deleteStatusLine(perKind, { max_deletes: 20 })).toBe('Deletes: 11 of max 20, within the limits.');
  });

  it('rejects metadata that no longer fits 4096 bytes once the marker is added', async () => {
    const w = fakeWorld();
    const big = res('Pol/p', { metadata: { blob: 'x'.repeat(4080) } });
    const err = await planOf(w, [big]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManifestError);
    expect((err as ManifestError).issues[0]).toMatchObject({ address: 'Pol/p', pointer: '/metadata', message: expect.stringMatching(/^is \d+ bytes as stored with the ownership marker, at most 4096 are allowed$/) });
  });

  it('detects a dependency cycle defensively', () => {
    const step = (id: string, dependsOn: string[], op: Action['op'] = 'update'): Action =>
      ({ id, op, kind: 'K', name: id, address: `K/${id}`, changes: [], dependsOn });
    expect(() => new StepGraph([step('a', ['b']), step('b', ['c']), step('c', ['a'])]).levels()).toThrow(/cycle.*a -> b -> c -> a/);
    // Through a replace's old-resource delete, which waits for its own create and for deleteDependsOn.
    const r = { ...step('r', []), op: 'replace' as const, deleteDependsOn: ['d'] };
    expect(() => new StepGraph([r, step('d', ['r#old'], 'delete')]).levels()).toThrow(/cycle.*r#old -> d -> r#old/);
    expect(() => new StepGraph([step('a', ['gone'])]).levels()).toThrow(/a depends on unknown action gone/);
    expect(new StepGraph([r, step('d', [], 'delete')]).levels()).toEqual(new Map([['r', 0], ['r#old', 1], ['d', 0]]));
  });
});
