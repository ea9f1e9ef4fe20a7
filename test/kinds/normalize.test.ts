// Specific normalization rules of the design's "Plan and apply", one case each, on plain objects.
import { describe, expect, it } from 'vitest';
import { kindByName } from '../../src/kinds/index.ts';
import type { Obj, ResourceKind } from '../../src/kinds/resource-kind.ts';

const k = (name: string): ResourceKind => kindByName(name)!;
const desired = (name: string, spec: Obj): Obj => k(name).normalizeDesired(k(name).toRequest(spec));

describe('edges', () => {
  it('treat hostports null, [] and absent alike', () => {
    expect(k('TCPEdge').fromLive({ id: 'edgtcp_1', hostports: null, backend: null })).toEqual({});
    expect(desired('TCPEdge', { hostports: [] })).toEqual({});
  });

  it('keep hostports and ip_policy_ids in the given order (the service keeps it)', () => {
    const body = desired('TCPEdge', {
      hostports: ['b:2', 'a:1'],
      ip_restriction: { ip_policy_ids: ['ipp_b', 'ipp_a'] },
    });
    expect(body.hostports).toEqual(['b:2', 'a:1']);
    expect(body.ip_restriction).toEqual({ enabled: true, ip_policy_ids: ['ipp_b', 'ipp_a'] });
  });

  it('default a module enabled to true but keep an explicit false', () => {
    expect(desired('TCPEdge', { backend: { backend_id: 'bkdtg_1' } }).backend).toEqual({
      enabled: true,
      backend_id: 'bkdtg_1',
    });
    expect(desired('TCPEdge', { backend: { enabled: false, backend_id: 'bkdtg_1' } }).backend).toEqual({
      enabled: false,
      backend_id: 'bkdtg_1',
    });
  });

  it('keep a pending reference where the id will go', () => {
    const body = desired('TCPEdge', {
      backend: { backend_id: { $ref: 'TunnelGroupBackend/web' } },
      ip_restriction: { ip_policy_ids: [{ $ref: 'IPPolicy/office' }, 'ipp_1'] },
    });
    expect(body.backend).toEqual({ enabled: true, backend_id: { $ref: 'TunnelGroupBackend/web' } });
    expect(body.ip_restriction).toEqual({ enabled: true, ip_policy_ids: [{ $ref: 'IPPolicy/office' }, 'ipp_1'] });
  });

  it('treat min_version null as unsent and default terminate_at to edge', () => {
    const live = k('TLSEdge').fromLive({
      tls_termination: { enabled: true, terminate_at: 'edge', min_version: null },
    });
    expect(live.tls_termination).toEqual({ enabled: true, terminate_at: 'edge' });
    expect(desired('TLSEdge', { tls_termination: {} }).tls_termination).toEqual(live.tls_termination);
    expect(desired('TLSEdge', { tls_termination: { terminate_at: 'upstream', min_version: null } }).tls_termination)
      .toEqual({ enabled: true, terminate_at: 'upstream' });
  });

  it('drop terminate_at of an HTTPS edge, which may not be sent', () => {
    const live = k('HTTPSEdge').fromLive({ tls_termination: { enabled: true, terminate_at: 'edge', min_version: '1.3' } });
    expect(live).toEqual({ tls_termination: { enabled: true, min_version: '1.3' } });
  });

  it('turn single policy rules and actions into lists', () => {
    const body = desired('TCPEdge', {
      policy: { inbound: { name: 'r', expressions: ['x'], actions: { type: 'deny', config: { status_code: 403 } } } },
    });
    expect(body.policy).toEqual({
      enabled: true,
      inbound: [{ name: 'r', expressions: ['x'], actions: [{ type: 'deny', config: { status_code: 403 } }] }],
      outbound: [],
    });
  });

  it('leave a metadata string as a string (the engine parses the marker)', () => {
    expect(k('TCPEdge').fromLive({ metadata: '{"edgeops":{}}' }).metadata).toBe('{"edgeops":{}}');
  });

  it('drop the HTTPS edge routes and a route response_headers (other kinds manage them)', () => {
    expect(k('HTTPSEdge').fromLive({ routes: [{ id: 'edghtsrt_1' }] })).toEqual({});
    expect(k('HTTPSEdgeRoute').fromLive({ edge_id: 'edghts_1', response_headers: { enabled: true } })).toEqual({
      edge_id: 'edghts_1',
    });
  });
});

describe('backends and rules', () => {
  it('default an HTTP response backend status_code to 200 and lower-case header names', () => {
    expect(desired('HTTPResponseBackend', { body: 'x', headers: { 'X-A': '1' } })).toEqual({
      body: 'x',
      headers: { 'x-a': '1' },
      status_code: 200,
    });
    expect(k('HTTPResponseBackend').fromLive({ body: 'x', headers: null, status_code: 200 })).toEqual({
      body: 'x',
      status_code: 200,
    });
    expect(desired('HTTPResponseBackend', { body: 'x', headers: {}, status_code: 503 })).toEqual({
      body: 'x',
      status_code: 503,
    });
  });

  it('treat empty description and metadata as absent', () => {
    expect(desired('IPPolicy', { description: '', metadata: '' })).toEqual({});
    expect(k('IPPolicy').fromLive({ description: null })).toEqual({});
  });

  it('turn an IP policy rule ip_policy Ref into ip_policy_id', () => {
    expect(k('IPPolicyRule').fromLive({ ip_policy: { id: 'ipp_9', uri: 'u' }, cidr: '::/0', action: 'deny' })).toEqual({
      ip_policy_id: 'ipp_9',
      cidr: '::/0',
      action: 'deny',
    });
  });

  it('give a tunnel group backend without labels an empty label map', () => {
    expect(desired('TunnelGroupBackend', {})).toEqual({ labels: {} });
  });
});

describe('certificates', () => {
  it('compare PEMs modulo line endings and trailing whitespace', () => {
    expect(desired('CertificateAuthority', { ca_pem: 'A  \r\nB\r\n\r\n' })).toEqual({ ca_pem: 'A\nB' });
    expect(desired('TLSCertificate', { certificate_pem: 'A\r\nB\n', private_key_pem: 'K' })).toEqual({
      certificate_pem: 'A\nB',
      private_key_pem: 'K',
    });
    expect(k('CertificateAuthority').fromLive({ ca_pem: 'A\nB\n', subject_common_name: 'x' })).toEqual({ ca_pem: 'A\nB' });
  });
});

describe('event subscriptions and sources', () => {
  it('never send or compare a subscription sources (EventSources manages them)', () => {
    expect(desired('EventSubscription', { description: 'd', sources: [{ type: 't' }] })).toEqual({
      description: 'd',
      destination_ids: [],
    });
    expect(
      k('EventSubscription').fromLive({ sources: [{ type: 't' }], destinations: [{ id: 'ed_1', uri: 'u' }] }),
    ).toEqual({ destination_ids: ['ed_1'] });
  });

  it('compare source types as a set', () => {
    expect(desired('EventSources', { subscription_id: 'esb_1', types: ['b', 'a', 'b'] })).toEqual({
      subscription_id: 'esb_1',
      types: ['a', 'b'],
    });
    expect(k('EventSources').naturalKey!({ subscription_id: 'esb_1', types: [] })).toBe('esb_1');
  });
});

describe('route response headers', () => {
  it('default add and remove, lower-case names, key by edge and route', () => {
    const body = desired('RouteResponseHeaders', { edge_id: 'edghts_1', route_id: 'edghtsrt_1', remove: ['Server'] });
    expect(body).toEqual({ edge_id: 'edghts_1', route_id: 'edghtsrt_1', enabled: true, add: {}, remove: ['server'] });
    expect(k('RouteResponseHeaders').naturalKey!(body)).toBe('edghts_1/edghtsrt_1');
  });
});
