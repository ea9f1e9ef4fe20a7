// Conformance of the traffic_policy module ({enabled, value}, value a JSON or YAML policy document as a string) on
// TCP edges, TLS edges and HTTPS edge routes: create/PATCH fields, PUT/GET/DELETE …/traffic_policy, the value
// echoed exactly as sent, `"traffic_policy": null` beside `"policy": null` when unset, and validation answered
// with ERR_TRAFFIC_POLICY_INVALID naming the place in the document, without changing anything.
import { describe, expect, it } from 'vitest';
import { expectError, serviceForFile } from '../helpers/service.ts';
import { ok } from './edge-fixtures.ts';

const { c } = serviceForFile();

const TCP_YAML = 'on_tcp_connect:\n  - name: block\n    expressions: ["conn.client_ip == \'1.2.3.4\'"]\n    actions:\n      - type: deny\n';
const TCP_JSON = JSON.stringify({ on_tcp_connect: [{ actions: [{ type: 'restrict-ips', config: { enforce: true, allow: ['10.0.0.0/8'] } }] }] });
const HTTP_JSON = JSON.stringify({
  on_http_request: [{ expressions: ["req.url.path.startsWith('/admin')"], actions: [{ type: 'custom-response', config: { status_code: 403 } }] }],
  on_http_response: [{ actions: [{ type: 'add-headers', config: { headers: { 'x-edge': '1' } } }] }],
});

interface Target {
  what: string;
  /** Creates an item and returns its path. */
  create(body?: Record<string, unknown>): Promise<string>;
  valid: string;
}

async function routeOf(body: Record<string, unknown> = {}): Promise<string> {
  const edge = ok(await c.post('/edges/https', {}), 201).id as string;
  const route = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/', ...body }), 201);
  return `/edges/https/${edge}/routes/${route.id}`;
}

const TARGETS: Target[] = [
  { what: 'TCP edge', create: async (body = {}) => `/edges/tcp/${ok(await c.post('/edges/tcp', body), 201).id}`, valid: TCP_YAML },
  { what: 'TLS edge', create: async (body = {}) => `/edges/tls/${ok(await c.post('/edges/tls', body), 201).id}`, valid: TCP_JSON },
  { what: 'HTTPS edge route', create: routeOf, valid: HTTP_JSON },
];

describe.each(TARGETS)('traffic_policy on a $what', ({ create, valid }) => {
  it('is null beside policy when unset', async () => {
    const item = ok(await c.get(await create()));
    expect(item.traffic_policy).toBeNull();
    expect(item.policy).toBeNull();
    expect(Object.keys(item)).toContain('traffic_policy');
  });

  it('is set on create and by PATCH, and returned exactly as sent', async () => {
    const path = await create({ traffic_policy: { value: valid } });
    expect(ok(await c.get(path)).traffic_policy).toStrictEqual({ enabled: true, value: valid });
    const patched = ok(await c.patch(path, { traffic_policy: { enabled: false, value: valid } }));
    expect(patched.traffic_policy).toStrictEqual({ enabled: false, value: valid });
  });

  it('PUT, GET and DELETE …/traffic_policy, also through the {id, module} wrapper', async () => {
    const path = await create();
    expectError(await c.get(`${path}/traffic_policy`), 404, 'ERR_MODULE_NOT_SET', 'traffic_policy');
    expect(ok(await c.put(`${path}/traffic_policy`, { value: valid }))).toStrictEqual({ enabled: true, value: valid });
    expect(ok(await c.get(`${path}/traffic_policy`))).toStrictEqual({ enabled: true, value: valid });
    const id = path.split('/').pop();
    expect(ok(await c.put(`${path}/traffic_policy`, { id, module: { enabled: false, value: valid } })).enabled).toBe(false);
    expect((await c.del(`${path}/traffic_policy`)).status).toBe(204);
    expect(ok(await c.get(path)).traffic_policy).toBeNull();
    expect((await c.del(`${path}/traffic_policy`)).status).toBe(204);
  });

  it('refuses a value that is not a policy document, naming the place, and changes nothing', async () => {
    const path = await create({ traffic_policy: { value: valid } });
    const bad: [unknown, string][] = [
      [{}, 'traffic_policy.value: required'],
      [{ value: '' }, 'traffic_policy.value'],
      [{ value: 42 }, 'traffic_policy.value'],
      [{ value: 'on_tcp_connect: [' }, 'neither JSON nor YAML'],
      [{ value: '"just a string"' }, 'must be a policy document'],
      [{ value: '[1, 2]' }, 'must be a policy document'],
      [{ value: 'on_tcp_connect:\n  - actions: []\n' }, 'on_tcp_connect[0].actions: a rule needs a list of at least one action'],
      [{ value: 'on_tcp_connect:\n  - actions:\n      - config: {}\n' }, 'on_tcp_connect[0].actions[0].type'],
      [{ value: 'on_tcp_connect:\n  - actions:\n      - type: deny\n        extra: 1\n' }, 'on_tcp_connect[0].actions[0].extra: unknown key'],
      [{ value: 'on_tcp_connect:\n  - expressions: "not a list"\n    actions: [{type: deny}]\n' }, 'on_tcp_connect[0].expressions'],
      [{ value: 'on_tcp_connect:\n  actions: [{type: deny}]\n' }, 'on_tcp_connect: must be a list of rules'],
      [{ value: 'on_tcp_connect: []\non_tcp_connect: []\n' }, 'neither JSON nor YAML'],
      [{ value: 'on_connect: []\n' }, 'on_connect: unknown key'],
      [{ value: `on_tcp_connect:\n  - name: "${'x'.repeat(70_000)}"\n    actions: [{type: deny}]\n` }, 'longer than 65536 bytes'],
      [{ value: valid, extra: true }, 'traffic_policy.extra'],
    ];
    for (const [module, message] of bad) {
      const r = await c.put(`${path}/traffic_policy`, module);
      expect(r.status, `${JSON.stringify(module).slice(0, 80)}: ${r.text}`).toBe(400);
      expect(r.body.msg).toContain(message);
      expect(r.body.msg).not.toMatch(/internal/i);
    }
    expectError(await c.patch(path, { traffic_policy: { value: 'on_tcp_connect: 7' } }), 400, 'ERR_TRAFFIC_POLICY_INVALID', 'traffic_policy.value: on_tcp_connect');
    expect(ok(await c.get(path)).traffic_policy).toStrictEqual({ enabled: true, value: valid });
  });
});

describe('phases by kind', () => {
  it('TCP and TLS edges take on_tcp_connect only; routes also the HTTP phases', async () => {
    expectError(await c.post('/edges/tcp', { traffic_policy: { value: HTTP_JSON } }), 400, 'ERR_TRAFFIC_POLICY_INVALID', 'on_http_request: unknown key; allowed: on_tcp_connect');
    expectError(await c.post('/edges/tls', { traffic_policy: { value: HTTP_JSON } }), 400, 'ERR_TRAFFIC_POLICY_INVALID', 'on_http_request');
    const route = await routeOf({ traffic_policy: { value: TCP_YAML } });
    expect(ok(await c.get(route)).traffic_policy).toStrictEqual({ enabled: true, value: TCP_YAML });
  });

  it('the legacy policy module is unchanged beside it', async () => {
    const policy = { inbound: [{ expressions: ['true'], actions: [{ type: 'deny' }] }] };
    const edge = ok(await c.post('/edges/tcp', { policy, traffic_policy: { value: TCP_JSON } }), 201);
    expect(edge.policy).toStrictEqual({ enabled: true, inbound: policy.inbound, outbound: [] });
    expect(edge.traffic_policy).toStrictEqual({ enabled: true, value: TCP_JSON });
  });

  it('is not allowed on a TLS edge that passes TLS through to the upstream', async () => {
    expectError(await c.post('/edges/tls', { tls_termination: { terminate_at: 'upstream' }, traffic_policy: { value: TCP_JSON } }), 400, 'ERR_MODULE_NOT_ALLOWED_UPSTREAM', 'traffic_policy');
  });
});
