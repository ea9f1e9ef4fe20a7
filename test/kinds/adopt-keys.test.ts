// Adoption keys over KINDS: every kind that can be adopted finds its own live resource (a desired body and the
// service's response for it share a key), keys are readable, and the name slug matches export's names.
import { describe, expect, it } from 'vitest';
import { slugify } from '../../src/export/names.ts';
import { describedKeys, fieldsKey, hostportKeys, labelKeys, pemKeys } from '../../src/kinds/adopt-keys.ts';
import { KINDS } from '../../src/kinds/index.ts';
import { FIXTURES } from './fixtures.ts';

describe('adoptKeys on KINDS', () => {
  it('is given to every marker kind and to no natural-key kind (those match by their key already)', () => {
    for (const kind of KINDS) expect(typeof kind.adoptKeys, kind.kind).toBe(kind.identity === 'marker' ? 'function' : 'undefined');
  });

  it.each(KINDS.filter((k) => k.adoptKeys).map((k) => [k.kind, k] as const))('%s: desired body and live response share a key', (name, kind) => {
    // A description of its own, for the kinds known by nothing stronger (the HTTP response backend fixture has none).
    const { spec, live } = FIXTURES[name]!.spec.description ? FIXTURES[name]! : { spec: { ...FIXTURES[name]!.spec, description: 'Fixture' }, live: { ...FIXTURES[name]!.live, description: 'Fixture' } };
    const desired = kind.adoptKeys!(kind.normalizeDesired(kind.toRequest(spec)), 'fixture-name');
    const fromLive = kind.adoptKeys!(kind.fromLive(live));
    expect(fromLive.length, `${name} has no key`).toBeGreaterThan(0);
    expect(desired.filter((k) => fromLive.includes(k)).length, `${name}: ${desired} vs ${fromLive}`).toBeGreaterThan(0);
  });
});

describe('key helpers', () => {
  it('hostports: one key per hostport', () => {
    expect(hostportKeys({ hostports: ['a:1', 'b:2'] })).toEqual(['hostport a:1', 'hostport b:2']);
    expect(hostportKeys({})).toEqual([]);
    // As the service claims them: host names without case, IPv6 addresses by value.
    expect(hostportKeys({ hostports: ['WWW.Example.com:443', '[2001:DB8:0::1]:22'] })).toEqual(['hostport www.example.com:443', 'hostport [2001:db8::1]:22']);
  });

  it('described: the description, and the document name against the description slug', () => {
    expect(describedKeys({ description: 'Web Tier' }, 'web')).toEqual(['description "Web Tier"', 'name web']);
    expect(describedKeys({ description: 'Web Tier' }, undefined)).toEqual(['description "Web Tier"', 'name web-tier']);
    expect(describedKeys({}, undefined)).toEqual([]);
    expect(describedKeys({}, 'web')).toEqual(['name web']);
  });

  it('labels: the same labels in any order', () => {
    expect(labelKeys({ labels: { b: '2', a: '1' } })).toEqual(labelKeys({ labels: { a: '1', b: '2' } }));
    expect(labelKeys({ labels: {} })).toEqual([]);
  });

  it('fields: only when every field is a literal (a reference to a resource not created yet matches nothing)', () => {
    expect(fieldsKey('rule', { ip_policy_id: 'ipp_1', cidr: '10.0.0.0/8' }, ['ip_policy_id', 'cidr'])).toEqual(['rule ipp_1 10.0.0.0/8']);
    expect(fieldsKey('rule', { ip_policy_id: { $ref: 'IPPolicy/office' }, cidr: '10.0.0.0/8' }, ['ip_policy_id', 'cidr'])).toEqual([]);
  });

  it('pem: a short hash, never the PEM itself', () => {
    const [key] = pemKeys('ca_pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----');
    expect(key).toMatch(/^ca_pem sha256:[0-9a-f]{16}$/);
  });

  it('slugs descriptions exactly as export names resources, so an `export --all` directory is adopted by name', () => {
    for (const text of ['Web tier', '9.tcp.example.com:29999', 'Büro Köln', '--x--', 'a'.repeat(80), 'Ünïcødé & co.']) {
      // A document without a name of its own is matched by the description's slug.
      expect(describedKeys({ description: text }, undefined)).toEqual([`description ${JSON.stringify(text)}`, `name ${slugify(text)}`]);
    }
  });
});
