// Generated names and file names of an export: valid manifest names, readable, unique per kind.
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.ts';
import { isValidName, kindFileName, kindSlug, MAX_NAME, NameBook, placeholderEnvVar, slugify } from '../../src/export/names.ts';
import { kindsByDependency, parentRef } from '../../src/export/select.ts';

describe('export names', () => {
  it('slugifies into valid manifest names', () => {
    expect(slugify('*.Example.com:443')).toBe('example-com-443');
    expect(slugify('  Büro Netz / v4 ')).toBe('buro-netz-v4');
    expect(slugify('203.0.113.0/24')).toBe('203-0-113-0-24');
    expect(slugify('---')).toBe('');
    const long = slugify('x'.repeat(63) + ' y z');
    expect(long.length).toBeLessThanOrEqual(MAX_NAME);
    expect(isValidName(long)).toBe(true);
  });

  it('one file per kind, every kind a distinct file', () => {
    expect(kindSlug('HTTPSEdgeRoute')).toBe('https-edge-route');
    expect(KINDS.map((k) => kindFileName(k.kind))).toEqual([
      'ip-policies.yaml', 'ip-policy-rules.yaml', 'certificate-authorities.yaml', 'tls-certificates.yaml',
      'tunnel-group-backends.yaml', 'http-response-backends.yaml', 'tcp-edges.yaml', 'tls-edges.yaml', 'https-edges.yaml',
      'https-edge-routes.yaml', 'route-response-headers.yaml', 'event-subscriptions.yaml', 'event-sources.yaml',
    ]);
  });

  it('reserved names win, generated ones get a suffix and stay within the limit', () => {
    const book = new NameBook();
    book.reserve('web');
    expect(book.unique('web')).toBe('web-2');
    expect(book.unique('web')).toBe('web-3');
    const base = 'a'.repeat(MAX_NAME);
    expect(book.unique(base)).toBe(base);
    const second = book.unique(base);
    expect(second).toBe(`${'a'.repeat(MAX_NAME - 2)}-2`);
    expect(isValidName(second)).toBe(true);
  });

  it('placeholder variables are valid environment variable names', () => {
    expect(placeholderEnvVar('KEY', 'www-example-com')).toBe('EDGEOPS_KEY_WWW_EXAMPLE_COM');
    expect(placeholderEnvVar('KEY', '9-tcp')).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
  });

  it('names parents before children, and knows which kinds have a parent', () => {
    const order = kindsByDependency(KINDS).map((k) => k.kind);
    for (const kind of KINDS) for (const target of kind.refs.flatMap((r) => r.kinds)) expect(order.indexOf(target)).toBeLessThan(order.indexOf(kind.kind));
    const withParent = KINDS.filter((k) => parentRef(k)).map((k) => `${k.kind}${parentRef(k)!.pointer}`);
    expect(withParent).toEqual(['IPPolicyRule/ip_policy_id', 'HTTPSEdgeRoute/edge_id', 'RouteResponseHeaders/route_id', 'EventSources/subscription_id']);
  });
});
