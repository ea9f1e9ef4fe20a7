// Conformance of /edges/https/{edge_id}/routes over real HTTP: create, get, list, PATCH, delete with exact
// bodies; match_type/match validation; edge_id in the body; routes scoped to their edge; the backend and
// ip_restriction modules (fields and module endpoints) with their references (400 on write, 409 on delete).
import { describe, expect, it } from 'vitest';
import { api, expectError, serviceForFile } from '../helpers/service.ts';
import { backendRef, edgeSnapshot, generated, httpResponseBackend, ipPolicy, ok, ref, tunnelGroupBackend, type Body } from './edge-fixtures.ts';

const { svc, c } = serviceForFile();

const UNSERVED = {
  circuit_breaker: null, compression: null, request_headers: null, webhook_verification: null, oauth: null, saml: null,
  oidc: null, websocket_tcp_converter: null, user_agent_filter: null, policy: null,
};

async function newEdge(): Promise<string> {
  return ok(await c.post('/edges/https', {}), 201).id as string;
}

function routeMatchers(edgeId: string): Body {
  return { edge_id: edgeId, ...generated('edghtsrt', svc, `/edges/https/${edgeId}/routes`) };
}

describe('route CRUD', () => {
  it('creates a minimal route: exact body, unset modules null', async () => {
    const edge = await newEdge();
    const body = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/' }), 201);
    expect(body).toStrictEqual({
      ...routeMatchers(edge), match_type: 'path_prefix', match: '/',
      backend: null, ip_restriction: null, response_headers: null, traffic_policy: null, ...UNSERVED,
    });
    expect(body.uri).toBe(`${svc.url}/edges/https/${edge}/routes/${body.id}`);
    expect(ok(await c.get(`/edges/https/${edge}/routes/${body.id}`))).toStrictEqual(body);
  });

  it('creates a full route with every served module', async () => {
    const edge = await newEdge();
    const backend = await httpResponseBackend(c);
    const policy = await ipPolicy(c);
    const body = ok(await c.post(`/edges/https/${edge}/routes`, {
      edge_id: edge, match_type: 'exact_path', match: '/api', description: 'api', metadata: 'm',
      backend: { enabled: false, backend_id: backend }, ip_restriction: { ip_policy_ids: [policy] },
      response_headers: { add: { 'X-Frame-Options': 'DENY' } },
      traffic_policy: { value: 'on_http_request:\n  - actions:\n      - type: deny\n' },
    }), 201);
    expect(body).toStrictEqual({
      ...routeMatchers(edge), description: 'api', metadata: 'm', match_type: 'exact_path', match: '/api',
      backend: { enabled: false, backend: backendRef(svc, backend) },
      ip_restriction: { enabled: true, ip_policies: [ref(svc, '/ip_policies', policy)] },
      response_headers: { enabled: true, add: { 'x-frame-options': 'DENY' }, remove: [] },
      traffic_policy: { enabled: true, value: 'on_http_request:\n  - actions:\n      - type: deny\n' },
      ...UNSERVED,
    });
  });

  it('the edge lists its routes oldest first; the routes list is newest first and pages', async () => {
    const edge = await newEdge();
    const a = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'exact_path', match: '/a' }), 201);
    const b = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'exact_path', match: '/b' }), 201);
    expect(ok(await c.get(`/edges/https/${edge}`)).routes).toStrictEqual([a, b]);
    const page = ok(await c.get(`/edges/https/${edge}/routes?limit=1`));
    expect(page).toStrictEqual({
      routes: [b], uri: `${svc.url}/edges/https/${edge}/routes`,
      next_page_uri: `${svc.url}/edges/https/${edge}/routes?before_id=${b.id}&limit=1`,
    });
    expect(await c.listAll(`/edges/https/${edge}/routes`, 'routes')).toStrictEqual([b, a]);
    // Another edge's list is its own.
    expect(ok(await c.get(`/edges/https/${await newEdge()}/routes`)).routes).toStrictEqual([]);
  });

  it('PATCH changes only the fields sent; a sent module replaces the old one', async () => {
    const edge = await newEdge();
    const b1 = await tunnelGroupBackend(c);
    const route = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/', backend: { enabled: false, backend_id: b1 } }), 201);
    const p1 = ok(await c.patch(`/edges/https/${edge}/routes/${route.id}`, { match: '/v2', description: 'two' }));
    expect(p1).toStrictEqual({ ...route, match: '/v2', description: 'two' });
    const p2 = ok(await c.patch(`/edges/https/${edge}/routes/${route.id}`, { id: route.id, edge_id: edge, backend: { backend_id: b1 }, response_headers: null }));
    expect(p2).toStrictEqual({ ...p1, backend: { enabled: true, backend: backendRef(svc, b1) } });
    expect(ok(await c.get(`/edges/https/${edge}`)).routes).toStrictEqual([p2]);
  });

  it('delete is 204, then 404; the edge no longer lists it', async () => {
    const edge = await newEdge();
    const route = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/' }), 201);
    expect((await c.del(`/edges/https/${edge}/routes/${route.id}`)).status).toBe(204);
    expectError(await c.get(`/edges/https/${edge}/routes/${route.id}`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expectError(await c.del(`/edges/https/${edge}/routes/${route.id}`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expect(ok(await c.get(`/edges/https/${edge}`)).routes).toStrictEqual([]);
  });

  it('a route is found only under its own edge; an unknown edge is a 404', async () => {
    const edge = await newEdge();
    const other = await newEdge();
    const route = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/' }), 201);
    expectError(await c.get(`/edges/https/${other}/routes/${route.id}`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expectError(await c.patch(`/edges/https/${other}/routes/${route.id}`, { match: '/x' }), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expectError(await c.del(`/edges/https/${other}/routes/${route.id}`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expectError(await c.post('/edges/https/edghts_missing/routes', { match_type: 'path_prefix', match: '/' }), 404, 'ERR_HTTPS_EDGE_NOT_FOUND');
    expectError(await c.get('/edges/https/edghts_missing/routes'), 404, 'ERR_HTTPS_EDGE_NOT_FOUND');
    expect(ok(await c.get(`/edges/https/${edge}/routes/${route.id}`)).match).toBe('/');
  });
});

describe('route validation', () => {
  it.each([
    [{ match: '/' }, 'ERR_FIELD_REQUIRED', 'match_type'],
    [{ match_type: 'path_prefix' }, 'ERR_FIELD_REQUIRED', 'match'],
    [{ match_type: 'regex', match: '/' }, 'ERR_MATCH_TYPE_INVALID', 'match_type'],
    [{ match_type: 'path_prefix', match: '' }, 'ERR_FIELD_INVALID', 'match'],
    [{ match_type: 'path_prefix', match: 'api' }, 'ERR_FIELD_INVALID', 'match'],
    [{ match_type: 'path_prefix', match: 5 }, 'ERR_FIELD_TYPE', 'match'],
    [{ match_type: 'path_prefix', match: '/', description: 'd'.repeat(256) }, 'ERR_DESCRIPTION_TOO_LONG', 'description'],
    [{ match_type: 'path_prefix', match: '/', metadata: 'm'.repeat(4097) }, 'ERR_METADATA_TOO_LONG', 'metadata'],
    [{ match_type: 'path_prefix', match: '/', compression: {} }, 'ERR_UNKNOWN_FIELD', 'compression'],
    [{ match_type: 'path_prefix', match: '/', backend: { backend_id: 'bkdtg_x', x: 1 } }, 'ERR_UNKNOWN_FIELD', 'backend.x'],
    [{ match_type: 'path_prefix', match: '/', ip_restriction: { ip_policy_ids: [] } }, 'ERR_IP_POLICY_IDS_EMPTY', 'ip_restriction.ip_policy_ids'],
    [{ match_type: 'path_prefix', match: '/', edge_id: 'edghts_other' }, 'ERR_ID_MISMATCH', 'edge_id'],
  ])('rejects %j with %s naming %s', async (body, code, field) => {
    const edge = await newEdge();
    const before = await edgeSnapshot(c);
    expectError(await c.post(`/edges/https/${edge}/routes`, body), 400, code, field);
    expect(await edgeSnapshot(c)).toStrictEqual(before);
  });

  it('PATCH validates too and changes nothing on failure', async () => {
    const edge = await newEdge();
    const route = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/' }), 201);
    const path = `/edges/https/${edge}/routes/${route.id}`;
    expectError(await c.patch(path, { match_type: 'prefix' }), 400, 'ERR_MATCH_TYPE_INVALID', 'match_type');
    expectError(await c.patch(path, { id: 'edghtsrt_other' }), 400, 'ERR_ID_MISMATCH', 'id');
    expectError(await c.patch(path, { edge_id: 'edghts_other' }), 400, 'ERR_ID_MISMATCH', 'edge_id');
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const raw = await c.raw('PATCH', path, { body: `{"edge_id":${deep}}`, headers: { 'content-type': 'application/json' } });
    expectError(raw, 400, 'ERR_FIELD_TYPE', 'edge_id: must be a string, got an array');
    expectError(await c.patch(path, { match: '/ok', backend: { backend_id: 'bkdtg_missing' } }), 400, 'ERR_REFERENCE_NOT_FOUND', 'backend.backend_id');
    expect(ok(await c.get(path))).toStrictEqual(route);
  });
});

describe('route modules and references', () => {
  it('PUT/GET/DELETE backend and ip_restriction on a route (bare and wrapped)', async () => {
    const edge = await newEdge();
    const route = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/' }), 201);
    const backend = await tunnelGroupBackend(c);
    const policy = await ipPolicy(c);
    const base = `/edges/https/${edge}/routes/${route.id}`;
    expectError(await c.get(`${base}/backend`), 404, 'ERR_MODULE_NOT_SET');
    expect(ok(await c.put(`${base}/backend`, { backend_id: backend }))).toStrictEqual({ enabled: true, backend: backendRef(svc, backend) });
    expect(ok(await c.put(`${base}/ip_restriction`, { edge_id: edge, id: route.id, module: { ip_policy_ids: [policy] } })))
      .toStrictEqual({ enabled: true, ip_policies: [ref(svc, '/ip_policies', policy)] });
    expectError(await c.put(`${base}/ip_restriction`, { edge_id: 'edghts_other', id: route.id, module: { ip_policy_ids: [policy] } }), 400, 'ERR_ID_MISMATCH', 'edge_id');
    const got = ok(await c.get(base));
    expect(got.backend).toStrictEqual({ enabled: true, backend: backendRef(svc, backend) });
    expect(got.ip_restriction).toStrictEqual({ enabled: true, ip_policies: [ref(svc, '/ip_policies', policy)] });
    expectError(await c.del(`/ip_policies/${policy}`), 409, 'ERR_RESOURCE_IN_USE', route.id as string);
    expect((await c.del(`${base}/ip_restriction`)).status).toBe(204);
    expect((await c.del(`/ip_policies/${policy}`)).status).toBe(204);
    expect((await c.del(`${base}/backend`)).status).toBe(204);
    expect(ok(await c.get(base))).toStrictEqual(route);
    expectError(await c.get(`${base}/compression`), 404, 'ERR_NOT_FOUND_PATH');
    expectError(await c.put(`/edges/https/${edge}/routes/edghtsrt_missing/backend`, { backend_id: backend }), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
  });

  it('a reference of the wrong kind or to nothing is a 400; a referenced backend is protected', async () => {
    const edge = await newEdge();
    const policy = await ipPolicy(c);
    expectError(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/', backend: { backend_id: policy } }), 400, 'ERR_REFERENCE_WRONG_KIND', 'backend.backend_id');
    expectError(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/', ip_restriction: { ip_policy_ids: ['ipp_missing'] } }), 400, 'ERR_REFERENCE_NOT_FOUND', 'ip_restriction.ip_policy_ids[0]');
    const backend = await httpResponseBackend(c);
    const route = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/', backend: { backend_id: backend } }), 201);
    expectError(await c.del(`/backends/http_response/${backend}`), 409, 'ERR_RESOURCE_IN_USE', route.id as string);
    expect((await c.del(`/edges/https/${edge}/routes/${route.id}`)).status).toBe(204);
    expect((await c.del(`/backends/http_response/${backend}`)).status).toBe(204);
  });
});
