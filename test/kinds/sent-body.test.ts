// The body a create sends is built in one place (kinds/sent-body.ts): its request shape once per document per
// run (the diff, the manifests' contract check and the plan's size check read the same, frozen, object), and
// its wire form by one function that the checks measure and the executor sends. The static plan checks are
// found once per manifest set, however often apply asks (before its lock, under it, after it).
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.ts';
import { fetchLive, liveIndex } from '../../src/engine/live.ts';
import { buildPlan } from '../../src/engine/plan.ts';
import { staticPlanErrors } from '../../src/engine/plan-checks.ts';
import { runAll } from '../../src/pace.ts';
import { isPendingRef } from '../../src/kinds/refs.ts';
import { NO_IDS, placeholderIds, requestBody, sentBody, wireBody } from '../../src/kinds/sent-body.ts';
import { parseMetadata } from '../../src/kinds/marker.ts';
import type { ResourceKind } from '../../src/kinds/resource-kind.ts';
import { fakeWorld, nullApi, ref, res, state } from '../engine/fakes.ts';
describe('isPendingRef', () => {
  it('is an object of one field, $ref, holding a string: nothing else, nothing inherited', () => {
    expect(isPendingRef({ $ref: 'Pol/a' })).toBe(true);
    expect(isPendingRef({ $ref: 'Pol/a', id: 'x' })).toBe(false);
    expect(isPendingRef({ $ref: 1 })).toBe(false);
    expect(isPendingRef({ ref: 'Pol/a' })).toBe(false);
    expect(isPendingRef(Object.create({ $ref: 'Pol/a' }) as object)).toBe(false);
    expect(isPendingRef([{ $ref: 'Pol/a' }])).toBe(false);
    expect(isPendingRef('Pol/a')).toBe(false);
    expect(isPendingRef(null)).toBe(false);
  });
});

describe('requestBody', () => {
  it('builds a document body once per run: the same frozen object for every reader, a new one for a new run', () => {
    const w = fakeWorld();
    const doc = res('Pol/a', { description: 'd', metadata: { team: 'x' } });
    const compared = requestBody(w.pol, doc.spec, NO_IDS);
    expect(compared).toEqual({ description: 'd', metadata: { team: 'x' } });
    expect(requestBody(w.pol, doc.spec, NO_IDS)).toBe(compared);
    // Without references the ids do not matter, so a resolver gets the same object too.
    expect(requestBody(w.pol, doc.spec, () => 'pol_1')).toBe(compared);
    // Shared, so frozen to the leaves: a reader that wrote to it would change it for every other.
    expect(() => { compared.description = 'changed'; }).toThrow(TypeError);
    expect(() => { (compared.metadata as { team: string }).team = 'y'; }).toThrow(TypeError);
    // The next run reads the manifests again: new documents, new bodies.
    const again = res('Pol/a', { description: 'd', metadata: { team: 'x' } });
    expect(requestBody(w.pol, again.spec, NO_IDS)).not.toBe(compared);
    expect(requestBody(w.pol, again.spec, NO_IDS)).toEqual(compared);
  });

  it('keeps references the plan cannot resolve as PendingRef, and is built afresh for what each reader knows', () => {
    const w = fakeWorld();
    const doc = res('Rule/r', { pol_id: ref('Pol/a'), action: 'allow' });
    expect(requestBody(w.rule, doc.spec, NO_IDS)).toEqual({ pol_id: { $ref: 'Pol/a' }, action: 'allow' });
    expect(requestBody(w.rule, doc.spec, (a) => (a === 'Pol/a' ? 'pol_live' : undefined))).toMatchObject({ pol_id: 'pol_live' });
    expect(Object.isFrozen(requestBody(w.rule, doc.spec, NO_IDS))).toBe(false);
  });
});

describe('wireBody and sentBody', () => {
  it('sends the marker in metadata, in a new object: the shared body is left as it is', () => {
    const w = fakeWorld();
    const doc = res('Pol/a', { description: 'd', metadata: { team: 'x' } });
    const compared = requestBody(w.pol, doc.spec, NO_IDS);
    const wire = sentBody(doc, w.pol, { stack: 's', ids: placeholderIds(new Map()) });
    expect(wire.description).toBe('d');
    expect(parseMetadata(wire.metadata as string)).toMatchObject({ marker: { stack: 's', name: 'Pol/a' }, user: { team: 'x' } });
    expect(compared).toEqual({ description: 'd', metadata: { team: 'x' } });
    // An update that does not change metadata sends none.
    expect(wireBody(w.pol, { description: 'e' }, { stack: 's', address: 'Pol/a', ids: NO_IDS, metadata: false })).toEqual({ description: 'e' });
  });

  it('gives every reference a placeholder id of its kind, one per address, numbered by each run on its own', () => {
    const w = fakeWorld();
    const kinds = new Map(w.kinds.map((k) => [k.kind, k]));
    const ids = placeholderIds(kinds);
    const placeholder = (address: string, name: string): unknown =>
      sentBody(res(`Rule/${name}`, { pol_id: ref(address), action: 'allow' }), w.rule, { stack: 's', ids }).pol_id;
    const a = placeholder('Pol/a', 'r');
    expect(a).toMatch(/^pol_[0-9]{27}$/);
    // One id per address, as distinct as the service's: another document naming Pol/a sends the same one.
    expect(placeholder('Pol/b', 'other')).toMatch(/^pol_[0-9]{27}$/);
    expect(placeholder('Pol/b', 'other')).not.toBe(a);
    expect(placeholder('Pol/a', 'again')).toBe(a);
    // No state outside a run: another run numbers from the start, whatever this one saw.
    const other = placeholderIds(kinds);
    expect(other('Pol/z')).toBe(a);
    expect(ids('Pol/z')).not.toBe(a);
  });

  it('is what the executor sends: each create\'s body is the checks\' body with the ids the run created', async () => {
    const w = fakeWorld();
    const docs = [res('Pol/a', { description: 'd', metadata: { team: 'x' } }), res('Rule/r', { pol_id: ref('Pol/a'), action: 'allow' })];
    const live = await fetchLive(w.kinds, nullApi);
    const plan = runAll(buildPlan({ kinds: w.kinds, desired: state(docs), live, stack: 's' }));
    const byName = new Map(w.kinds.map((k) => [k.kind, k]));
    const result = await applyPlan(plan, nullApi, { stack: 's', concurrency: 1, kindOf: (k) => byName.get(k), liveItem: liveIndex(live) });
    expect(result.ok).toBe(true);
    const creates = w.store.calls.filter((c) => c.op === 'create');
    expect(creates.map((c) => c.kind)).toEqual(['Pol', 'Rule']);
    const polId = creates[0]!.id;
    expect(creates[0]!.body).toEqual(sentBody(docs[0]!, w.pol, { stack: 's', ids: NO_IDS }));
    expect(creates[1]!.body).toEqual(sentBody(docs[1]!, w.rule, { stack: 's', ids: (address) => (address === 'Pol/a' ? polId : undefined) }));
    expect(creates[1]!.body!.pol_id).toBe(polId);
  });
});

describe('static plan checks', () => {
  it('are found once per manifest set and stack, and each caller gets its own list', () => {
    const w = fakeWorld();
    let reads = 0;
    // The checks read each kind's unique fields: count those reads.
    const counted = w.kinds.map((k) => new Proxy(k, { get: (t, p, r) => (p === 'unique' && reads++, Reflect.get(t, p, r)) })) as ResourceKind[];
    const desired = state([res('Back/a', { hostports: ['h:1'] }), res('Edge/b', { hostports: ['h:1'] })]);
    const first = staticPlanErrors(counted, desired, 's');
    expect(first).toHaveLength(1);
    const after = reads;
    expect(after).toBeGreaterThan(0);
    const second = staticPlanErrors(counted, desired, 's');
    expect(second).toEqual(first);
    expect(reads).toBe(after);
    second.push(first[0]!);
    expect(staticPlanErrors(counted, desired, 's')).toHaveLength(1);
    // Another manifest set is checked afresh.
    staticPlanErrors(counted, state([...desired.resources]), 's');
    expect(reads).toBeGreaterThan(after);
  });
});
