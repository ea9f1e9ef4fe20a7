// Generated names and file names of an export: valid manifest names, readable, unique per kind.
import { describe, expect, it } from 'vitest';
import { liveState } from '../../src/engine/live.ts';
import { KINDS } from '../../src/kinds/index.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import { isValidName, kindFileName, kindSlug, NameBook, placeholderEnvVar, slugify } from '../../src/export/names.ts';
import { selectForExport } from '../../src/export/select.ts';
import { FIXTURES } from '../kinds/fixtures.ts';

/** The manifest rule's length limit of a name. */
const MAX_NAME = 64;

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
    // One live resource of every kind, none with a marker: the kinds' fixtures, which reference each other by id.
    const liveId = (raw: Obj): string => (typeof raw.id === 'string' ? raw.id : raw.route_id ? `${String(raw.edge_id)}/${String(raw.route_id)}` : String(raw.subscription_id));
    const live = liveState(KINDS, new Map(KINDS.map((k) => [k.kind, [{ id: liveId(FIXTURES[k.kind]!.live), raw: FIXTURES[k.kind]!.live }]])));
    // Given children first: the export orders the kinds by their references itself.
    const { entries } = selectForExport([...KINDS].reverse(), live, { stack: 's', all: true });
    const order = entries.map((e) => e.kind.kind);
    expect([...order].sort()).toEqual(KINDS.map((k) => k.kind).sort());
    for (const kind of KINDS) for (const target of kind.refs.flatMap((r) => r.kinds)) expect(order.indexOf(target)).toBeLessThan(order.indexOf(kind.kind));
    // A kind with a parent (its first reference, a top-level field the service cannot change) is named after it:
    // IPPolicyRule by ip_policy_id, HTTPSEdgeRoute by edge_id, RouteResponseHeaders by route_id, EventSources by
    // subscription_id. No other kind is, whatever it references.
    expect(Object.fromEntries(entries.map((e) => [e.kind.kind, e.name]))).toEqual({
      IPPolicy: 'office',
      IPPolicyRule: 'office-hq',
      CertificateAuthority: 'clients',
      TLSCertificate: 'wildcard',
      TunnelGroupBackend: 'web',
      HTTPResponseBackend: 'http-response-backend',
      TCPEdge: 'ssh',
      TLSEdge: 'app-example-com-443',
      HTTPSEdge: 'site',
      HTTPSEdgeRoute: 'site-api',
      RouteResponseHeaders: 'site-api-headers',
      EventSubscription: 'audit',
      EventSources: 'audit-sources',
    });
  });
});
