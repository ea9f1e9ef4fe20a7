// The one field-path notation: pointers in, the path people read out, the same in every output.
import { describe, expect, it } from 'vitest';
import { childPointer, fieldPattern, patternField, showKey, showPath, splitPointer } from '../../src/contract/field-path.ts';
import { CONTRACT_KINDS } from '../../src/contract/index.ts';

describe('splitPointer', () => {
  it('splits and unescapes (RFC 6901), the whole value having no segments', () => {
    expect(splitPointer('')).toEqual([]);
    expect(splitPointer('/backend/backend_id')).toEqual(['backend', 'backend_id']);
    expect(splitPointer('/labels/app.kubernetes.io~1name/0')).toEqual(['labels', 'app.kubernetes.io/name', '0']);
    expect(splitPointer('/a~01')).toEqual(['a~1']);
    expect(splitPointer('/')).toEqual(['']);
  });

  it('is the inverse of childPointer', () => {
    for (const key of ['x', 'a/b', '~', '~1', '', 'x-test']) expect(splitPointer(childPointer('/top', key))).toEqual(['top', key]);
    expect(childPointer('/hostports', 2)).toBe('/hostports/2');
  });
});

describe('showPath', () => {
  it.each([
    ['', ''],
    ['/backend/backend_id', 'backend.backend_id'],
    ['/ip_restriction/ip_policy_ids/0', 'ip_restriction.ip_policy_ids[0]'],
    ['/labels/dc', 'labels.dc'],
    ['/on_tcp_connect/0', 'on_tcp_connect[0]'],
    ['/add/x-test', 'add["x-test"]'],
    ['/labels/app.kubernetes.io~1name', 'labels["app.kubernetes.io/name"]'],
    ['/policy/inbound/10/actions/0/type', 'policy.inbound[10].actions[0].type'],
    ['/headers/a"b', 'headers["a\\"b"]'],
    ['/0', '["0"]'],
    ['/labels/', 'labels[""]'],
  ])('%s reads %s', (pointer, path) => {
    expect(showPath(pointer)).toBe(path);
  });

  it('with the value it points into, a segment is an index exactly when its value is a list', () => {
    const body = { labels: { '0': 'zero' }, hostports: ['a:1', 'b:2'] };
    expect(showPath('/labels/0', body)).toBe('labels["0"]');
    expect(showPath('/hostports/1', body)).toBe('hostports[1]');
    expect(showPath('/labels/0')).toBe('labels[0]');
    // A field the value lacks (a missing or unknown one) is still a key.
    expect(showPath('/missing/3', body)).toBe('missing["3"]');
  });

  it('quotes a key exactly when it is not an identifier', () => {
    expect(showKey('backend_id')).toBe('backend_id');
    expect(showKey('_x9')).toBe('_x9');
    expect(showKey('9x')).toBe('"9x"');
    expect(showKey('x-test')).toBe('"x-test"');
  });
});

describe('the contract notation of a body field (`[]`: each item of a list)', () => {
  it.each([
    ['backend.backend_id', '/backend/backend_id'],
    ['ip_restriction.ip_policy_ids[]', '/ip_restriction/ip_policy_ids/*'],
    ['destination_ids[]', '/destination_ids/*'],
    ['parent_id', '/parent_id'],
  ])('%s is the pointer pattern %s, and back', (field, pattern) => {
    expect(fieldPattern(field)).toBe(pattern);
    expect(patternField(pattern)).toBe(field);
  });

  it('round-trips every reference field the contract declares', () => {
    const fields = CONTRACT_KINDS.flatMap((k) => k.refs.map((r) => r.field));
    expect(fields).toContain('ip_restriction.ip_policy_ids[]');
    for (const field of fields) expect(patternField(fieldPattern(field))).toBe(field);
  });
});
