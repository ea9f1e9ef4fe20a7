// The one order names are shown in: digit runs as numbers, everything else by code unit.
import { describe, expect, it } from 'vitest';
import { naturalCompare } from '../src/natural-order.ts';

const sorted = (names: string[]): string[] => [...names].sort(naturalCompare);

describe('naturalCompare', () => {
  it('counts as a reader does', () => {
    expect(sorted(['bulk-10', 'bulk-2', 'bulk-1', 'bulk-0', 'bulk-9'])).toEqual(['bulk-0', 'bulk-1', 'bulk-2', 'bulk-9', 'bulk-10']);
    expect(sorted(['IPPolicy/bulk-10', 'IPPolicy/bulk-2', 'IPPolicy/a'])).toEqual(['IPPolicy/a', 'IPPolicy/bulk-2', 'IPPolicy/bulk-10']);
    expect(sorted(['v1.10.0', 'v1.9.2', 'v1.9.10'])).toEqual(['v1.9.2', 'v1.9.10', 'v1.10.0']);
  });

  it('orders text by code unit, not by locale, and a prefix first', () => {
    expect(sorted(['b', 'B', 'a', 'ab', 'é'])).toEqual(['B', 'a', 'ab', 'b', 'é']);
    expect(sorted(['web-1a', 'web-1', 'web'])).toEqual(['web', 'web-1', 'web-1a']);
  });

  it('compares numbers of any length, and is a total order: equal only for equal strings', () => {
    expect(naturalCompare('n-99999999999999999999999', 'n-100000000000000000000000')).toBeLessThan(0);
    expect(naturalCompare('x-01', 'x-1')).not.toBe(0);
    expect(Math.sign(naturalCompare('x-01', 'x-1'))).toBe(-Math.sign(naturalCompare('x-1', 'x-01')));
    expect(naturalCompare('x-2', 'x-02')).not.toBe(0);
    expect(sorted(['x-2', 'x-01', 'x-1', 'x-02'])).toEqual(['x-01', 'x-1', 'x-02', 'x-2']);
    expect(naturalCompare('same-7', 'same-7')).toBe(0);
    expect(naturalCompare('', 'a')).toBeLessThan(0);
  });
});
