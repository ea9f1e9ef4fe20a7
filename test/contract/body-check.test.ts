// Checking bodies against contract schemas, without HTTP: the codes, the paths messages name, which problem
// comes first, null as an absent field, keys that are Object.prototype's names, numbers that are not finite.
import { describe, expect, it } from 'vitest';
import { bodyProblem, withoutNulls } from '../../src/contract/body-check.ts';
import type { BodySchema } from '../../src/contract/index.ts';
import { object } from '../../src/contract/schema.ts';
import { CONTRACT_KINDS } from '../../src/contract/index.ts';

const schema: BodySchema = object({
  name: { type: 'string' },
  count: { type: 'integer', minimum: 1, maximum: 5 },
  tags: { type: 'array', items: { type: 'string' } },
  inner: object({ on: { type: 'string' } }, ['on']),
  labels: { type: 'object', additionalProperties: { type: 'string' }, mapKeys: 'nonempty' },
  headers: { type: 'object', additionalProperties: { type: 'string', rule: 'header_value' }, mapKeys: 'header_name' },
});

const check = (body: unknown, s: BodySchema = schema, base = '') => bodyProblem(s, withoutNulls(body, s), base);
const kind = (name: string) => CONTRACT_KINDS.find((k) => k.kind === name)!;

describe('bodyProblem', () => {
  it('counts a length limit in UTF-8 bytes, at the limit and one past it', () => {
    const limited: BodySchema = object({ text: { type: 'string', maxBytes: 6 } });
    for (const [text, over] of [['abcdef', false], ['abcdefg', true], ['ééé', false], ['éééa', true], ['漢漢', false], ['漢漢a', true], ['😀', false], ['😀😀', true], ['', false]] as const) {
      expect(check({ text }, limited)?.message, text).toBe(over ? 'text: longer than 6 bytes' : undefined);
    }
  });

  it('null is an absent field; an unknown field is refused even when null', () => {
    expect(check({ name: 'a', count: null, inner: null })).toBeUndefined();
    expect(check({ bogus: null })?.code).toBe('ERR_UNKNOWN_FIELD');
    expect(check({ inner: { on: null } })).toEqual({ code: 'ERR_FIELD_REQUIRED', message: 'inner.on: required', pointer: '/inner', reason: 'missing field "on"' });
  });

  it('names nested paths in errors', () => {
    expect(check({ inner: { on: 1 } })?.message).toBe('inner.on: expected a string, got number');
    expect(check({ tags: ['a', 2] })?.message).toBe('tags[1]: expected a string, got number');
    expect(check({ inner: { on: 'x', off: 1 } })?.message).toBe('unknown field "inner.off"; allowed: on');
    expect(check({ name: 1 }, schema, 'module')?.message).toBe('module.name: expected a string, got number');
  });

  it('uses distinct codes per failure', () => {
    expect(check({ nope: 1 })?.code).toBe('ERR_UNKNOWN_FIELD');
    expect(check({ name: 1 })?.code).toBe('ERR_FIELD_TYPE');
    expect(check({ count: 9 })).toEqual({ code: 'ERR_FIELD_INVALID', message: 'count: must be from 1 to 5, got 9', pointer: '/count', reason: 'must be from 1 to 5, got 9' });
    expect(check({ count: 1.5 })?.code).toBe('ERR_FIELD_TYPE');
    expect(check({ count: Infinity })).toEqual({ code: 'ERR_FIELD_INVALID', message: 'count: number out of range (not finite)', pointer: '/count', reason: 'number out of range (not finite)' });
    expect(check({ labels: { '': 'x' } })?.code).toBe('ERR_MAP_KEY_INVALID');
  });

  it('reports the first problem in body order, a missing required field after the fields sent', () => {
    expect(check({ name: 1, count: 'x' })?.message).toContain('name:');
    expect(check({ count: 'x', name: 1 })?.message).toContain('count:');
    expect(check({ inner: { x: 1 } })?.code).toBe('ERR_UNKNOWN_FIELD');
    expect(check({ inner: {}, name: 1 })?.message).toBe('inner.on: required');
  });

  it('does not let "__proto__" or "constructor" through as fields, and keeps them as map keys', () => {
    expect(check(JSON.parse('{"__proto__": {"name": "x"}}'))?.code).toBe('ERR_UNKNOWN_FIELD');
    expect(check({ constructor: 'x' })?.code).toBe('ERR_UNKNOWN_FIELD');
    expect(check({ labels: { toString: 1 } })?.code).toBe('ERR_FIELD_TYPE');
    const kept = withoutNulls(JSON.parse('{"labels": {"__proto__": "x"}}'), schema) as { labels: object };
    expect(Object.keys(kept.labels)).toEqual(['__proto__']);
    expect(check(JSON.parse('{"labels": {"__proto__": "x"}}'))).toBeUndefined();
  });

  it('drops the null fields of fixed-shape objects at any depth, keeps a map\'s, and copies only what changes', () => {
    const plain = { name: 'a', tags: ['x'], inner: { on: 'y' }, labels: { a: 'b' } };
    expect(withoutNulls(plain, schema)).toBe(plain);
    const nested = { name: 'a', tags: ['x'], inner: { on: 'y', off: null }, labels: { a: null } };
    const kept = withoutNulls(nested, schema) as typeof nested;
    expect(kept).toEqual({ name: 'a', tags: ['x'], inner: { on: 'y', off: null }, labels: { a: null } });
    const dropped = withoutNulls({ name: null, count: 2, inner: { on: null }, tags: ['x'] }, schema) as Record<string, unknown>;
    expect(dropped).toEqual({ count: 2, inner: {}, tags: ['x'] });
    expect(Object.keys(dropped)).toEqual(['count', 'inner', 'tags']);
    const shared = { tags: ['x'], inner: { on: null } };
    expect((withoutNulls(shared, schema) as typeof shared).tags).toBe(shared.tags);
  });

  it('header maps: names are tokens, unique ignoring case; values without control characters', () => {
    expect(check({ headers: { 'X-A': '1', b: '' } })).toBeUndefined();
    expect(check({ headers: { 'X-A': '1', 'x-a': '2' } })).toEqual({
      code: 'ERR_HEADER_DUPLICATE', message: 'headers["x-a"]: "x-a" given twice (names ignore case)', pointer: '/headers/x-a', reason: '"x-a" given twice (names ignore case)',
    });
    expect(check({ headers: { 'a b': '1' } })?.code).toBe('ERR_HEADER_NAME_INVALID');
    expect(check({ headers: { '': '1' } })?.code).toBe('ERR_HEADER_NAME_INVALID');
    expect(check({ headers: { a: 'x\r\ny' } })?.code).toBe('ERR_HEADER_VALUE_INVALID');
  });
});

describe('the contract schemas', () => {
  it('check value rules with the rule codes', () => {
    const rule = kind('ip_policy_rule');
    expect(check({ cidr: '10.0.0.1/8', ip_policy_id: 'ipp_1', action: 'allow' }, rule.create)?.code).toBe('ERR_CIDR_HOST_BITS_SET');
    expect(check({ cidr: 'fe80::1%eth0/128', ip_policy_id: 'ipp_1', action: 'allow' }, rule.create)?.code).toBe('ERR_CIDR_INVALID');
    expect(check({ cidr: '10.0.0.0/8', ip_policy_id: 'ipp_1', action: 'maybe' }, rule.create)?.code).toBe('ERR_ACTION_INVALID');
    const tcp = kind('tcp_edge');
    expect(check({ hostports: ['a.example.com:443', 'A.example.com:443'] }, tcp.create)?.code).toBe('ERR_HOSTPORT_DUPLICATE');
    expect(check({ hostports: ['1.2.3:443'] }, tcp.create)).toEqual({
      code: 'ERR_HOSTPORT_INVALID', message: 'hostports[0]: "1.2.3:443" has an invalid IPv4 address', pointer: '/hostports/0', reason: '"1.2.3:443" has an invalid IPv4 address',
    });
    expect(check({ description: 'é'.repeat(128) }, tcp.create)?.code).toBe('ERR_DESCRIPTION_TOO_LONG');
    expect(check({ ip_restriction: { ip_policy_ids: [] } }, tcp.create)?.code).toBe('ERR_IP_POLICY_IDS_EMPTY');
    expect(check({ ip_restriction: { ip_policy_ids: ['a', 'a'] } }, tcp.create)?.message).toBe('ip_restriction.ip_policy_ids[1]: "a" is listed twice');
  });

  it('take one policy rule or action where the public API sends a list', () => {
    const policy = kind('tcp_edge').modules.find((m) => m.name === 'policy')!.schema;
    expect(check({ inbound: { expressions: [], actions: { type: 'deny' } } }, policy)).toBeUndefined();
    expect(check({ inbound: [{ expressions: [], actions: [] }] }, policy, 'policy')?.code).toBe('ERR_POLICY_INVALID');
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(check({ inbound: { expressions: [], actions: { type: 'x', config: { deep } } } }, policy, 'policy')?.code).toBe('ERR_POLICY_INVALID');
  });

  it('refuse a deeply nested value quickly and without overflowing the stack', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(check(JSON.parse(`{"description": ${deep}}`), kind('tcp_edge').create)?.code).toBe('ERR_FIELD_TYPE');
    expect(check(JSON.parse(`{"policy": {"inbound": {"expressions": [], "actions": {"type": "x", "config": {"a": ${deep}}}}}}`), kind('tcp_edge').create)?.code).toBe('ERR_POLICY_INVALID');
  });
});
