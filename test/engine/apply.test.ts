import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.ts';
import { fetchLive, liveIndex } from '../../src/engine/live.ts';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { buildPlan } from '../../src/engine/plan.ts';
import { runAll } from '../../src/pace.ts';
import type { ApplyEvent, Plan } from '../../src/engine/plan-data.ts';
import { ApiError } from '../../src/errors.ts';
import type { DesiredResource } from '../../src/manifest/document.ts';
import { deferred, fakeWorld, marked, nullApi, ref, res, state } from './fakes.ts';
import type { Call } from './fakes.ts';

type World = ReturnType<typeof fakeWorld>;

async function plan(w: World, resources: DesiredResource[], stack = 's'): Promise<{ plan: Plan; live: Awaited<ReturnType<typeof fetchLive>> }> {
  const live = await fetchLive(w.kinds, nullApi);
  return { plan: runAll(buildPlan({ kinds: w.kinds, desired: state(resources), live, stack })), live };
}

async function apply(w: World, resources: DesiredResource[], opts: { concurrency?: number; signal?: AbortSignal; events?: ApplyEvent[] } = {}) {
  const p = await plan(w, resources);
  const byName = new Map(w.kinds.map((k) => [k.kind, k]));
  const result = await applyPlan(p.plan, nullApi, {
    stack: 's',
    concurrency: opts.concurrency ?? 4,
    kindOf: (k) => byName.get(k),
    liveItem: liveIndex(p.live),
    signal: opts.signal,
    onEvent: (e) => opts.events?.push(e),
  });
  return { ...p, result };
}

/** The address a fake call acts on: from the marker it sends, else from the store. */
function addressOf(w: World, call: Call): string {
  const meta = call.body?.metadata;
  const fromBody = parseMetadata(meta).marker?.name;
  if (fromBody) return fromBody;
  const raw = w.store.table(call.kind).get(call.id);
  return parseMetadata(raw?.metadata).marker?.name ?? `${call.kind}/${call.id}`;
}

const graph = () => [
  res('Pol/p', { description: 'office' }),
  res('Rule/r', { cidr: '10.0.0.0/8', action: 'allow', pol_id: ref('Pol/p') }),
  res('Back/b', { labels: { app: 'web' } }),
  res('Edge/e', { backend: { enabled: true, backend_id: ref('Back/b') }, ip: { enabled: true, pol_ids: [ref('Pol/p')] }, metadata: { team: 'web' } }),
  res('Tag/t', { parent_id: ref('Edge/e'), values: ['x'] }),
];

describe('executor', () => {
  it('creates dependencies first, substitutes ids, writes the marker, and converges', async () => {
    const w = fakeWorld();
    const { result } = await apply(w, graph());
    expect(result.ok).toBe(true);
    expect(result.results.every((r) => r.status === 'done')).toBe(true);
    const [edge] = [...w.store.table('Edge').values()];
    const [back] = [...w.store.table('Back').values()];
    const [pol] = [...w.store.table('Pol').values()];
    expect(edge!.backend).toEqual({ enabled: true, backend_id: back!.id });
    expect(edge!.ip).toEqual({ enabled: true, pol_ids: [pol!.id] });
    expect(edge!.metadata).toBe(marked('s', 'Edge/e', { team: 'web' }));
    expect(w.store.table('Tag').get(String(edge!.id))).toEqual({ parent_id: edge!.id, values: ['x'] });
    expect((await plan(w, graph())).plan.actions).toEqual([]);
  });

  it('never starts an action before its prerequisites finished, and runs independent ones in parallel', async () => {
    const w = fakeWorld();
    const log: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    w.store.gate = async (call) => {
      const at = addressOf(w, call);
      log.push(`start ${at}`);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      log.push(`end ${at}`);
    };
    const more = [res('Pol/q', {}), res('Pol/r', {}), res('Back/c', {})];
    const { result } = await apply(w, [...graph(), ...more], { concurrency: 3 });
    expect(result.ok).toBe(true);
    const after = (dep: string, dependent: string) => expect(log.indexOf(`end ${dep}`)).toBeLessThan(log.indexOf(`start ${dependent}`));
    after('Pol/p', 'Rule/r');
    after('Pol/p', 'Edge/e');
    after('Back/b', 'Edge/e');
    after('Edge/e', `Tag/${String([...w.store.table('Edge').keys()][0])}`);
    expect(maxInFlight).toBe(3);
  });

  it('respects the concurrency limit', async () => {
    const w = fakeWorld();
    let inFlight = 0;
    let maxInFlight = 0;
    w.store.gate = async () => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
    };
    const many = Array.from({ length: 12 }, (_, i) => res(`Pol/p${i}`, {}));
    expect((await apply(w, many, { concurrency: 1 })).result.ok).toBe(true);
    expect(maxInFlight).toBe(1);
  });

  it('on a failure skips only the dependents; independent branches continue', async () => {
    const w = fakeWorld();
    w.store.gate = (call) => {
      if (call.kind === 'Pol') throw new ApiError({ status: 400, errorCode: 'ERR_BAD', message: 'bad policy', operation: 'POST /pols' });
    };
    const events: ApplyEvent[] = [];
    const { result } = await apply(w, graph(), { events });
    expect(result.ok).toBe(false);
    const status = Object.fromEntries(result.results.map((r) => [r.actionId, r]));
    expect(status['create:Pol/p']).toEqual({ actionId: 'create:Pol/p', status: 'failed', error: { status: 400, errorCode: 'ERR_BAD', message: 'bad policy' } });
    expect(status['create:Rule/r']).toEqual({ actionId: 'create:Rule/r', status: 'skipped', skippedBecause: 'create:Pol/p' });
    expect(status['create:Edge/e']).toMatchObject({ status: 'skipped', skippedBecause: 'create:Pol/p' });
    expect(status['create:Tag/t']).toMatchObject({ status: 'skipped', skippedBecause: 'create:Pol/p' });
    expect(status['create:Back/b']).toEqual({ actionId: 'create:Back/b', status: 'done' });
    expect(w.store.table('Back').size).toBe(1);
    expect(events.filter((e) => e.type === 'failed').map((e) => e.action.id)).toEqual(['create:Pol/p']);
    expect(events.filter((e) => e.type === 'skipped').map((e) => e.action.id).sort()).toEqual(['create:Edge/e', 'create:Rule/r', 'create:Tag/t']);
    // A rerun converges.
    w.store.gate = () => {};
    expect((await apply(w, graph())).result.ok).toBe(true);
    expect((await plan(w, graph())).plan.actions).toEqual([]);
  });

  it('replace: creates the new one, repoints dependents, then deletes the old one', async () => {
    const w = fakeWorld();
    const oldCert = w.store.seed('Cert', 'crt_', { pem: 'OLD', metadata: marked('s', 'Cert/c') });
    w.store.seed('Edge', 'edg_', { mtls: { enabled: true, cert_ids: [oldCert] }, metadata: marked('s', 'Edge/e') });
    const want = [res('Cert/c', { pem: 'NEW', key: 'secret' }), res('Edge/e', { mtls: { enabled: true, cert_ids: [ref('Cert/c')] } })];
    const events: ApplyEvent[] = [];
    const { result } = await apply(w, want, { events });
    expect(result.ok).toBe(true);
    const calls = w.store.calls.map((c) => `${c.op} ${c.kind}`);
    expect(calls).toEqual(['create Cert', 'put Edge', 'delete Cert']);
    const newCert = w.store.calls[0]!;
    expect(w.store.calls[0]!.body).toMatchObject({ pem: 'NEW', key: 'secret' });
    expect(w.store.calls[1]!.body).toEqual({ enabled: true, cert_ids: [newCert.id] });
    expect(w.store.calls[2]!.id).toBe(oldCert);
    expect(events.filter((e) => e.type === 'done').map((e) => e.action.id)).toEqual(['module-put:Edge/e:mtls', 'replace:Cert/c']);
    expect(events.find((e) => e.type === 'done' && e.action.op === 'replace')).toMatchObject({ liveId: newCert.id });
    expect((await plan(w, want)).plan.actions).toEqual([]);
  });

  it('deletes dependents first', async () => {
    const w = fakeWorld();
    await apply(w, graph());
    w.store.calls.length = 0;
    const { result } = await apply(w, [], { concurrency: 8 });
    expect(result.ok).toBe(true);
    const order = w.store.calls.map((c) => c.kind);
    expect(order.indexOf('Tag')).toBeLessThan(order.indexOf('Edge'));
    expect(order.indexOf('Edge')).toBeLessThan(order.indexOf('Pol'));
    expect(order.indexOf('Rule')).toBeLessThan(order.indexOf('Pol'));
    expect(order.indexOf('Edge')).toBeLessThan(order.indexOf('Back'));
    expect([...w.store.items.values()].every((t) => t.size === 0)).toBe(true);
  });

  it('an update that changes metadata sends it with the marker; the full desired body always has the marker', async () => {
    const w = fakeWorld();
    w.store.seed('Pol', 'pol_', { description: 'a', metadata: marked('s', 'Pol/p', { team: 'x' }) });
    await apply(w, [res('Pol/p', { description: 'a', metadata: { team: 'y' } })]);
    expect(w.store.calls.map((c) => [c.op, c.body])).toEqual([['update', { metadata: marked('s', 'Pol/p', { team: 'y' }) }]]);
    w.store.calls.length = 0;
    await apply(w, [res('Pol/p', { description: 'b' })]);
    expect(w.store.calls.map((c) => [c.op, c.body])).toEqual([['update', { description: 'b', metadata: marked('s', 'Pol/p') }]]);
  });

  it('an aborted signal stops new actions; the in-flight one finishes', async () => {
    const w = fakeWorld();
    const controller = new AbortController();
    const hold = deferred();
    w.store.gate = async (call) => {
      if (call.kind === 'Pol') {
        controller.abort();
        await hold.promise;
      }
    };
    const running = apply(w, graph(), { concurrency: 1, signal: controller.signal });
    await new Promise((r) => setImmediate(r));
    hold.resolve();
    const { result } = await running;
    expect(result.interrupted).toBe(true);
    expect(result.ok).toBe(false);
    expect(result.results.find((r) => r.actionId === 'create:Pol/p')!.status).toBe('done');
    expect(w.store.table('Pol').size).toBe(1);
    expect(w.store.calls.map((c) => c.kind)).toEqual(['Back', 'Pol']);
    const skipped = result.results.filter((r) => r.status === 'skipped');
    expect(skipped.map((r) => r.actionId).sort()).toEqual(['create:Edge/e', 'create:Rule/r', 'create:Tag/t']);
    expect(skipped.every((r) => r.skippedBecause === undefined)).toBe(true);
  });
});

describe('creates are not retried blindly', () => {
  it('an ambiguous failure after the create landed uses the landed resource (no duplicate)', async () => {
    const w = fakeWorld();
    let failed = false;
    const create = w.pol.create.bind(w.pol);
    w.pol.create = async (api, body) => {
      await create(api, body);
      if (!failed) {
        failed = true;
        throw new ApiError({ status: 0, errorCode: 'ECONNRESET', message: 'socket hang up', operation: 'POST /pols' });
      }
      throw new Error('the create must not be retried');
    };
    const { result } = await apply(w, [res('Pol/p', {}), res('Rule/r', { action: 'allow', pol_id: ref('Pol/p') })]);
    expect(result.ok).toBe(true);
    expect(w.store.table('Pol').size).toBe(1);
    const [pol] = [...w.store.table('Pol').keys()];
    expect([...w.store.table('Rule').values()][0]!.pol_id).toBe(pol);
  });

  it('an ambiguous failure that did not land fails the action (the client retries only through its post check)', async () => {
    const w = fakeWorld();
    w.store.gate = (call) => {
      if (call.kind === 'Pol') throw new ApiError({ status: 503, errorCode: 'ERR_UNAVAILABLE', message: 'unavailable', operation: 'POST /pols' });
    };
    const { result } = await apply(w, [res('Pol/p', {})]);
    expect(result.results[0]).toMatchObject({ status: 'failed', error: { status: 503 } });
  });

  it('a replace whose create failed ambiguously never takes the old resource (same marker) for the new one', async () => {
    const w = fakeWorld();
    const oldCert = w.store.seed('Cert', 'crt_', { pem: 'OLD', metadata: marked('s', 'Cert/c') });
    const edge = w.store.seed('Edge', 'edg_', { mtls: { enabled: true, cert_ids: [oldCert] }, metadata: marked('s', 'Edge/e') });
    w.store.gate = (call) => {
      if (call.op === 'create') throw new ApiError({ status: 503, errorCode: 'ERR_UNAVAILABLE', message: 'unavailable', operation: 'POST /certs' });
    };
    const want = [res('Cert/c', { pem: 'NEW', key: 'secret' }), res('Edge/e', { mtls: { enabled: true, cert_ids: [ref('Cert/c')] } })];
    const { result } = await apply(w, want);
    expect(result.results.map((r) => [r.actionId, r.status])).toEqual([['replace:Cert/c', 'failed'], ['module-put:Edge/e:mtls', 'skipped']]);
    // Nothing was deleted or repointed: the old certificate is still there, still used by the edge.
    expect(w.store.calls.filter((c) => c.op !== 'create')).toEqual([]);
    expect([...w.store.table('Cert').keys()]).toEqual([oldCert]);
    expect(w.store.table('Edge').get(edge)!.mtls).toEqual({ enabled: true, cert_ids: [oldCert] });
  });
});

describe('the two halves of a replace', () => {
  const seedRule = (w: World) => {
    const pol = w.store.seed('Pol', 'pol_', { metadata: marked('s', 'Pol/p') });
    const rule = w.store.seed('Rule', 'rul_', { action: 'allow', pol_id: pol, metadata: marked('s', 'Rule/r') });
    return { pol, rule };
  };
  const flipped = [res('Pol/p', {}), res('Rule/r', { action: 'deny', pol_id: ref('Pol/p') }), res('Pol/q', {})];

  it('an interrupt between them: the old one still goes once the new one is made; nothing new starts', async () => {
    const w = fakeWorld();
    const { rule } = seedRule(w);
    const controller = new AbortController();
    w.store.gate = (call) => {
      if (call.op === 'create' && call.kind === 'Rule') controller.abort();
    };
    const more = [...flipped, res('Rule/s', { action: 'allow', pol_id: ref('Pol/p') })];
    const { result } = await apply(w, more, { concurrency: 1, signal: controller.signal });
    expect(result.interrupted).toBe(true);
    expect(result.results.map((r) => [r.actionId, r.status])).toEqual([['create:Pol/q', 'done'], ['replace:Rule/r', 'done'], ['create:Rule/s', 'skipped']]);
    expect([...w.store.table('Rule').values()].map((r) => r.action)).toEqual(['deny']);
    expect(w.store.table('Rule').has(rule)).toBe(false);
    expect(result.kept).toBeUndefined();
  });

  it('a lost connection on the old one\'s delete: both are reported with why, and the next plan deletes the old one', async () => {
    const w = fakeWorld();
    const { rule } = seedRule(w);
    w.store.gate = (call) => {
      if (call.op === 'delete') throw new ApiError({ status: 0, errorCode: 'ECONNRESET', message: 'socket hang up', operation: 'DELETE /rules' });
    };
    const { result } = await apply(w, flipped);
    const made = [...w.store.table('Rule').keys()].find((id) => id !== rule)!;
    expect(result.kept).toEqual([{ address: 'Rule/r', oldId: rule, newId: made, reason: 'its delete failed: 0 ECONNRESET: socket hang up' }]);
    w.store.gate = () => {};
    const next = await plan(w, flipped);
    expect(next.plan.actions.map((a) => [a.op, a.address, a.liveId])).toEqual([['delete', 'Rule/r', rule]]);
  });

  it('an interrupt before what the old one waits for: it is kept, and the summary data says until what', async () => {
    const w = fakeWorld();
    const { pol, rule } = seedRule(w);
    const q = w.store.seed('Pol', 'pol_', { metadata: marked('s', 'Pol/q') });
    w.store.seed('Edge', 'edg_', { ip: { enabled: true, pol_ids: [pol] }, metadata: marked('s', 'Edge/e') });
    const controller = new AbortController();
    w.store.gate = (call) => {
      if (call.op === 'create' && call.kind === 'Rule') controller.abort();
    };
    // The rule moves to q, and the edge with it: p loses its rule only once the edge has left p.
    const moved = [res('Pol/p', {}), res('Pol/q', {}), res('Rule/r', { action: 'allow', pol_id: ref('Pol/q') }), res('Edge/e', { ip: { enabled: true, pol_ids: [ref('Pol/q')] } })];
    const { result } = await apply(w, moved, { concurrency: 1, signal: controller.signal });
    const made = [...w.store.table('Rule').keys()].find((id) => id !== rule)!;
    expect(w.store.table('Rule').get(made)!.pol_id).toBe(q);
    expect(result.kept).toEqual([{
      address: 'Rule/r', oldId: rule, newId: made,
      reason: `kept until Edge/e leaves ${pol}: removing it first would take one of ${pol}'s parts away while Edge/e still uses it (Edge/e did not run: the run was interrupted)`,
    }]);
  });
});
