// Conformance of /edges/tls over real HTTP: the TCP edge's behaviour plus mutual_tls and tls_termination,
// the upstream-termination rule (only backend and ip_restriction) on create, PATCH and the merged result,
// certificate authority references, and hostports shared with the other edge kinds.
import { describe, expect, it } from 'vitest';
import { expectError, serviceForFile } from '../helpers/service.ts';
import {
  backendRef, certificateAuthority, edgeSnapshot, freshHostport, generated, ipPolicy, ok, ref, tunnelGroupBackend, type Body,
} from './edge-fixtures.ts';

const { svc, c } = serviceForFile();

describe('TLS edge CRUD', () => {
  it('creates a bare edge: 201, every module null', async () => {
    const body = ok(await c.post('/edges/tls', {}), 201);
    expect(body).toStrictEqual({
      ...generated('edgtls', svc, '/edges/tls'),
      hostports: null, backend: null, ip_restriction: null, mutual_tls: null, tls_termination: null, policy: null, traffic_policy: null,
    });
  });

  it('creates a full edge with every module in the returned shape', async () => {
    const backend = await tunnelGroupBackend(c);
    const policy = await ipPolicy(c);
    const [ca1, ca2] = [await certificateAuthority(c), await certificateAuthority(c)];
    const hostport = freshHostport('tls.example.com');
    const body = ok(await c.post('/edges/tls', {
      description: 'tls', metadata: 'meta', hostports: [hostport],
      backend: { backend_id: backend },
      ip_restriction: { ip_policy_ids: [policy] },
      mutual_tls: { enabled: false, certificate_authority_ids: [ca1, ca2] },
      tls_termination: { terminate_at: 'edge', min_version: '1.3' },
      policy: { inbound: [{ expressions: ['true'], actions: [{ type: 'deny' }] }] },
    }), 201);
    expect(body).toStrictEqual({
      ...generated('edgtls', svc, '/edges/tls'),
      description: 'tls',
      metadata: 'meta',
      hostports: [hostport],
      backend: { enabled: true, backend: backendRef(svc, backend) },
      ip_restriction: { enabled: true, ip_policies: [ref(svc, '/ip_policies', policy)] },
      mutual_tls: { enabled: false, certificate_authorities: [ref(svc, '/certificate_authorities', ca1), ref(svc, '/certificate_authorities', ca2)] },
      tls_termination: { enabled: true, terminate_at: 'edge', min_version: '1.3' },
      policy: { enabled: true, inbound: [{ expressions: ['true'], actions: [{ type: 'deny' }] }], outbound: [] },
      traffic_policy: null,
    });
    expect(ok(await c.get(`/edges/tls/${body.id}`))).toStrictEqual(body);
    const listed = await c.listAll('/edges/tls', 'tls_edges');
    expect(listed).toContainEqual(body);
  });

  it('lists under tls_edges with uri and next_page_uri', async () => {
    ok(await c.post('/edges/tls', {}), 201);
    const page = ok(await c.get('/edges/tls'));
    expect(Object.keys(page).sort()).toEqual(['next_page_uri', 'tls_edges', 'uri']);
    expect(page.uri).toBe(`${svc.url}/edges/tls`);
    expect(page.next_page_uri).toBeNull();
  });

  it('PATCH changes only what is sent; delete is 204 then 404', async () => {
    const ca = await certificateAuthority(c);
    const edge = ok(await c.post('/edges/tls', { mutual_tls: { certificate_authority_ids: [ca] }, tls_termination: { terminate_at: 'edge' } }), 201);
    const patched = ok(await c.patch(`/edges/tls/${edge.id}`, { id: edge.id, metadata: 'x', tls_termination: { terminate_at: 'edge', min_version: '1.2' } }));
    expect(patched).toStrictEqual({ ...edge, metadata: 'x', tls_termination: { enabled: true, terminate_at: 'edge', min_version: '1.2' } });
    expect((await c.del(`/edges/tls/${edge.id}`)).status).toBe(204);
    expectError(await c.get(`/edges/tls/${edge.id}`), 404, 'ERR_TLS_EDGE_NOT_FOUND');
  });
});

describe('tls_termination', () => {
  it('min_version is returned null when not sent (the stored value, not a default)', async () => {
    const body = ok(await c.post('/edges/tls', { tls_termination: { terminate_at: 'edge' } }), 201);
    expect(body.tls_termination).toStrictEqual({ enabled: true, terminate_at: 'edge', min_version: null });
  });

  it.each(['1.0', '1.1', '1.2', '1.3'])('takes min_version %s', async (v) => {
    const body = ok(await c.post('/edges/tls', { tls_termination: { terminate_at: 'edge', min_version: v } }), 201);
    expect(body.tls_termination).toStrictEqual({ enabled: true, terminate_at: 'edge', min_version: v });
  });

  it('upstream termination with backend and ip_restriction only', async () => {
    const backend = await tunnelGroupBackend(c);
    const policy = await ipPolicy(c);
    const body = ok(await c.post('/edges/tls', {
      backend: { backend_id: backend }, ip_restriction: { ip_policy_ids: [policy] },
      tls_termination: { enabled: false, terminate_at: 'upstream', min_version: null },
    }), 201);
    expect(body.tls_termination).toStrictEqual({ enabled: false, terminate_at: 'upstream', min_version: null });
  });

  it.each([
    [{ terminate_at: 'agent' }, 'ERR_TERMINATE_AT_INVALID', 'tls_termination.terminate_at'],
    [{ terminate_at: 'EDGE' }, 'ERR_TERMINATE_AT_INVALID', 'tls_termination.terminate_at'],
    [{}, 'ERR_FIELD_REQUIRED', 'tls_termination.terminate_at'],
    [{ min_version: '1.2' }, 'ERR_FIELD_REQUIRED', 'tls_termination.terminate_at'],
    [{ terminate_at: 'edge', min_version: '1.4' }, 'ERR_MIN_VERSION_INVALID', 'tls_termination.min_version'],
    [{ terminate_at: 'edge', min_version: 'TLS1.2' }, 'ERR_MIN_VERSION_INVALID', 'tls_termination.min_version'],
    [{ terminate_at: 'edge', min_version: 1.2 }, 'ERR_FIELD_TYPE', 'tls_termination.min_version'],
    [{ terminate_at: 'upstream', min_version: '1.2' }, 'ERR_MIN_VERSION_WITH_UPSTREAM', 'tls_termination.min_version'],
    [{ terminate_at: 'edge', foo: 1 }, 'ERR_UNKNOWN_FIELD', 'tls_termination.foo'],
  ])('rejects %j with %s', async (tls_termination, code, field) => {
    expectError(await c.post('/edges/tls', { tls_termination }), 400, code, field);
  });
});

describe('mutual_tls', () => {
  it.each([
    [{}, 'ERR_FIELD_REQUIRED', 'mutual_tls.certificate_authority_ids'],
    [{ certificate_authority_ids: [] }, 'ERR_CA_IDS_EMPTY', 'mutual_tls.certificate_authority_ids'],
    [{ certificate_authority_ids: ['ca_missing'] }, 'ERR_REFERENCE_NOT_FOUND', 'mutual_tls.certificate_authority_ids[0]'],
    [{ certificate_authority_ids: ['ca_x'], extra: 1 }, 'ERR_UNKNOWN_FIELD', 'mutual_tls.extra'],
  ])('rejects %j with %s', async (mutual_tls, code, field) => {
    expectError(await c.post('/edges/tls', { mutual_tls }), 400, code, field);
  });

  it('a referenced id of another kind is a 400; deleting a referenced CA is a 409 naming the edge', async () => {
    const policy = await ipPolicy(c);
    expectError(await c.post('/edges/tls', { mutual_tls: { certificate_authority_ids: [policy] } }), 400, 'ERR_REFERENCE_WRONG_KIND', 'mutual_tls.certificate_authority_ids[0]');
    const ca = await certificateAuthority(c);
    const edge = ok(await c.post('/edges/tls', { mutual_tls: { certificate_authority_ids: [ca] } }), 201);
    expectError(await c.del(`/certificate_authorities/${ca}`), 409, 'ERR_RESOURCE_IN_USE', edge.id as string);
    expect((await c.del(`/edges/tls/${edge.id}/mutual_tls`)).status).toBe(204);
    expect((await c.del(`/certificate_authorities/${ca}`)).status).toBe(204);
  });
});

describe('upstream termination allows only backend and ip_restriction', () => {
  const upstream = { terminate_at: 'upstream' };

  it('on create', async () => {
    const ca = await certificateAuthority(c);
    const before = await edgeSnapshot(c);
    expectError(await c.post('/edges/tls', { tls_termination: upstream, policy: {} }), 400, 'ERR_MODULE_NOT_ALLOWED_UPSTREAM', 'policy');
    expectError(await c.post('/edges/tls', { tls_termination: upstream, mutual_tls: { certificate_authority_ids: [ca] } }), 400, 'ERR_MODULE_NOT_ALLOWED_UPSTREAM', 'mutual_tls');
    // A disabled module is still a module.
    expectError(await c.post('/edges/tls', { tls_termination: upstream, policy: { enabled: false } }), 400, 'ERR_MODULE_NOT_ALLOWED_UPSTREAM', 'policy');
    expect(await edgeSnapshot(c)).toStrictEqual(before);
  });

  it('on the merged result of a PATCH', async () => {
    const ca = await certificateAuthority(c);
    const withPolicy = ok(await c.post('/edges/tls', { policy: {} }), 201);
    expectError(await c.patch(`/edges/tls/${withPolicy.id}`, { tls_termination: upstream }), 400, 'ERR_MODULE_NOT_ALLOWED_UPSTREAM', 'policy');
    expect(ok(await c.get(`/edges/tls/${withPolicy.id}`))).toStrictEqual(withPolicy);

    const up = ok(await c.post('/edges/tls', { tls_termination: upstream }), 201);
    expectError(await c.patch(`/edges/tls/${up.id}`, { mutual_tls: { certificate_authority_ids: [ca] } }), 400, 'ERR_MODULE_NOT_ALLOWED_UPSTREAM', 'mutual_tls');
    // Switching to edge termination in the same PATCH makes the module allowed.
    const switched = ok(await c.patch(`/edges/tls/${up.id}`, { tls_termination: { terminate_at: 'edge' }, mutual_tls: { certificate_authority_ids: [ca] } }));
    expect(switched.tls_termination).toStrictEqual({ enabled: true, terminate_at: 'edge', min_version: null });
    expect(switched.mutual_tls).toStrictEqual({ enabled: true, certificate_authorities: [ref(svc, '/certificate_authorities', ca)] });
  });

  it('on the merged result of module PUTs', async () => {
    const ca = await certificateAuthority(c);
    const up = ok(await c.post('/edges/tls', { tls_termination: upstream }), 201);
    expectError(await c.put(`/edges/tls/${up.id}/policy`, {}), 400, 'ERR_MODULE_NOT_ALLOWED_UPSTREAM', 'policy');
    expectError(await c.put(`/edges/tls/${up.id}/mutual_tls`, { certificate_authority_ids: [ca] }), 400, 'ERR_MODULE_NOT_ALLOWED_UPSTREAM', 'mutual_tls');
    expect(ok(await c.put(`/edges/tls/${up.id}/backend`, { backend_id: await tunnelGroupBackend(c) })).enabled).toBe(true);
    expect(ok(await c.put(`/edges/tls/${up.id}/ip_restriction`, { ip_policy_ids: [await ipPolicy(c)] })).enabled).toBe(true);

    const withMtls = ok(await c.post('/edges/tls', { mutual_tls: { certificate_authority_ids: [ca] } }), 201);
    expectError(await c.put(`/edges/tls/${withMtls.id}/tls_termination`, upstream), 400, 'ERR_MODULE_NOT_ALLOWED_UPSTREAM', 'mutual_tls');
    expect(ok(await c.get(`/edges/tls/${withMtls.id}`))).toStrictEqual(withMtls);
    expect((await c.del(`/edges/tls/${withMtls.id}/mutual_tls`)).status).toBe(204);
    expect(ok(await c.put(`/edges/tls/${withMtls.id}/tls_termination`, upstream))).toStrictEqual({ enabled: true, terminate_at: 'upstream', min_version: null });
  });
});

describe('TLS edge hostports and references', () => {
  it('shares the hostport space with TCP and HTTPS edges', async () => {
    const h = freshHostport('shared.example.com');
    const tcp = ok(await c.post('/edges/tcp', { hostports: [h] }), 201);
    expectError(await c.post('/edges/tls', { hostports: [h] }), 400, 'ERR_HOSTPORT_IN_USE', tcp.id as string);
    const tls = ok(await c.post('/edges/tls', {}), 201);
    expectError(await c.patch(`/edges/tls/${tls.id}`, { hostports: [h] }), 400, 'ERR_HOSTPORT_IN_USE', tcp.id as string);
    const h2 = freshHostport('shared.example.com');
    ok(await c.patch(`/edges/tls/${tls.id}`, { hostports: [h2] }));
    expectError(await c.post('/edges/https', { hostports: [h2] }), 400, 'ERR_HOSTPORT_IN_USE', tls.id as string);
  });

  it('validates hostports like every edge', async () => {
    expectError(await c.post('/edges/tls', { hostports: ['tls.example.com'] }), 400, 'ERR_HOSTPORT_INVALID', 'hostports[0]');
    const h = freshHostport('tls.example.com');
    expectError(await c.post('/edges/tls', { hostports: [h, h] }), 400, 'ERR_HOSTPORT_DUPLICATE', 'hostports[1]');
  });

  it('deleting a referenced backend or IP policy is a 409 naming the TLS edge', async () => {
    const b = await tunnelGroupBackend(c);
    const p = await ipPolicy(c);
    const edge: Body = ok(await c.post('/edges/tls', { backend: { backend_id: b }, ip_restriction: { ip_policy_ids: [p] } }), 201);
    expectError(await c.del(`/backends/tunnel_group/${b}`), 409, 'ERR_RESOURCE_IN_USE', edge.id as string);
    expectError(await c.del(`/ip_policies/${p}`), 409, 'ERR_RESOURCE_IN_USE', edge.id as string);
  });

  it('validates description and metadata and unknown fields', async () => {
    expectError(await c.post('/edges/tls', { description: 'x'.repeat(256) }), 400, 'ERR_DESCRIPTION_TOO_LONG', 'description');
    expectError(await c.post('/edges/tls', { metadata: 'x'.repeat(4097) }), 400, 'ERR_METADATA_TOO_LONG', 'metadata');
    expectError(await c.post('/edges/tls', { routes: [] }), 400, 'ERR_UNKNOWN_FIELD', 'routes');
    expectError(await c.post('/edges/tls', { backend: { backend_id: 'bkdtg_x', backend: {} } }), 400, 'ERR_UNKNOWN_FIELD', 'backend.backend');
  });
});
