// The module endpoints PUT/GET/DELETE /edges/{tcp|tls}/{id}/{module} over real HTTP: both PUT body forms,
// whole replacement, GET of an unset module (404 ERR_MODULE_NOT_SET), idempotent DELETE (204), module names
// invalid for the edge kind (404), and a seeded fuzz over every edge write endpoint (never a 5xx; a 4xx always
// has the error body and leaves every edge unchanged).
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, junkValue, malformedRaw, mutateBody, prng, serviceForFile, type ApiResponse, type Rng } from '../helpers/service.ts';
import {
  backendRef, certificateAuthority, edgeSnapshot, freshHostport, ipPolicy, ok, ref, tunnelGroupBackend, type Body,
} from './edge-fixtures.ts';

const { svc, c } = serviceForFile();
let backend: string;
let policy: string;
let ca: string;

beforeAll(async () => {
  backend = await tunnelGroupBackend(c);
  policy = await ipPolicy(c);
  ca = await certificateAuthority(c);
});

/** Each module of each edge kind: a body to PUT and the module as the service must return it. */
function cases(): { kind: 'tcp' | 'tls'; name: string; sent: Body; returned: Body }[] {
  const common = [
    { name: 'backend', sent: { backend_id: backend }, returned: { enabled: true, backend: backendRef(svc, backend) } },
    { name: 'ip_restriction', sent: { enabled: false, ip_policy_ids: [policy] }, returned: { enabled: false, ip_policies: [ref(svc, '/ip_policies', policy)] } },
    {
      name: 'policy',
      sent: { inbound: { expressions: ['true'], actions: { type: 'deny' } } },
      returned: { enabled: true, inbound: [{ expressions: ['true'], actions: [{ type: 'deny' }] }], outbound: [] },
    },
  ];
  const tlsOnly = [
    { name: 'mutual_tls', sent: { certificate_authority_ids: [ca] }, returned: { enabled: true, certificate_authorities: [ref(svc, '/certificate_authorities', ca)] } },
    { name: 'tls_termination', sent: { terminate_at: 'edge', min_version: '1.2' }, returned: { enabled: true, terminate_at: 'edge', min_version: '1.2' } },
  ];
  return [
    ...common.map((m) => ({ kind: 'tcp' as const, ...m })),
    ...common.map((m) => ({ kind: 'tls' as const, ...m })),
    ...tlsOnly.map((m) => ({ kind: 'tls' as const, ...m })),
  ];
}

describe('module endpoints', () => {
  it('PUT (bare), GET, DELETE each module of each edge kind', async () => {
    for (const { kind, name, sent, returned } of cases()) {
      const edge = ok(await c.post(`/edges/${kind}`, {}), 201);
      const path = `/edges/${kind}/${edge.id}/${name}`;
      expectError(await c.get(path), 404, 'ERR_MODULE_NOT_SET', name);
      expect(ok(await c.put(path, sent)), `${kind} ${name}`).toStrictEqual(returned);
      expect(ok(await c.get(path))).toStrictEqual(returned);
      expect(ok(await c.get(`/edges/${kind}/${edge.id}`))).toStrictEqual({ ...edge, [name]: returned });
      const del = await c.del(path);
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expect(ok(await c.get(`/edges/${kind}/${edge.id}`))).toStrictEqual(edge);
      expectError(await c.get(path), 404, 'ERR_MODULE_NOT_SET');
      // Idempotent: deleting an unset module is still a 204.
      expect((await c.del(path)).status).toBe(204);
    }
  });

  it('PUT accepts the official TypeScript client form {id, module}', async () => {
    for (const { kind, name, sent, returned } of cases()) {
      const edge = ok(await c.post(`/edges/${kind}`, {}), 201);
      expect(ok(await c.put(`/edges/${kind}/${edge.id}/${name}`, { id: edge.id, module: sent }))).toStrictEqual(returned);
      expect(ok(await c.get(`/edges/${kind}/${edge.id}`))[name]).toStrictEqual(returned);
    }
    const edge = ok(await c.post('/edges/tcp', {}), 201);
    expect(ok(await c.put(`/edges/tcp/${edge.id}/backend`, { module: { backend_id: backend } })).enabled).toBe(true);
  });

  it('the wrapped form: another id, extra keys and a bad module are 400s that change nothing', async () => {
    const edge = ok(await c.post('/edges/tcp', { backend: { backend_id: backend } }), 201);
    const other = ok(await c.post('/edges/tcp', {}), 201);
    const path = `/edges/tcp/${edge.id}/backend`;
    expectError(await c.put(path, { id: other.id, module: { backend_id: backend } }), 400, 'ERR_ID_MISMATCH', 'id');
    expectError(await c.put(path, { id: edge.id, module: { backend_id: backend }, enabled: true }), 400, 'ERR_UNKNOWN_FIELD', 'enabled');
    expectError(await c.put(path, { id: edge.id, edge_id: edge.id, module: { backend_id: backend } }), 400, 'ERR_UNKNOWN_FIELD', 'edge_id');
    expectError(await c.put(path, { id: edge.id, module: 'x' }), 400, 'ERR_FIELD_TYPE', 'backend');
    expectError(await c.put(path, { id: edge.id, module: null }), 400, 'ERR_FIELD_TYPE', 'backend');
    expectError(await c.put(path, { id: edge.id, module: { backend_id: backend, x: 1 } }), 400, 'ERR_UNKNOWN_FIELD', 'backend.x');
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const raw = await c.raw('PUT', path, { body: `{"id":${deep},"module":{}}`, headers: { 'content-type': 'application/json' } });
    expectError(raw, 400, 'ERR_FIELD_TYPE', 'id: must be a string, got an array');
    expect(ok(await c.get(`/edges/tcp/${edge.id}`))).toStrictEqual(edge);
  });

  it('PUT replaces the module whole: unsent fields take their defaults', async () => {
    const edge = ok(await c.post('/edges/tls', {}), 201);
    const path = `/edges/tls/${edge.id}/tls_termination`;
    ok(await c.put(path, { enabled: false, terminate_at: 'edge', min_version: '1.3' }));
    expect(ok(await c.put(path, { terminate_at: 'edge' }))).toStrictEqual({ enabled: true, terminate_at: 'edge', min_version: null });
    const pol = `/edges/tls/${edge.id}/policy`;
    ok(await c.put(pol, { enabled: false, inbound: [{ expressions: ['x'], actions: [{ type: 'deny' }] }] }));
    expect(ok(await c.put(pol, { outbound: [{ expressions: [], actions: [{ type: 'log' }] }] }))).toStrictEqual({
      enabled: true, inbound: [], outbound: [{ expressions: [], actions: [{ type: 'log' }] }],
    });
  });

  it('invalid module bodies are 400s naming the field, and change nothing', async () => {
    const edge = ok(await c.post('/edges/tcp', { ip_restriction: { ip_policy_ids: [policy] } }), 201);
    const before = await edgeSnapshot(c);
    expectError(await c.put(`/edges/tcp/${edge.id}/ip_restriction`, { ip_policy_ids: [] }), 400, 'ERR_IP_POLICY_IDS_EMPTY', 'ip_restriction.ip_policy_ids');
    expectError(await c.put(`/edges/tcp/${edge.id}/ip_restriction`, { ip_policy_ids: ['ipp_gone'] }), 400, 'ERR_REFERENCE_NOT_FOUND', 'ip_restriction.ip_policy_ids[0]');
    expectError(await c.put(`/edges/tcp/${edge.id}/ip_restriction`, { ip_policy_ids: [backend] }), 400, 'ERR_REFERENCE_WRONG_KIND', 'ip_restriction.ip_policy_ids[0]');
    expectError(await c.put(`/edges/tcp/${edge.id}/backend`, {}), 400, 'ERR_FIELD_REQUIRED', 'backend.backend_id');
    expectError(await c.put(`/edges/tcp/${edge.id}/backend`, { backend_id: backend, foo: 1 }), 400, 'ERR_UNKNOWN_FIELD', 'backend.foo');
    expectError(await c.put(`/edges/tcp/${edge.id}/policy`, { inbound: [{ expressions: [], actions: [] }] }), 400, 'ERR_POLICY_INVALID', 'policy.inbound[0].actions');
    expect(await edgeSnapshot(c)).toStrictEqual(before);
  });

  it('module references are protected (409) until the module is deleted', async () => {
    const b = await tunnelGroupBackend(c);
    const edge = ok(await c.post('/edges/tcp', {}), 201);
    ok(await c.put(`/edges/tcp/${edge.id}/backend`, { backend_id: b }));
    expectError(await c.del(`/backends/tunnel_group/${b}`), 409, 'ERR_RESOURCE_IN_USE', edge.id as string);
    expect((await c.del(`/edges/tcp/${edge.id}/backend`)).status).toBe(204);
    expect((await c.del(`/backends/tunnel_group/${b}`)).status).toBe(204);
  });

  it('a module name not valid for the edge kind is a 404; an unknown edge is a 404 of its kind', async () => {
    const tcp = ok(await c.post('/edges/tcp', {}), 201);
    const tls = ok(await c.post('/edges/tls', {}), 201);
    for (const name of ['mutual_tls', 'tls_termination', 'response_headers', 'compression']) {
      expectError(await c.put(`/edges/tcp/${tcp.id}/${name}`, {}), 404, 'ERR_NOT_FOUND_PATH');
      expectError(await c.get(`/edges/tcp/${tcp.id}/${name}`), 404, 'ERR_NOT_FOUND_PATH');
    }
    expectError(await c.get(`/edges/tls/${tls.id}/compression`), 404, 'ERR_NOT_FOUND_PATH');
    expectError(await c.put('/edges/tcp/edgtcp_missing/backend', { backend_id: backend }), 404, 'ERR_TCP_EDGE_NOT_FOUND');
    expectError(await c.get('/edges/tls/edgtls_missing/mutual_tls'), 404, 'ERR_TLS_EDGE_NOT_FOUND');
    expectError(await c.del(`/edges/tls/${tcp.id}/backend`), 404, 'ERR_TLS_EDGE_NOT_FOUND');
  });

  it('other methods on a module path are 405 with Allow', async () => {
    const tcp = ok(await c.post('/edges/tcp', {}), 201);
    const r = await c.post(`/edges/tcp/${tcp.id}/backend`, { backend_id: backend });
    expectError(r, 405, 'ERR_METHOD_NOT_ALLOWED');
    expect(String(r.headers.allow).split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'PUT']);
  });
});

describe('fuzz: edge write endpoints', () => {
  /** Valid bodies per endpoint; the fuzzer breaks them. */
  function validBodies(): Record<string, Body> {
    return {
      tcp: {
        description: 'd', metadata: 'm', hostports: [freshHostport('fuzz.example.com')],
        backend: { backend_id: backend }, ip_restriction: { ip_policy_ids: [policy] },
        policy: { inbound: [{ name: 'n', expressions: ['true'], actions: [{ type: 'deny', config: {} }] }] },
      },
      tls: {
        hostports: [freshHostport('fuzz.example.com')], mutual_tls: { certificate_authority_ids: [ca] },
        tls_termination: { terminate_at: 'edge', min_version: '1.2' },
      },
      https: { hostports: [freshHostport('fuzz.example.com')], tls_termination: { min_version: '1.3' } },
      route: { match_type: 'path_prefix', match: '/', backend: { backend_id: backend }, response_headers: { add: { a: 'b' }, remove: ['c'] } },
      backend: { enabled: true, backend_id: backend },
      ip_restriction: { ip_policy_ids: [policy] },
      mutual_tls: { certificate_authority_ids: [ca] },
      tls_termination: { terminate_at: 'edge' },
      policy: { outbound: { expressions: [], actions: { type: 'log' } } },
      response_headers: { enabled: false, add: { 'X-A': 'b' }, remove: ['server'] },
    };
  }

  /** A broken body: mutated at the top or one level down, junk, or a raw non-object. */
  function fuzzBody(rng: Rng, valid: Body): { json?: unknown; raw?: string } {
    const roll = rng();
    if (roll < 0.1) return { raw: malformedRaw(rng) };
    if (roll < 0.2) return { json: junkValue(rng) };
    const body = mutateBody(rng, valid);
    const nested = Object.keys(body).filter((k) => body[k] !== null && typeof body[k] === 'object' && !Array.isArray(body[k]));
    if (roll < 0.6 && nested.length > 0) {
      const key = nested[Math.floor(rng() * nested.length)]!;
      body[key] = mutateBody(rng, body[key] as Body);
    }
    return { json: body };
  }

  it('never answers 5xx; a 4xx has the error body and changes nothing', async () => {
    const rng = prng(20240601);
    const edges = {
      tcp: ok(await c.post('/edges/tcp', {}), 201).id as string,
      tls: ok(await c.post('/edges/tls', {}), 201).id as string,
      https: ok(await c.post('/edges/https', {}), 201).id as string,
    };
    const route = ok(await c.post(`/edges/https/${edges.https}/routes`, { match_type: 'exact_path', match: '/x' }), 201).id as string;
    const valid = validBodies();
    const targets: { method: 'POST' | 'PATCH' | 'PUT'; path: string; body: Body }[] = [
      { method: 'POST', path: '/edges/tcp', body: valid.tcp! },
      { method: 'PATCH', path: `/edges/tcp/${edges.tcp}`, body: valid.tcp! },
      { method: 'POST', path: '/edges/tls', body: valid.tls! },
      { method: 'PATCH', path: `/edges/tls/${edges.tls}`, body: valid.tls! },
      { method: 'POST', path: '/edges/https', body: valid.https! },
      { method: 'PATCH', path: `/edges/https/${edges.https}`, body: valid.https! },
      { method: 'POST', path: `/edges/https/${edges.https}/routes`, body: valid.route! },
      { method: 'PATCH', path: `/edges/https/${edges.https}/routes/${route}`, body: valid.route! },
      ...['backend', 'ip_restriction', 'policy'].map((m) => ({ method: 'PUT' as const, path: `/edges/tcp/${edges.tcp}/${m}`, body: valid[m]! })),
      ...['backend', 'ip_restriction', 'policy', 'mutual_tls', 'tls_termination'].map((m) => ({ method: 'PUT' as const, path: `/edges/tls/${edges.tls}/${m}`, body: valid[m]! })),
      ...['mutual_tls'].map((m) => ({ method: 'PUT' as const, path: `/edges/https/${edges.https}/${m}`, body: valid[m]! })),
      ...['backend', 'ip_restriction', 'response_headers'].map((m) => ({ method: 'PUT' as const, path: `/edges/https/${edges.https}/routes/${route}/${m}`, body: valid[m]! })),
    ];
    let before = await edgeSnapshot(c);
    let rejected = 0;
    const rounds = 20;
    for (let round = 0; round < rounds; round++) {
      for (const target of targets) {
        const { json, raw } = fuzzBody(rng, target.body);
        const text = raw ?? JSON.stringify(json);
        const r: ApiResponse = await c.raw(target.method, target.path, { body: text, headers: { 'content-type': 'application/json' } });
        const label = `${target.method} ${target.path} ${text.slice(0, 300)} -> ${r.status} ${r.text.slice(0, 300)}`;
        expect(r.status, label).toBeLessThan(500);
        const after = await edgeSnapshot(c);
        if (r.status >= 400) {
          rejected++;
          expectError(r, r.status, r.body?.error_code);
          expect(r.status, label).toBeGreaterThanOrEqual(400);
          expect(after, label).toStrictEqual(before);
        } else {
          // A mutation that happened to stay valid: the answer must be what is now stored.
          expect([200, 201], label).toContain(r.status);
          const stored = await c.get(target.method === 'PUT' ? target.path : (r.body.uri as string));
          expect(stored.body, label).toStrictEqual(r.body);
        }
        before = after;
      }
    }
    // Most mutations break a body; if nearly none were rejected the fuzzer is not exercising validation.
    expect(rejected).toBeGreaterThan(rounds * targets.length * 0.5);
  });
});
