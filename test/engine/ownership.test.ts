import { describe, expect, it } from 'vitest';
import { canonicalJson, METADATA_LIMIT, metadataProblem, parseMetadata, serializeMetadata } from '../../src/kinds/marker.ts';
import { liveState, managedBy } from '../../src/engine/live.ts';
import { indexManaged, markerOf } from '../../src/engine/ownership.ts';
import type { LiveItem } from '../../src/kinds/resource-kind.ts';
import { fakeWorld, marked } from './fakes.ts';

describe('marker serialization', () => {
  it('writes the user keys plus the marker, keys sorted at every level', () => {
    const s = serializeMetadata({ zeta: 1, alpha: { b: 2, a: 1 } }, { stack: 'prod', name: 'Edge/web' });
    expect(s).toBe('{"alpha":{"a":1,"b":2},"edgeops":{"name":"Edge/web","stack":"prod"},"zeta":1}');
  });

  it('gives the same string for the same data in any key order', () => {
    const m = { stack: 's', name: 'Pol/p' };
    expect(serializeMetadata({ a: 1, b: [2, { d: 1, c: 2 }] }, m)).toBe(serializeMetadata({ b: [2, { c: 2, d: 1 }], a: 1 }, m));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('writes only the marker when the user has no metadata', () => {
    expect(serializeMetadata(undefined, { stack: 'default', name: 'Pol/p' })).toBe('{"edgeops":{"name":"Pol/p","stack":"default"}}');
  });

  it('writes the marker alone exactly as the canonical JSON of it, whatever the stack and name hold', () => {
    const awkward = ['', 'a"b', 'back\\slash', 'line\nbreak', 'é ü 漢', '\u2028', '\u0000', '{"edgeops":1}'];
    for (const stack of awkward) {
      for (const name of awkward) {
        const canonical = canonicalJson({ edgeops: { stack, name } });
        expect(serializeMetadata(undefined, { stack, name })).toBe(canonical);
        expect(serializeMetadata({}, { stack, name })).toBe(canonical);
      }
    }
  });

  it('round-trips: parse gives back the marker and the user keys', () => {
    const user = { team: 'web', nested: { x: [1, 2] } };
    const parsed = parseMetadata(serializeMetadata(user, { stack: 'a', name: 'Back/b' }));
    expect(parsed).toEqual({ marker: { stack: 'a', name: 'Back/b' }, user });
  });

  it('counts the marker in the byte size (multi-byte characters in bytes)', () => {
    // The size metadataProblem reports for metadata over the limit.
    const bytes = (user: Record<string, string>, marker: { stack: string; name: string }): number =>
      Number(/^is (\d+) bytes as stored with the ownership marker/.exec(metadataProblem(user, marker)?.message ?? '')?.[1]);
    // No user keys: the marker alone, made too large by its stack name.
    const alone = { stack: 'x'.repeat(4100), name: 'Pol/p' };
    expect(bytes({}, alone)).toBe(Buffer.byteLength(serializeMetadata(undefined, alone)));
    const m = { stack: 'default', name: 'Pol/p' };
    const user = { k: `é${'x'.repeat(4100)}` };
    expect(bytes(user, m)).toBe(serializeMetadata(user, m).length + 1);
    expect(METADATA_LIMIT).toBe(4096);
  });
});

describe('defensive parsing: anything odd is unmanaged', () => {
  it.each([
    ['absent', undefined],
    ['empty string', ''],
    ['not JSON', 'owner=me'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"x"'],
    ['null', 'null'],
    ['marker not an object', '{"edgeops":"yes"}'],
    ['marker without stack', '{"edgeops":{"name":"Pol/p"}}'],
    ['marker with a numeric stack', '{"edgeops":{"stack":1,"name":"Pol/p"}}'],
  ])('%s', (_label, value) => {
    expect(parseMetadata(value).marker).toBeUndefined();
  });

  it('keeps the user keys of an unmarked JSON object', () => {
    expect(parseMetadata('{"owned-by":"someone"}')).toEqual({ user: { 'owned-by': 'someone' } });
  });

  it('a marker naming another kind does not count for this kind', () => {
    const { pol } = fakeWorld();
    const item = { id: 'pol_1', raw: { id: 'pol_1', metadata: marked('s', 'Edge/x') } };
    expect(markerOf(pol, item)).toBeUndefined();
    expect(markerOf(pol, { id: 'pol_2', raw: { metadata: marked('s', 'Pol/x') } })).toEqual({ stack: 's', name: 'Pol/x' });
  });
});

describe('indexManaged', () => {
  it('indexes each stack apart, and orders duplicate copies oldest first', () => {
    const { kinds } = fakeWorld();
    const live = new Map<string, LiveItem[]>([
      [
        'Pol',
        [
          { id: 'pol_9', raw: { metadata: marked('a', 'Pol/x') } },
          { id: 'pol_2', raw: { metadata: marked('a', 'Pol/x') } },
          { id: 'pol_3', raw: { metadata: marked('b', 'Pol/y') } },
          { id: 'pol_4', raw: { metadata: 'free text' } },
          { id: 'pol_5', raw: {} },
        ],
      ],
    ]);
    const byStack = indexManaged(kinds, live);
    expect([...byStack.keys()].sort()).toEqual(['a', 'b']);
    const index = byStack.get('a')!;
    expect([...index.byAddress.keys()]).toEqual(['Pol/x']);
    expect(index.byAddress.get('Pol/x')!.map((i) => i.id)).toEqual(['pol_2', 'pol_9']);
    expect([...index.managedIds].sort()).toEqual(['pol_2', 'pol_9']);
    expect([...byStack.get('b')!.byAddress.keys()]).toEqual(['Pol/y']);
  });

  it('is the live state\'s own, worked out once when it is made: every caller reads the same index', () => {
    const { kinds } = fakeWorld();
    const live = liveState(kinds, new Map<string, LiveItem[]>([['Pol', [{ id: 'pol_1', raw: { metadata: marked('a', 'Pol/x') } }]]]));
    expect(managedBy(live, 'a')).toBe(managedBy(live, 'a'));
    expect([...managedBy(live, 'a').byAddress.keys()]).toEqual(['Pol/x']);
    expect(managedBy(live, 'c').byAddress.size).toBe(0);
  });
});
