// Every kind against the real service through its own hooks: create with the normalized desired body, fetch,
// and the live item normalizes back to exactly that body; then update, module changes and delete converge too.
// This is the guarantee behind "after apply, plan shows no changes".
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/client/http.ts';
import type { HttpApi } from '../../src/client/http.ts';
import { kindByName } from '../../src/kinds/index.ts';
import type { FetchContext, LiveItem, Obj, ResourceKind } from '../../src/kinds/resource-kind.ts';
import { makeCa, makeCert } from '../helpers/certs.ts';
import { startTestService } from '../helpers/service.ts';
import type { TestService } from '../helpers/service.ts';

let svc: TestService;
let api: HttpApi;

beforeAll(async () => {
  svc = await startTestService();
  api = createApi({ url: svc.url, apiKey: svc.apiKey });
});
afterAll(async () => {
  await api?.close();
  await svc?.close();
});

const k = (name: string): ResourceKind => kindByName(name)!;
/** A fresh context per fetch, as each plan makes one. */
const ctx = (): FetchContext => {
  const lists = new Map<string, Promise<Obj[]>>();
  return { api, listOnce: (p, key) => lists.get(p) ?? (lists.set(p, api.list(p, key)), lists.get(p)!) };
};
const desired = (kind: ResourceKind, spec: Obj): Obj => kind.normalizeDesired(kind.toRequest(spec));
const withoutWriteOnly = (kind: ResourceKind, body: Obj): Obj =>
  Object.fromEntries(Object.entries(body).filter(([f]) => !kind.writeOnly.includes(f)));

async function liveOf(kind: ResourceKind, id: string): Promise<LiveItem | undefined> {
  return (await kind.fetch(ctx())).find((i) => i.id === id);
}

/** The live item of `id` normalizes to `body` (write-only fields aside). */
async function expectConverged(kind: ResourceKind, id: string, body: Obj): Promise<LiveItem> {
  const item = await liveOf(kind, id);
  expect(item, `${kind.kind} ${id} is live`).toBeDefined();
  expect(kind.fromLive(item!.raw)).toEqual(withoutWriteOnly(kind, body));
  return item!;
}

/**
 * Created from the un-normalized request (as another tool would send it), so the service's own defaults must
 * meet what normalizeDesired fills in.
 */
async function createConverged(name: string, spec: Obj): Promise<LiveItem> {
  const kind = k(name);
  const created = await kind.create(api, kind.toRequest(spec));
  return expectConverged(kind, created.id, desired(kind, spec));
}

/** Update through the hooks the engine uses: modules by putModule/deleteModule, the rest by update. */
async function updateConverged(name: string, item: LiveItem, spec: Obj): Promise<LiveItem> {
  const kind = k(name);
  const before = kind.fromLive(item.raw);
  const after = desired(kind, spec);
  const changed: Obj = {};
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[field]) === JSON.stringify(after[field])) continue;
    if (kind.modules.includes(field)) {
      if (after[field] === undefined) await kind.deleteModule!(api, item, field);
      else await kind.putModule!(api, item, field, after[field] as Obj);
    } else changed[field] = after[field] ?? null;
  }
  await kind.update(api, item, changed, after);
  return expectConverged(kind, item.id, after);
}

async function deleteGone(name: string, item: LiveItem): Promise<void> {
  await k(name).delete(api, item);
  expect(await liveOf(k(name), item.id)).toBeUndefined();
}

describe('round trip of every kind against the service', () => {
  it('IP policies and rules: fields updated and cleared', async () => {
    const policy = await createConverged('IPPolicy', { description: 'office', metadata: '{"team":"net"}' });
    const other = await createConverged('IPPolicy', {});
    const rule = await createConverged('IPPolicyRule', { cidr: '10.0.0.0/8', ip_policy_id: policy.id, action: 'allow' });
    const updated = await updateConverged('IPPolicyRule', rule, {
      cidr: '192.168.0.0/16',
      ip_policy_id: policy.id,
      action: 'allow',
      description: 'lan',
    });
    await updateConverged('IPPolicyRule', updated, { cidr: '192.168.0.0/16', ip_policy_id: policy.id, action: 'allow' });
    await updateConverged('IPPolicy', policy, { metadata: '{"team":"net"}' });
    await deleteGone('IPPolicyRule', updated);
    await deleteGone('IPPolicy', policy);
    await deleteGone('IPPolicy', other);
  });

  it('certificates and certificate authorities, with CRLF PEMs', async () => {
    const ca = await makeCa({ commonName: 'Client CA' });
    const leaf = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com'] });
    const caItem = await createConverged('CertificateAuthority', { ca_pem: ca.certPem.replace(/\n/g, '\r\n') });
    const cert = await createConverged('TLSCertificate', {
      description: 'site',
      certificate_pem: `${leaf.chainPem}\n\n`,
      private_key_pem: leaf.keyPem,
    });
    expect(JSON.stringify(k('TLSCertificate').fromLive(cert.raw))).not.toContain('PRIVATE KEY');
    const updated = await updateConverged('TLSCertificate', cert, { certificate_pem: leaf.chainPem, private_key_pem: leaf.keyPem });
    await deleteGone('TLSCertificate', updated);
    await deleteGone('CertificateAuthority', caItem);
  });

  it('backends, with default status code and mixed-case headers', async () => {
    const tg = await createConverged('TunnelGroupBackend', { labels: { app: 'web' } });
    await updateConverged('TunnelGroupBackend', tg, { labels: { app: 'web', dc: 'eu' }, description: 'tier' });
    const hr = await createConverged('HTTPResponseBackend', { body: 'hi', headers: { 'X-Served-By': 'edge' } });
    const hr2 = await updateConverged('HTTPResponseBackend', hr, { body: 'bye', status_code: 503 });
    await deleteGone('HTTPResponseBackend', hr2);
    await deleteGone('TunnelGroupBackend', tg);
  });

  it('TCP and TLS edges with every module, module put and delete', async () => {
    const tg = await createConverged('TunnelGroupBackend', { labels: { app: 'tcp' } });
    const hr = await createConverged('HTTPResponseBackend', { body: 'x' });
    const ipp = await createConverged('IPPolicy', {});
    const ca = await createConverged('CertificateAuthority', { ca_pem: (await makeCa()).certPem });

    const tcp = await createConverged('TCPEdge', {
      description: 'ssh',
      hostports: ['1.tcp.example.com:20001', '2.tcp.example.com:20002'],
      backend: { backend_id: tg.id },
      ip_restriction: { ip_policy_ids: [ipp.id] },
      policy: { inbound: { name: 'deny', expressions: ["conn.client_ip == '1.2.3.4'"], actions: { type: 'deny' } } },
      traffic_policy: { value: { on_tcp_connect: [{ name: 'deny', expressions: ["conn.client_ip == '1.2.3.4'"], actions: [{ type: 'deny' }] }] } },
    });
    expect(typeof tcp.raw.traffic_policy === 'object' && (tcp.raw.traffic_policy as Obj).value).toBeTypeOf('string');
    const tcp2 = await updateConverged('TCPEdge', tcp, {
      hostports: ['2.tcp.example.com:20002'],
      backend: { enabled: false, backend_id: hr.id },
      traffic_policy: { enabled: false, value: { on_tcp_connect: [{ actions: [{ type: 'log', config: { level: 'info' } }] }] } },
    });
    await deleteGone('TCPEdge', tcp2);

    const tls = await createConverged('TLSEdge', {
      hostports: ['app.example.com:443'],
      backend: { backend_id: tg.id },
      mutual_tls: { certificate_authority_ids: [ca.id] },
      tls_termination: { terminate_at: 'edge' },
    });
    const tls2 = await updateConverged('TLSEdge', tls, {
      hostports: ['app.example.com:443'],
      backend: { backend_id: tg.id },
      tls_termination: { terminate_at: 'edge', min_version: '1.3' },
      policy: { outbound: [{ expressions: [], actions: [{ type: 'log', config: { level: 'info' } }] }] },
      traffic_policy: { value: 'on_tcp_connect:\n  - actions:\n      - type: deny\n' },
    });
    const tls3 = await updateConverged('TLSEdge', tls2, {
      backend: { backend_id: tg.id },
      ip_restriction: { ip_policy_ids: [ipp.id] },
      tls_termination: { terminate_at: 'upstream' },
    });
    await deleteGone('TLSEdge', tls3);
    for (const [name, item] of [['CertificateAuthority', ca], ['IPPolicy', ipp], ['HTTPResponseBackend', hr], ['TunnelGroupBackend', tg]] as const) {
      await deleteGone(name, item);
    }
  });

  it('HTTPS edges, routes and route response headers', async () => {
    const tg = await createConverged('TunnelGroupBackend', { labels: { app: 'https' } });
    const edge = await createConverged('HTTPSEdge', { hostports: ['www.example.com:443'], tls_termination: {} });
    const route = await createConverged('HTTPSEdgeRoute', {
      edge_id: edge.id,
      match_type: 'path_prefix',
      match: '/api',
      backend: { backend_id: tg.id },
      traffic_policy: { value: { on_http_request: [{ expressions: ["req.url.path == '/x'"], actions: [{ type: 'deny' }] }] } },
    });
    const headers = await createConverged('RouteResponseHeaders', {
      edge_id: edge.id,
      route_id: route.id,
      add: { 'X-Frame-Options': 'DENY' },
    });
    expect(headers.id).toBe(`${edge.id}/${route.id}`);
    // The route's own comparison ignores its response_headers module.
    await expectConverged(k('HTTPSEdgeRoute'), route.id, desired(k('HTTPSEdgeRoute'), {
      edge_id: edge.id,
      match_type: 'path_prefix',
      match: '/api',
      backend: { backend_id: tg.id },
      traffic_policy: { value: { on_http_request: [{ expressions: ["req.url.path == '/x'"], actions: [{ type: 'deny' }] }] } },
    }));
    const headers2 = await updateConverged('RouteResponseHeaders', headers, {
      edge_id: edge.id,
      route_id: route.id,
      remove: ['Server'],
    });
    await deleteGone('RouteResponseHeaders', headers2);
    const route2 = await updateConverged('HTTPSEdgeRoute', route, {
      edge_id: edge.id,
      match_type: 'exact_path',
      match: '/health',
      description: 'health',
    });
    const edge2 = await updateConverged('HTTPSEdge', edge, {
      hostports: ['www.example.com:443'],
      tls_termination: { min_version: '1.3' },
    });
    await deleteGone('HTTPSEdgeRoute', route2);
    await deleteGone('HTTPSEdge', edge2);
    await deleteGone('TunnelGroupBackend', tg);
  });

  it('a traffic policy written by another tool as JSON or YAML text meets the manifest\'s mapping', async () => {
    const kind = k('TCPEdge');
    const edge = await kind.create(api, {});
    const manifest = desired(kind, {
      traffic_policy: { value: { on_tcp_connect: [{ name: 'r', expressions: ['true'], actions: [{ type: 'deny', config: { b: 1, a: 2 } }] }] } },
    });
    const texts = [
      '{"on_tcp_connect":[{"actions":[{"config":{"a":2,"b":1},"type":"deny"}],"expressions":["true"],"name":"r"}]}',
      "# written by hand\non_tcp_connect:\n- name: 'r'\n  actions: [{type: deny, config: {a: 2, b: 1}}]\n  expressions:\n  - \"true\"\n",
    ];
    for (const value of texts) {
      await api.put(`/edges/tcp/${edge.id}/traffic_policy`, { value });
      const live = await expectConverged(kind, edge.id, manifest);
      expect((live.raw.traffic_policy as Obj).value).toBe(value);
    }
    await api.put(`/edges/tcp/${edge.id}/traffic_policy`, { value: '{"on_tcp_connect":[{"actions":[{"type":"log"}]}]}' });
    expect(kind.fromLive((await liveOf(kind, edge.id))!.raw)).not.toEqual(manifest);
    await deleteGone('TCPEdge', edge);
  });

  it('event subscriptions and their sources as a set', async () => {
    const sub = await createConverged('EventSubscription', { description: 'audit' });
    const sources = await createConverged('EventSources', {
      subscription_id: sub.id,
      types: ['ip_policy_updated.v0', 'ip_policy_created.v0'],
    });
    expect(sources.id).toBe(sub.id);
    // The subscription's comparison ignores the sources another kind manages.
    await expectConverged(k('EventSubscription'), sub.id, desired(k('EventSubscription'), { description: 'audit' }));
    const sources2 = await updateConverged('EventSources', sources, {
      subscription_id: sub.id,
      types: ['ip_policy_created.v0', 'ip_policy_deleted.v0'],
    });
    await deleteGone('EventSources', sources2);
    await updateConverged('EventSubscription', sub, {});
    await deleteGone('EventSubscription', sub);
  });
});
