// Conformance of /edges/tcp over real HTTP: exact bodies, PATCH semantics (omitted = unchanged, a sent module
// replaces the stored one whole), field validation (hostports: hostports.test.ts), references to backends and IP policies (400 on create, 409 on delete), and the policy module.
import { describe, expect, it } from 'vitest';
import { expectError, serviceForFile } from '../helpers/service.ts';
import {
  backendRef, edgeSnapshot, freshHostport, generated, httpResponseBackend, ipPolicy, ok, ref, tunnelGroupBackend, type Body,
} from './edge-fixtures.ts';

const { svc, c } = serviceForFile();

const unset = { hostports: null, backend: null, ip_restriction: null, policy: null, traffic_policy: null };

describe('TCP edge CRUD', () => {
  it('creates a bare edge: 201, every module null, no description or metadata keys', async () => {
    const body = ok(await c.post('/edges/tcp', {}), 201);
    expect(body).toStrictEqual({ ...generated('edgtcp', svc, '/edges/tcp'), ...unset });
    expect(body.uri).toBe(`${svc.url}/edges/tcp/${body.id}`);
  });

  it('creates a full edge and returns every module in the returned shape', async () => {
    const backend = await tunnelGroupBackend(c);
    const [p1, p2] = [await ipPolicy(c), await ipPolicy(c)];
    const hostport = freshHostport();
    const body = ok(await c.post('/edges/tcp', {
      description: 'ssh', metadata: '{"team":"web"}', hostports: [hostport],
      backend: { backend_id: backend },
      ip_restriction: { enabled: false, ip_policy_ids: [p1, p2] },
      policy: { inbound: [{ name: 'deny-all', expressions: ['true'], actions: [{ type: 'deny', config: { status_code: 403 } }] }] },
    }), 201);
    expect(body).toStrictEqual({
      ...generated('edgtcp', svc, '/edges/tcp'),
      description: 'ssh',
      metadata: '{"team":"web"}',
      hostports: [hostport],
      backend: { enabled: true, backend: backendRef(svc, backend) },
      ip_restriction: { enabled: false, ip_policies: [ref(svc, '/ip_policies', p1), ref(svc, '/ip_policies', p2)] },
      policy: {
        enabled: true,
        inbound: [{ name: 'deny-all', expressions: ['true'], actions: [{ type: 'deny', config: { status_code: 403 } }] }],
        outbound: [],
      },
      traffic_policy: null,
    });
    expect(ok(await c.get(`/edges/tcp/${body.id}`))).toStrictEqual(body);
  });

  it('accepts an HTTP response backend as well as a tunnel group backend', async () => {
    const backend = await httpResponseBackend(c);
    const body = ok(await c.post('/edges/tcp', { backend: { enabled: false, backend_id: backend } }), 201);
    expect(body.backend).toStrictEqual({ enabled: false, backend: ref(svc, '/backends/http_response', backend) });
  });

  it('lists edges newest first under tcp_edges, with uri and next_page_uri', async () => {
    const a = ok(await c.post('/edges/tcp', { description: 'list-a' }), 201);
    const b = ok(await c.post('/edges/tcp', { description: 'list-b' }), 201);
    const page = ok(await c.get('/edges/tcp?limit=1'));
    expect(Object.keys(page).sort()).toEqual(['next_page_uri', 'tcp_edges', 'uri']);
    expect(page.tcp_edges).toStrictEqual([b]);
    expect(page.uri).toBe(`${svc.url}/edges/tcp`);
    expect(page.next_page_uri).toBe(`${svc.url}/edges/tcp?before_id=${b.id}&limit=1`);
    const next = ok(await c.get(page.next_page_uri as string));
    expect(next.tcp_edges).toStrictEqual([a]);
    const all = await c.listAll('/edges/tcp', 'tcp_edges');
    expect(all.slice(0, 2)).toStrictEqual([b, a]);
  });

  it('deletes with 204, then the id is a 404', async () => {
    const { id } = ok(await c.post('/edges/tcp', {}), 201);
    const r = await c.del(`/edges/tcp/${id}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expectError(await c.get(`/edges/tcp/${id}`), 404, 'ERR_TCP_EDGE_NOT_FOUND');
    expectError(await c.del(`/edges/tcp/${id}`), 404, 'ERR_TCP_EDGE_NOT_FOUND');
    expectError(await c.patch(`/edges/tcp/${id}`, {}), 404, 'ERR_TCP_EDGE_NOT_FOUND');
    expectError(await c.get('/edges/tcp/edgtcp_doesnotexist'), 404, 'ERR_TCP_EDGE_NOT_FOUND');
  });

  it('an id of another kind is a 404 on the TCP path', async () => {
    const policy = await ipPolicy(c);
    expectError(await c.get(`/edges/tcp/${policy}`), 404, 'ERR_TCP_EDGE_NOT_FOUND');
  });
});

describe('TCP edge PATCH', () => {
  async function fullEdge(): Promise<Body> {
    return ok(await c.post('/edges/tcp', {
      description: 'before', metadata: 'm', hostports: [freshHostport()],
      backend: { backend_id: await tunnelGroupBackend(c) },
      ip_restriction: { ip_policy_ids: [await ipPolicy(c)] },
      policy: { inbound: { expressions: ['true'], actions: { type: 'deny' } } },
    }), 201);
  }

  it('changes only the fields sent', async () => {
    const edge = await fullEdge();
    const patched = ok(await c.patch(`/edges/tcp/${edge.id}`, { description: 'after' }));
    expect(patched).toStrictEqual({ ...edge, description: 'after' });
    expect(ok(await c.get(`/edges/tcp/${edge.id}`))).toStrictEqual(patched);
  });

  it('an empty PATCH and a PATCH with null modules change nothing', async () => {
    const edge = await fullEdge();
    expect(ok(await c.patch(`/edges/tcp/${edge.id}`, {}))).toStrictEqual(edge);
    expect(ok(await c.patch(`/edges/tcp/${edge.id}`, { backend: null, ip_restriction: null, policy: null, hostports: null }))).toStrictEqual(edge);
  });

  it('a sent module replaces the stored one whole', async () => {
    const edge = await fullEdge();
    const policy = await ipPolicy(c);
    const patched = ok(await c.patch(`/edges/tcp/${edge.id}`, {
      ip_restriction: { ip_policy_ids: [policy] },
      policy: { outbound: [{ expressions: ['a', 'b'], actions: [{ type: 'log' }, { type: 'deny' }] }] },
    }));
    expect(patched.ip_restriction).toStrictEqual({ enabled: true, ip_policies: [ref(svc, '/ip_policies', policy)] });
    expect(patched.policy).toStrictEqual({
      enabled: true, inbound: [], outbound: [{ expressions: ['a', 'b'], actions: [{ type: 'log' }, { type: 'deny' }] }],
    });
    expect(patched.backend).toStrictEqual(edge.backend);
  });

  it('re-sending a module without enabled turns a disabled module back on (no merge)', async () => {
    const edge = await fullEdge();
    const backend = await tunnelGroupBackend(c);
    ok(await c.patch(`/edges/tcp/${edge.id}`, { backend: { enabled: false, backend_id: backend } }));
    const patched = ok(await c.patch(`/edges/tcp/${edge.id}`, { backend: { backend_id: backend } }));
    expect(patched.backend).toStrictEqual({ enabled: true, backend: backendRef(svc, backend) });
  });

  it('empty strings clear description and metadata; [] clears hostports (returned null)', async () => {
    const edge = await fullEdge();
    const patched = ok(await c.patch(`/edges/tcp/${edge.id}`, { description: '', metadata: '', hostports: [] }));
    expect(patched).not.toHaveProperty('description');
    expect(patched).not.toHaveProperty('metadata');
    expect(patched.hostports).toBeNull();
  });

  it('accepts the path id in the body, refuses another one', async () => {
    const edge = await fullEdge();
    expect(ok(await c.patch(`/edges/tcp/${edge.id}`, { id: edge.id, description: 'same id' })).description).toBe('same id');
    const other = ok(await c.post('/edges/tcp', {}), 201);
    expectError(await c.patch(`/edges/tcp/${edge.id}`, { id: other.id, description: 'x' }), 400, 'ERR_ID_MISMATCH', 'id');
    expect(ok(await c.get(`/edges/tcp/${edge.id}`)).description).toBe('same id');
  });

  it('a failed PATCH changes nothing', async () => {
    const edge = await fullEdge();
    const before = await edgeSnapshot(c);
    expectError(await c.patch(`/edges/tcp/${edge.id}`, { description: 'new', backend: { backend_id: 'bkdtg_missing' } }), 400, 'ERR_REFERENCE_NOT_FOUND');
    expectError(await c.patch(`/edges/tcp/${edge.id}`, { description: 'new', hostports: ['bad'] }), 400, 'ERR_HOSTPORT_INVALID');
    expect(await edgeSnapshot(c)).toStrictEqual(before);
  });
});

describe('TCP edge field validation', () => {
  it('description is at most 255 bytes (UTF-8), metadata at most 4096', async () => {
    expect(ok(await c.post('/edges/tcp', { description: 'é'.repeat(127) + 'a' }), 201).description).toBe('é'.repeat(127) + 'a');
    expectError(await c.post('/edges/tcp', { description: 'é'.repeat(128) }), 400, 'ERR_DESCRIPTION_TOO_LONG', 'description');
    expect(ok(await c.post('/edges/tcp', { metadata: 'm'.repeat(4096) }), 201).metadata).toHaveLength(4096);
    expectError(await c.post('/edges/tcp', { metadata: 'm'.repeat(4097) }), 400, 'ERR_METADATA_TOO_LONG', 'metadata');
    const { id } = ok(await c.post('/edges/tcp', {}), 201);
    expectError(await c.patch(`/edges/tcp/${id}`, { description: 'd'.repeat(256) }), 400, 'ERR_DESCRIPTION_TOO_LONG', 'description');
    expectError(await c.patch(`/edges/tcp/${id}`, { metadata: 'm'.repeat(4097) }), 400, 'ERR_METADATA_TOO_LONG', 'metadata');
  });

  it.each([
    [{ bogus: 1 }, 'ERR_UNKNOWN_FIELD', 'bogus'],
    [{ id: 'edgtcp_x' }, 'ERR_UNKNOWN_FIELD', 'id'],
    [{ mutual_tls: { certificate_authority_ids: ['ca_x'] } }, 'ERR_UNKNOWN_FIELD', 'mutual_tls'],
    [{ tls_termination: { terminate_at: 'edge' } }, 'ERR_UNKNOWN_FIELD', 'tls_termination'],
    [{ backend: { backend_id: 'bkdtg_x', foo: 1 } }, 'ERR_UNKNOWN_FIELD', 'backend.foo'],
    [{ ip_restriction: { ip_policy_ids: ['ipp_x'], bar: true } }, 'ERR_UNKNOWN_FIELD', 'ip_restriction.bar'],
    [{ policy: { inbound: [{ expressions: [], actions: [{ type: 'deny' }], x: 1 }] } }, 'ERR_UNKNOWN_FIELD', 'policy.inbound[0].x'],
    [{ policy: { inbound: { expressions: [], actions: { type: 'deny', y: 1 } } } }, 'ERR_UNKNOWN_FIELD', 'policy.inbound.actions.y'],
    [{ description: 5 }, 'ERR_FIELD_TYPE', 'description'],
    [{ hostports: 'a.example.com:1' }, 'ERR_FIELD_TYPE', 'hostports'],
    [{ hostports: [5] }, 'ERR_FIELD_TYPE', 'hostports[0]'],
    [{ backend: 'bkdtg_x' }, 'ERR_FIELD_TYPE', 'backend'],
    [{ backend: {} }, 'ERR_FIELD_REQUIRED', 'backend.backend_id'],
    [{ backend: { backend_id: 'bkdtg_x', enabled: 'yes' } }, 'ERR_FIELD_TYPE', 'backend.enabled'],
    [{ backend: { backend_id: '' } }, 'ERR_FIELD_INVALID', 'backend.backend_id'],
    [{ ip_restriction: {} }, 'ERR_FIELD_REQUIRED', 'ip_restriction.ip_policy_ids'],
    [{ ip_restriction: { ip_policy_ids: [] } }, 'ERR_IP_POLICY_IDS_EMPTY', 'ip_restriction.ip_policy_ids'],
    [{ ip_restriction: { ip_policy_ids: 'ipp_x' } }, 'ERR_FIELD_TYPE', 'ip_restriction.ip_policy_ids'],
    [{ ip_restriction: { ip_policy_ids: [7] } }, 'ERR_FIELD_TYPE', 'ip_restriction.ip_policy_ids[0]'],
    [{ ip_restriction: { ip_policy_ids: ['ipp_a', 'ipp_a'] } }, 'ERR_FIELD_INVALID', 'ip_restriction.ip_policy_ids[1]'],
  ])('rejects %j with %s naming %s', async (body, code, field) => {
    const before = await edgeSnapshot(c);
    expectError(await c.post('/edges/tcp', body), 400, code, field);
    expect(await edgeSnapshot(c)).toStrictEqual(before);
  });
});

describe('TCP edge policy module', () => {
  it('accepts single objects for inbound, outbound and actions and returns lists', async () => {
    const body = ok(await c.post('/edges/tcp', {
      policy: {
        enabled: false,
        inbound: { expressions: ['conn.ClientIP == "1.2.3.4"'], actions: { type: 'deny' } },
        outbound: { name: 'log', expressions: [], actions: { type: 'log', config: { metadata: { a: [1, 2] } } } },
      },
    }), 201);
    expect(body.policy).toStrictEqual({
      enabled: false,
      inbound: [{ expressions: ['conn.ClientIP == "1.2.3.4"'], actions: [{ type: 'deny' }] }],
      outbound: [{ name: 'log', expressions: [], actions: [{ type: 'log', config: { metadata: { a: [1, 2] } } }] }],
    });
  });

  it('an empty policy is enabled with no rules', async () => {
    expect(ok(await c.post('/edges/tcp', { policy: {} }), 201).policy).toStrictEqual({ enabled: true, inbound: [], outbound: [] });
  });

  it('bounds the nesting of an action config (32 levels), so a deeply nested body is a 400, never a 500', async () => {
    const withDepth = (levels: number, inner = levels - 1) =>
      `{"policy":{"inbound":{"expressions":[],"actions":{"type":"x","config":{"a":${'['.repeat(inner)}${']'.repeat(inner)}}}}}}`;
    const raw = (body: string) => c.raw('POST', '/edges/tcp', { body, headers: { 'content-type': 'application/json' } });
    const okBody = ok(await raw(withDepth(32)), 201);
    expect(JSON.stringify((okBody.policy as Body).inbound)).toContain('['.repeat(31));
    expectError(await raw(withDepth(33)), 400, 'ERR_POLICY_INVALID', 'policy.inbound.actions.config');
    expectError(await raw(withDepth(200_000)), 400, 'ERR_POLICY_INVALID', 'policy.inbound.actions.config');
  });

  it.each([
    [{ inbound: [{ expressions: ['true'], actions: [] }] }, 'ERR_POLICY_INVALID', 'policy.inbound[0].actions'],
    [{ inbound: [{ expressions: ['true'] }] }, 'ERR_FIELD_REQUIRED', 'policy.inbound[0].actions'],
    [{ inbound: [{ actions: [{ type: 'deny' }] }] }, 'ERR_FIELD_REQUIRED', 'policy.inbound[0].expressions'],
    [{ inbound: [{ expressions: [''], actions: [{ type: 'deny' }] }] }, 'ERR_FIELD_INVALID', 'policy.inbound[0].expressions[0]'],
    [{ inbound: [{ expressions: 'true', actions: [{ type: 'deny' }] }] }, 'ERR_FIELD_TYPE', 'policy.inbound[0].expressions'],
    [{ inbound: [{ expressions: [], actions: [{}] }] }, 'ERR_FIELD_REQUIRED', 'policy.inbound[0].actions[0].type'],
    [{ inbound: [{ expressions: [], actions: [{ type: '' }] }] }, 'ERR_FIELD_INVALID', 'policy.inbound[0].actions[0].type'],
    [{ inbound: [{ expressions: [], actions: [{ type: 'deny', config: [1] }] }] }, 'ERR_FIELD_TYPE', 'policy.inbound[0].actions[0].config'],
    [{ inbound: [{ name: 3, expressions: [], actions: [{ type: 'deny' }] }] }, 'ERR_FIELD_TYPE', 'policy.inbound[0].name'],
    [{ outbound: 'deny' }, 'ERR_FIELD_TYPE', 'policy.outbound'],
    [{ inbound: [[]] }, 'ERR_FIELD_TYPE', 'policy.inbound[0]'],
    [{ enabled: 1 }, 'ERR_FIELD_TYPE', 'policy.enabled'],
  ])('rejects policy %j with %s naming %s', async (policy, code, field) => {
    expectError(await c.post('/edges/tcp', { policy }), 400, code, field);
  });
});

describe('TCP edge references', () => {
  it('a missing backend or IP policy is a 400 naming the field', async () => {
    expectError(await c.post('/edges/tcp', { backend: { backend_id: 'bkdtg_missing' } }), 400, 'ERR_REFERENCE_NOT_FOUND', 'backend.backend_id');
    const p = await ipPolicy(c);
    expectError(await c.post('/edges/tcp', { ip_restriction: { ip_policy_ids: [p, 'ipp_missing'] } }), 400, 'ERR_REFERENCE_NOT_FOUND', 'ip_restriction.ip_policy_ids[1]');
  });

  it('an existing id of the wrong kind is a 400', async () => {
    const p = await ipPolicy(c);
    const b = await tunnelGroupBackend(c);
    expectError(await c.post('/edges/tcp', { backend: { backend_id: p } }), 400, 'ERR_REFERENCE_WRONG_KIND', 'backend.backend_id');
    expectError(await c.post('/edges/tcp', { ip_restriction: { ip_policy_ids: [b] } }), 400, 'ERR_REFERENCE_WRONG_KIND', 'ip_restriction.ip_policy_ids[0]');
    const edge = ok(await c.post('/edges/tcp', {}), 201);
    expectError(await c.post('/edges/tcp', { backend: { backend_id: edge.id } }), 400, 'ERR_REFERENCE_WRONG_KIND', 'backend.backend_id');
  });

  it('deleting a referenced backend or IP policy is a 409 naming the edge, until the edge lets go', async () => {
    const b = await tunnelGroupBackend(c);
    const p = await ipPolicy(c);
    const edge = ok(await c.post('/edges/tcp', { backend: { backend_id: b }, ip_restriction: { ip_policy_ids: [p] } }), 201);
    expectError(await c.del(`/backends/tunnel_group/${b}`), 409, 'ERR_RESOURCE_IN_USE', edge.id as string);
    expectError(await c.del(`/ip_policies/${p}`), 409, 'ERR_RESOURCE_IN_USE', edge.id as string);
    // Replacing the module through PATCH releases the old target.
    const b2 = await httpResponseBackend(c);
    ok(await c.patch(`/edges/tcp/${edge.id}`, { backend: { backend_id: b2 } }));
    expect((await c.del(`/backends/tunnel_group/${b}`)).status).toBe(204);
    expectError(await c.del(`/backends/http_response/${b2}`), 409, 'ERR_RESOURCE_IN_USE', edge.id as string);
    // Deleting the edge releases everything.
    expect((await c.del(`/edges/tcp/${edge.id}`)).status).toBe(204);
    expect((await c.del(`/backends/http_response/${b2}`)).status).toBe(204);
    expect((await c.del(`/ip_policies/${p}`)).status).toBe(204);
  });
});
