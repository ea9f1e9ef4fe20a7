// Table test over KINDS: every descriptor is complete and consistent, and its normalization round-trips.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KINDS, kindByName } from '../../src/kinds/index.ts';
import { FIXTURES } from './fixtures.ts';

const schemaFile = (kind: string): URL => new URL(`../../schemas/${kind}.schema.json`, import.meta.url);

describe('KINDS', () => {
  it('has unique kind names and id prefixes, and kindByName finds each', () => {
    const names = KINDS.map((k) => k.kind);
    expect(new Set(names).size).toBe(names.length);
    const prefixes = KINDS.flatMap((k) => (k.idPrefix ? [k.idPrefix] : []));
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const k of KINDS) expect(kindByName(k.kind)).toBe(k);
    expect(kindByName('NoSuchKind')).toBeUndefined();
  });

  it('holds every kind of the design (docs/design.md, Manifests)', () => {
    expect(KINDS.map((k) => k.kind).sort()).toEqual(
      [
        'CertificateAuthority',
        'EventSources',
        'EventSubscription',
        'HTTPResponseBackend',
        'HTTPSEdge',
        'HTTPSEdgeRoute',
        'IPPolicy',
        'IPPolicyRule',
        'RouteResponseHeaders',
        'TCPEdge',
        'TLSCertificate',
        'TLSEdge',
        'TunnelGroupBackend',
      ].sort(),
    );
  });

  it('has a fixture for every kind (so the round-trip below covers them all)', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual(KINDS.map((k) => k.kind).sort());
  });
});

describe.each(KINDS.map((k) => [k.kind, k] as const))('%s', (name, kind) => {
  const fixture = FIXTURES[name]!;

  it('declares identity consistently: marker kinds have an id prefix, natural ones a naturalKey', () => {
    if (kind.identity === 'marker') {
      expect(kind.idPrefix).toMatch(/^[a-z]+_$/);
      expect(kind.naturalKey).toBeUndefined();
    } else {
      expect(kind.idPrefix).toBeUndefined();
      expect(typeof kind.naturalKey).toBe('function');
      expect(kind.refs.length).toBeGreaterThan(0);
    }
  });

  it('references only existing kinds, through pointers into the request shape', () => {
    for (const ref of kind.refs) {
      expect(ref.pointer).toMatch(/^(\/[a-z_]+)+(\/\*)?$/);
      expect(ref.kinds.length).toBeGreaterThan(0);
      for (const target of ref.kinds) expect(kindByName(target), `${ref.pointer} -> ${target}`).toBeDefined();
    }
  });

  it('has a schema file whose properties include every declared field', () => {
    const file = schemaFile(name);
    expect(existsSync(file), `schemas/${name}.schema.json`).toBe(true);
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { properties?: Record<string, unknown> };
    const props = Object.keys(schema.properties ?? {});
    const declared = [
      ...kind.immutable,
      ...kind.secrets,
      ...kind.writeOnly,
      ...kind.modules,
      ...kind.refs.map((r) => r.pointer.split('/')[1]!),
    ];
    for (const field of declared) expect(props, field).toContain(field);
  });

  it('declares immutable, secret, write-only, module and ref fields that are request fields', () => {
    const request = kind.toRequest(fixture.spec);
    const top = new Set(Object.keys(request));
    for (const field of [...kind.immutable, ...kind.secrets, ...kind.writeOnly, ...kind.modules]) {
      expect(top, field).toContain(field);
    }
    for (const ref of kind.refs) expect(top, ref.pointer).toContain(ref.pointer.split('/')[1]);
    for (const field of kind.writeOnly) expect(kind.secrets.includes(field) || kind.immutable.includes(field)).toBe(true);
  });

  it('normalizes the live response after a create to exactly the desired body', () => {
    const desired = kind.normalizeDesired(kind.toRequest(fixture.spec));
    const live = kind.fromLive(fixture.live);
    const { writeOnly } = kind;
    const withoutWriteOnly = Object.fromEntries(Object.entries(desired).filter(([k]) => !writeOnly.includes(k)));
    expect(live).toEqual(withoutWriteOnly);
  });

  it('normalizes idempotently', () => {
    const desired = kind.normalizeDesired(kind.toRequest(fixture.spec));
    expect(kind.normalizeDesired(desired)).toEqual(desired);
    const live = kind.fromLive(fixture.live);
    expect(kind.normalizeDesired(live)).toEqual(live);
  });

  it('does not modify its inputs', () => {
    const spec = structuredClone(fixture.spec);
    const live = structuredClone(fixture.live);
    kind.normalizeDesired(kind.toRequest(spec));
    kind.fromLive(live);
    expect(spec).toEqual(fixture.spec);
    expect(live).toEqual(fixture.live);
  });

  it('drops every service-only field from the live shape', () => {
    const live = kind.fromLive(fixture.live);
    for (const field of ['id', 'uri', 'created_at', 'tunnels', 'routes', 'sources', 'destinations']) {
      expect(live).not.toHaveProperty(field);
    }
  });
});
