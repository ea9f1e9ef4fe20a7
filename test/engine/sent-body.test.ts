// The body a create sends is built in one place (sentBody) and once per document per run: the diff, the
// manifests' contract check and the plan's size check read the same object. The static plan checks are found
// once per manifest set, however often apply asks (before its lock, under it, after it).
import { describe, expect, it } from 'vitest';
import { staticPlanErrors } from '../../src/engine/plan-checks.ts';
import { isPendingRef } from '../../src/engine/refs.ts';
import { NO_IDS, sentBody } from '../../src/engine/sent-body.ts';
import { parseMetadata } from '../../src/kinds/marker.ts';
import type { ResourceKind } from '../../src/kinds/resource-kind.ts';
import { fakeWorld, ref, res, state } from './fakes.ts';

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

describe('sentBody', () => {
  it('builds a document body once per run: the same object for every reader, a new one for a new run', () => {
    const w = fakeWorld();
    const doc = res('Pol/a', { description: 'd', metadata: { team: 'x' } });
    const compared = sentBody(doc, NO_IDS, { kind: w.pol });
    expect(compared).toEqual({ description: 'd', metadata: { team: 'x' } });
    expect(sentBody(doc, NO_IDS, { kind: w.pol })).toBe(compared);
    // Without references the ids do not matter, so a resolver gets the same object too.
    expect(sentBody(doc, () => 'pol_1', { kind: w.pol })).toBe(compared);
    // As sent: the same fields, the marker in metadata; the shared body itself is left as it is.
    const wire = sentBody(doc, NO_IDS, { kind: w.pol, stack: 's' });
    expect(wire.description).toBe('d');
    expect(parseMetadata(wire.metadata as string)).toMatchObject({ marker: { stack: 's', name: 'Pol/a' }, user: { team: 'x' } });
    expect(compared).toEqual({ description: 'd', metadata: { team: 'x' } });
    // The next run reads the manifests again: new documents, new bodies.
    const again = res('Pol/a', { description: 'd', metadata: { team: 'x' } });
    expect(sentBody(again, NO_IDS, { kind: w.pol })).not.toBe(compared);
    expect(sentBody(again, NO_IDS, { kind: w.pol })).toEqual(compared);
  });

  it('keeps references the plan cannot resolve as PendingRef, and sends a placeholder id of the kind in their place', () => {
    const w = fakeWorld();
    const kinds = new Map(w.kinds.map((k) => [k.kind, k]));
    const doc = res('Rule/r', { pol_id: ref('Pol/a'), action: 'allow' });
    expect(sentBody(doc, NO_IDS, { kind: w.rule })).toEqual({ pol_id: { $ref: 'Pol/a' }, action: 'allow' });
    expect(sentBody(doc, (a) => (a === 'Pol/a' ? 'pol_live' : undefined), { kind: w.rule })).toMatchObject({ pol_id: 'pol_live' });
    const wire = sentBody(doc, NO_IDS, { kind: w.rule, stack: 's', kinds });
    expect(wire.pol_id).toMatch(/^pol_[0-9]{27}$/);
    // One id per address, as distinct as the service's: another document naming Pol/a sends the same one.
    const placeholder = (address: string, name: string): unknown =>
      sentBody(res(`Rule/${name}`, { pol_id: ref(address), action: 'allow' }), NO_IDS, { kind: w.rule, stack: 's', kinds }).pol_id;
    expect(placeholder('Pol/b', 'other')).toMatch(/^pol_[0-9]{27}$/);
    expect(placeholder('Pol/b', 'other')).not.toBe(placeholder('Pol/a', 'again'));
    expect(placeholder('Pol/a', 'again')).toBe(wire.pol_id);
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
