// Conformance of /edges/https over real HTTP: exact bodies (routes included), tls_termination without
// terminate_at (returned as "edge"), mutual_tls and its CA references, the mutual_tls / tls_termination module
// endpoints, hostports shared with TCP and TLS edges, and the cascade: deleting an edge deletes its routes.
import { describe, expect, it } from 'vitest';
import { expectError, serviceForFile } from '../helpers/service.ts';
import { certificateAuthority, edgeSnapshot, freshHostport, generated, ipPolicy, ok, ref, tunnelGroupBackend } from './edge-fixtures.ts';

const { svc, c } = serviceForFile();

describe('HTTPS edge CRUD', () => {
  it('creates a bare edge: modules null, hostports null, routes []', async () => {
    const body = ok(await c.post('/edges/https', {}), 201);
    expect(body).toStrictEqual({
      ...generated('edghts', svc, '/edges/https'), hostports: null, mutual_tls: null, tls_termination: null, routes: [],
    });
  });

  it('creates a full edge; get and list return the same object', async () => {
    const ca = await certificateAuthority(c);
    const h = freshHostport('www.example.com');
    const body = ok(await c.post('/edges/https', {
      description: 'site', metadata: '{}', hostports: [h],
      mutual_tls: { certificate_authority_ids: [ca] }, tls_termination: { enabled: false, min_version: '1.2' },
    }), 201);
    expect(body).toStrictEqual({
      ...generated('edghts', svc, '/edges/https'),
      description: 'site', metadata: '{}', hostports: [h],
      mutual_tls: { enabled: true, certificate_authorities: [ref(svc, '/certificate_authorities', ca)] },
      tls_termination: { enabled: false, terminate_at: 'edge', min_version: '1.2' },
      routes: [],
    });
    expect(ok(await c.get(`/edges/https/${body.id}`))).toStrictEqual(body);
    const page = ok(await c.get('/edges/https?limit=1'));
    expect(Object.keys(page).sort()).toEqual(['https_edges', 'next_page_uri', 'uri']);
    expect(page.https_edges).toStrictEqual([body]);
    expect(page.uri).toBe(`${svc.url}/edges/https`);
  });

  it('tls_termination without min_version returns terminate_at edge and min_version null', async () => {
    const body = ok(await c.post('/edges/https', { tls_termination: {} }), 201);
    expect(body.tls_termination).toStrictEqual({ enabled: true, terminate_at: 'edge', min_version: null });
  });

  it('terminate_at is refused on HTTPS edges, even "edge"', async () => {
    for (const terminate_at of ['edge', 'upstream', 'x']) {
      expectError(await c.post('/edges/https', { tls_termination: { terminate_at } }), 400, 'ERR_TERMINATE_AT_NOT_ALLOWED', 'tls_termination.terminate_at');
    }
    const edge = ok(await c.post('/edges/https', {}), 201);
    expectError(await c.put(`/edges/https/${edge.id}/tls_termination`, { terminate_at: 'edge' }), 400, 'ERR_TERMINATE_AT_NOT_ALLOWED');
    expectError(await c.patch(`/edges/https/${edge.id}`, { tls_termination: { terminate_at: 'edge' } }), 400, 'ERR_TERMINATE_AT_NOT_ALLOWED');
  });

  it('PATCH changes only the fields sent and replaces sent modules whole', async () => {
    const edge = ok(await c.post('/edges/https', { description: 'a', tls_termination: { enabled: false, min_version: '1.3' } }), 201);
    const patched = ok(await c.patch(`/edges/https/${edge.id}`, { id: edge.id, metadata: 'm', tls_termination: { min_version: '1.2' } }));
    expect(patched).toStrictEqual({ ...edge, metadata: 'm', tls_termination: { enabled: true, terminate_at: 'edge', min_version: '1.2' } });
    expectError(await c.patch(`/edges/https/${edge.id}`, { id: 'edghts_other' }), 400, 'ERR_ID_MISMATCH');
  });

  it('validates fields', async () => {
    const before = await edgeSnapshot(c);
    expectError(await c.post('/edges/https', { description: 'd'.repeat(256) }), 400, 'ERR_DESCRIPTION_TOO_LONG', 'description');
    expectError(await c.post('/edges/https', { metadata: 'm'.repeat(4097) }), 400, 'ERR_METADATA_TOO_LONG', 'metadata');
    expectError(await c.post('/edges/https', { backend: { backend_id: 'bkdtg_x' } }), 400, 'ERR_UNKNOWN_FIELD', 'backend');
    expectError(await c.post('/edges/https', { routes: [] }), 400, 'ERR_UNKNOWN_FIELD', 'routes');
    expectError(await c.post('/edges/https', { tls_termination: { min_version: '1.5' } }), 400, 'ERR_MIN_VERSION_INVALID', 'tls_termination.min_version');
    expectError(await c.post('/edges/https', { tls_termination: { x: 1 } }), 400, 'ERR_UNKNOWN_FIELD', 'tls_termination.x');
    expectError(await c.post('/edges/https', { mutual_tls: { certificate_authority_ids: [] } }), 400, 'ERR_CA_IDS_EMPTY', 'mutual_tls.certificate_authority_ids');
    expectError(await c.post('/edges/https', { hostports: ['www.example.com:99999'] }), 400, 'ERR_HOSTPORT_INVALID', 'hostports[0]');
    expect(await edgeSnapshot(c)).toStrictEqual(before);
  });

  it('delete is 204, then 404', async () => {
    const edge = ok(await c.post('/edges/https', {}), 201);
    expect((await c.del(`/edges/https/${edge.id}`)).status).toBe(204);
    expectError(await c.get(`/edges/https/${edge.id}`), 404, 'ERR_HTTPS_EDGE_NOT_FOUND');
  });
});

describe('HTTPS edge module endpoints', () => {
  it('PUT/GET/DELETE mutual_tls and tls_termination (bare and wrapped bodies)', async () => {
    const ca = await certificateAuthority(c);
    const edge = ok(await c.post('/edges/https', {}), 201);
    const mtls = `/edges/https/${edge.id}/mutual_tls`;
    expectError(await c.get(mtls), 404, 'ERR_MODULE_NOT_SET');
    const m = { enabled: true, certificate_authorities: [ref(svc, '/certificate_authorities', ca)] };
    expect(ok(await c.put(mtls, { certificate_authority_ids: [ca] }))).toStrictEqual(m);
    expect(ok(await c.get(mtls))).toStrictEqual(m);
    const term = `/edges/https/${edge.id}/tls_termination`;
    expect(ok(await c.put(term, { id: edge.id, module: { min_version: '1.3' } }))).toStrictEqual({ enabled: true, terminate_at: 'edge', min_version: '1.3' });
    expect(ok(await c.get(`/edges/https/${edge.id}`))).toStrictEqual({
      ...edge, mutual_tls: m, tls_termination: { enabled: true, terminate_at: 'edge', min_version: '1.3' },
    });
    expect((await c.del(mtls)).status).toBe(204);
    expect((await c.del(mtls)).status).toBe(204);
    expect((await c.del(term)).status).toBe(204);
    expect(ok(await c.get(`/edges/https/${edge.id}`))).toStrictEqual(edge);
    expectError(await c.get(`/edges/https/${edge.id}/policy`), 404, 'ERR_NOT_FOUND_PATH');
    expectError(await c.get(`/edges/https/${edge.id}/backend`), 404, 'ERR_NOT_FOUND_PATH');
  });

  it('deleting a CA used by mutual_tls is a 409 naming the edge', async () => {
    const ca = await certificateAuthority(c);
    const edge = ok(await c.post('/edges/https', { mutual_tls: { certificate_authority_ids: [ca] } }), 201);
    expectError(await c.del(`/certificate_authorities/${ca}`), 409, 'ERR_RESOURCE_IN_USE', edge.id as string);
    const policy = await ipPolicy(c);
    expectError(await c.post('/edges/https', { mutual_tls: { certificate_authority_ids: [policy] } }), 400, 'ERR_REFERENCE_WRONG_KIND', 'mutual_tls.certificate_authority_ids[0]');
    expectError(await c.post('/edges/https', { mutual_tls: { certificate_authority_ids: ['ca_missing'] } }), 400, 'ERR_REFERENCE_NOT_FOUND', 'mutual_tls.certificate_authority_ids[0]');
  });
});

describe('HTTPS edge hostports', () => {
  it('shares the hostport space with TCP and TLS edges, both ways', async () => {
    const h = freshHostport('www.example.com');
    const https = ok(await c.post('/edges/https', { hostports: [h] }), 201);
    expectError(await c.post('/edges/tcp', { hostports: [h] }), 400, 'ERR_HOSTPORT_IN_USE', https.id as string);
    expectError(await c.post('/edges/tls', { hostports: [h] }), 400, 'ERR_HOSTPORT_IN_USE', https.id as string);
    expectError(await c.post('/edges/https', { hostports: [h] }), 400, 'ERR_HOSTPORT_IN_USE', https.id as string);
    expect((await c.del(`/edges/https/${https.id}`)).status).toBe(204);
    expect(ok(await c.post('/edges/tls', { hostports: [h] }), 201).hostports).toEqual([h]);
  });
});

describe('deleting an HTTPS edge deletes its routes', () => {
  it('cascades to the routes, which release their references', async () => {
    const backend = await tunnelGroupBackend(c);
    const policy = await ipPolicy(c);
    const edge = ok(await c.post('/edges/https', {}), 201);
    const r1 = ok(await c.post(`/edges/https/${edge.id}/routes`, { match_type: 'path_prefix', match: '/', backend: { backend_id: backend } }), 201);
    const r2 = ok(await c.post(`/edges/https/${edge.id}/routes`, { match_type: 'exact_path', match: '/x', ip_restriction: { ip_policy_ids: [policy] } }), 201);
    expect(ok(await c.get(`/edges/https/${edge.id}`)).routes).toStrictEqual([r1, r2]);
    expectError(await c.del(`/backends/tunnel_group/${backend}`), 409, 'ERR_RESOURCE_IN_USE', r1.id as string);

    expect((await c.del(`/edges/https/${edge.id}`)).status).toBe(204);
    expectError(await c.get(`/edges/https/${edge.id}/routes/${r1.id}`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expectError(await c.get(`/edges/https/${edge.id}/routes/${r2.id}`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expectError(await c.get(`/edges/https/${edge.id}/routes`), 404, 'ERR_HTTPS_EDGE_NOT_FOUND');
    expect((await c.del(`/backends/tunnel_group/${backend}`)).status).toBe(204);
    expect((await c.del(`/ip_policies/${policy}`)).status).toBe(204);
  });

  it('does not touch the routes of other edges', async () => {
    const a = ok(await c.post('/edges/https', {}), 201);
    const b = ok(await c.post('/edges/https', {}), 201);
    const keep = ok(await c.post(`/edges/https/${b.id}/routes`, { match_type: 'exact_path', match: '/keep' }), 201);
    ok(await c.post(`/edges/https/${a.id}/routes`, { match_type: 'exact_path', match: '/gone' }), 201);
    expect((await c.del(`/edges/https/${a.id}`)).status).toBe(204);
    expect(ok(await c.get(`/edges/https/${b.id}`)).routes).toStrictEqual([keep]);
  });
});
