// The public API's official TypeScript client against the real service: every endpoint group it has for the
// kinds the service serves, its own pagination (it pages with `beforeId`) and its own error parsing. The client
// takes only a token and a base URL; it sends the public API's `Ngrok-Version` header, which the spec calls
// `Service-Version`, so the base URL it is given is a one-hop forwarder that renames that header and nothing else.
// (Version 0.11.0 defines policy-module classes but its Ngrok object exposes none of them, so no test reaches them.)
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ngrok } from '@ngrok/ngrok-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa, makeCert } from '../helpers/certs.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
let forwarder: Server;
let client: Ngrok;
const renamed: string[] = [];

/** Forwards every request to `target`, with Ngrok-Version sent as Service-Version. */
async function startForwarder(target: string): Promise<{ server: Server; url: string }> {
  const { hostname, port } = new URL(target);
  const server = createServer((req, res) => {
    const headers = { ...req.headers };
    if (headers['ngrok-version'] !== undefined) {
      headers['service-version'] = headers['ngrok-version'];
      delete headers['ngrok-version'];
      renamed.push(`${req.method} ${req.url}`);
    }
    const upstream = httpRequest({ hostname, port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  svc = await startTestService();
  const started = await startForwarder(svc.url);
  forwarder = started.server;
  client = new Ngrok({ apiToken: svc.apiKey, baseUrl: started.url });
});

afterAll(async () => {
  forwarder?.closeAllConnections();
  await new Promise<void>((resolve) => (forwarder ? forwarder.close(() => resolve()) : resolve()));
  await svc?.close();
});

/**
 * A delete through the client. The service answers 204 with no body, as the spec says; the client then asks
 * node-fetch for JSON and rejects with its own SyntaxError. Only that rejection is accepted, and the caller
 * checks that the item is gone.
 */
async function deleted(p: Promise<void>): Promise<void> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof SyntaxError) || !/invalid js/.test(err.message)) throw err;
  }
}

/** The client's rejection: its own parse of the service's error body. */
async function rejection(p: Promise<unknown>): Promise<{ errorCode: string; statusCode: number; msg: string; details: Map<string, string> }> {
  try {
    await p;
  } catch (err) {
    return err as { errorCode: string; statusCode: number; msg: string; details: Map<string, string> };
  }
  throw new Error('expected the call to fail');
}

describe('the official TypeScript client', () => {
  it('lists 250 items across pages with its own paging (beforeId), newest first, each once', async () => {
    const created: string[] = [];
    for (let i = 0; i < 250; i++) created.push((await client.backends.tunnelGroupBackends.create({ description: `tg${i}` } as never)).id);
    const listed = await client.backends.tunnelGroupBackends.list();
    expect(listed.map((b) => b.id)).toEqual(created.slice().reverse());
    const smallPages = await client.backends.tunnelGroupBackends.list(undefined, '7');
    expect(smallPages.map((b) => b.id)).toEqual(created.slice().reverse());
    const after = await client.backends.tunnelGroupBackends.list(created[10], '3');
    expect(after.map((b) => b.id)).toEqual(created.slice(0, 10).reverse());
    expect(renamed.some((line) => line.includes('beforeId='))).toBe(true);
    for (const id of created) await deleted(client.backends.tunnelGroupBackends.delete(id));
    expect(await client.backends.tunnelGroupBackends.list()).toEqual([]);
  });

  it('parses the service error body into its Error (code, status, message, operation id)', async () => {
    const missing = await rejection(client.edges.edgesTcp.get('edgtcp_000000000000000000000000000'));
    expect(missing.statusCode).toBe(404);
    expect(missing.errorCode).toBe('ERR_TCP_EDGE_NOT_FOUND');
    expect(missing.msg).toMatch(/edgtcp_0+/);
    expect(missing.details.get('operationId')).toMatch(/^op_/);
    const invalid = await rejection(client.ipPolicyRules.create({ ipPolicyId: 'ipp_nope', cidr: '10.1.2.3/8', action: 'allow' }));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.errorCode).toMatch(/^ERR_/);
    const bad = new Ngrok({ apiToken: 'not-the-key', baseUrl: (client as unknown as { baseUrl: string }).baseUrl });
    const denied = await rejection(bad.ipPolicies.list());
    expect(denied.statusCode).toBe(401);
  });

  it('IP policies and rules: create, get, update, list, delete', async () => {
    const policy = await client.ipPolicies.create({ description: 'office' });
    expect(policy.id).toMatch(/^ipp_/);
    const rule = await client.ipPolicyRules.create({ ipPolicyId: policy.id, cidr: '10.0.0.0/8', action: 'allow', description: 'lan' });
    expect(rule.ipPolicy.id).toBe(policy.id);
    expect(rule.cidr).toBe('10.0.0.0/8');
    expect((await client.ipPolicyRules.update({ id: rule.id, cidr: '10.1.0.0/16' })).cidr).toBe('10.1.0.0/16');
    expect((await client.ipPolicyRules.get(rule.id)).cidr).toBe('10.1.0.0/16');
    expect((await client.ipPolicyRules.list()).map((r) => r.id)).toContain(rule.id);
    expect((await client.ipPolicies.update({ id: policy.id, description: 'hq' })).description).toBe('hq');
    expect((await client.ipPolicies.get(policy.id)).description).toBe('hq');
    expect((await client.ipPolicies.list()).map((p) => p.id)).toContain(policy.id);
    await deleted(client.ipPolicyRules.delete(rule.id));
    await deleted(client.ipPolicies.delete(policy.id));
    expect((await rejection(client.ipPolicies.get(policy.id))).statusCode).toBe(404);
  });

  it('HTTP response backends, certificate authorities and TLS certificates', async () => {
    const backend = await client.backends.httpResponseBackends.create({ body: 'down', headers: { 'content-type': 'text/plain' }, statusCode: 503 } as never);
    expect(backend.statusCode).toBe(503);
    expect(backend.headers).toEqual({ 'contentType': 'text/plain' }); // the client camel-cases every key it reads (and would mangle upper-case keys it sends)
    expect((await client.backends.httpResponseBackends.update({ id: backend.id, statusCode: 502 } as never)).statusCode).toBe(502);
    expect((await client.backends.httpResponseBackends.list()).map((b) => b.id)).toEqual([backend.id]);
    expect((await client.backends.httpResponseBackends.get(backend.id)).body).toBe('down');
    await deleted(client.backends.httpResponseBackends.delete(backend.id));

    const ca = await makeCa();
    const authority = await client.certificateAuthorities.create({ caPem: ca.certPem, description: 'clients' });
    expect(authority.id).toMatch(/^ca_/);
    expect((await client.certificateAuthorities.update({ id: authority.id, description: 'mtls' })).description).toBe('mtls');
    expect((await client.certificateAuthorities.list()).map((a) => a.id)).toEqual([authority.id]);
    expect((await client.certificateAuthorities.get(authority.id)).caPem).toBe(ca.certPem);
    await deleted(client.certificateAuthorities.delete(authority.id));

    const leaf = await makeCert({ dnsNames: ['a.example.com'] });
    const cert = await client.tlsCertificates.create({ certificatePem: leaf.certPem, privateKeyPem: leaf.keyPem });
    expect(cert.subjectAlternativeNames.dnsNames).toEqual(['a.example.com']);
    expect(cert.serialNumber).toMatch(/^[0-9a-f]+$/);
    expect((await client.tlsCertificates.update({ id: cert.id, description: 'site' })).description).toBe('site');
    expect((await client.tlsCertificates.get(cert.id)).description).toBe('site');
    expect((await client.tlsCertificates.list()).map((c) => c.id)).toEqual([cert.id]);
    await deleted(client.tlsCertificates.delete(cert.id));
    expect(await client.tlsCertificates.list()).toEqual([]);
  });

  it('TCP and TLS edges with their module endpoints', async () => {
    const tg = await client.backends.tunnelGroupBackends.create({ labels: { app: 'web' } } as never);
    const policy = await client.ipPolicies.create({});
    const tcp = await client.edges.edgesTcp.create({ description: 'db', hostports: ['1.tcp.ngrok.io:20000'] });
    expect(tcp.backend).toBeNull();
    const m = client.edgeModules;
    expect((await m.tcpEdgeBackendModule.replace({ id: tcp.id, module: { backendId: tg.id } })).backend.id).toBe(tg.id);
    expect((await m.tcpEdgeBackendModule.get(tcp.id)).enabled).toBe(true);
    expect((await m.tcpEdgeIpRestrictionModule.replace({ id: tcp.id, module: { ipPolicyIds: [policy.id] } })).ipPolicies[0]!.id).toBe(policy.id);
    expect((await m.tcpEdgeIpRestrictionModule.get(tcp.id)).ipPolicies).toHaveLength(1);
    await deleted(m.tcpEdgeIpRestrictionModule.delete(tcp.id));
    await deleted(m.tcpEdgeBackendModule.delete(tcp.id));
    expect((await client.edges.edgesTcp.get(tcp.id)).backend).toBeNull();
    expect((await client.edges.edgesTcp.update({ id: tcp.id, description: 'cache' })).description).toBe('cache');
    expect((await client.edges.edgesTcp.list()).map((e) => e.id)).toEqual([tcp.id]);
    await deleted(client.edges.edgesTcp.delete(tcp.id));
    expect((await rejection(client.edges.edgesTcp.get(tcp.id))).errorCode).toBe('ERR_TCP_EDGE_NOT_FOUND');

    const ca = await client.certificateAuthorities.create({ caPem: (await makeCa()).certPem });
    const tls = await client.edges.edgesTls.create({ hostports: ['app.example.com:443'] });
    expect((await m.tlsEdgeBackendModule.replace({ id: tls.id, module: { backendId: tg.id } })).backend.id).toBe(tg.id);
    expect((await m.tlsEdgeIpRestrictionModule.replace({ id: tls.id, module: { ipPolicyIds: [policy.id] } })).enabled).toBe(true);
    expect((await m.tlsEdgeMutualTlsModule.replace({ id: tls.id, module: { certificateAuthorityIds: [ca.id] } })).certificateAuthorities[0]!.id).toBe(ca.id);
    expect(await m.tlsEdgeTlsTerminationModule.replace({ id: tls.id, module: { terminateAt: 'edge', minVersion: '1.2' } })).toEqual({ enabled: true, terminateAt: 'edge', minVersion: '1.2' });
    for (const mod of [m.tlsEdgeBackendModule, m.tlsEdgeIpRestrictionModule, m.tlsEdgeMutualTlsModule, m.tlsEdgeTlsTerminationModule]) {
      expect((await mod.get(tls.id)).enabled).toBe(true);
      await deleted(mod.delete(tls.id));
    }
    const after = await client.edges.edgesTls.get(tls.id);
    expect([after.backend, after.ipRestriction, after.mutualTls, after.tlsTermination]).toEqual([null, null, null, null]);
    expect((await client.edges.edgesTls.update({ id: tls.id, description: 'app' })).description).toBe('app');
    expect((await client.edges.edgesTls.list()).map((e) => e.id)).toEqual([tls.id]);
    await deleted(client.edges.edgesTls.delete(tls.id));
    await deleted(client.certificateAuthorities.delete(ca.id));
    await deleted(client.ipPolicies.delete(policy.id));
    await deleted(client.backends.tunnelGroupBackends.delete(tg.id));
  });

  it('HTTPS edges, their modules, routes and route modules', async () => {
    const tg = await client.backends.tunnelGroupBackends.create({} as never);
    const ca = await client.certificateAuthorities.create({ caPem: (await makeCa()).certPem });
    const edge = await client.edges.edgesHttps.create({ hostports: ['www.example.com:443'] });
    const m = client.edgeModules;
    expect((await m.httpsEdgeMutualTlsModule.replace({ id: edge.id, module: { certificateAuthorityIds: [ca.id] } })).enabled).toBe(true);
    expect((await m.httpsEdgeTlsTerminationModule.replace({ id: edge.id, module: { minVersion: '1.3' } })).terminateAt).toBe('edge');
    expect((await m.httpsEdgeMutualTlsModule.get(edge.id)).certificateAuthorities).toHaveLength(1);
    expect((await m.httpsEdgeTlsTerminationModule.get(edge.id)).minVersion).toBe('1.3');
    await deleted(m.httpsEdgeMutualTlsModule.delete(edge.id));
    await deleted(m.httpsEdgeTlsTerminationModule.delete(edge.id));

    const route = await client.edges.edgesHttpsRoutes.create({ edgeId: edge.id, matchType: 'path_prefix', match: '/api' });
    const item = { edgeId: edge.id, id: route.id };
    expect((await client.edges.edgesHttpsRoutes.update({ ...item, matchType: 'path_prefix', match: '/v2' })).match).toBe('/v2');
    expect((await client.edges.edgesHttpsRoutes.get(item)).match).toBe('/v2');
    expect((await m.edgeRouteBackendModule.replace({ ...item, module: { backendId: tg.id } })).backend.id).toBe(tg.id);
    const policy = await client.ipPolicies.create({});
    expect((await m.edgeRouteIpRestrictionModule.replace({ ...item, module: { ipPolicyIds: [policy.id] } })).enabled).toBe(true);
    const headers = await m.edgeRouteResponseHeadersModule.replace({ ...item, module: { add: { 'x-served-by': 'edge' }, remove: [] } } as never);
    expect(headers.add).toEqual({ xServedBy: 'edge' });
    for (const mod of [m.edgeRouteBackendModule, m.edgeRouteIpRestrictionModule, m.edgeRouteResponseHeadersModule]) {
      expect((await mod.get(item)).enabled).toBe(true);
      await deleted(mod.delete(item));
    }
    expect((await client.edges.edgesHttps.get(edge.id)).routes.map((r) => r.id)).toEqual([route.id]);
    expect((await client.edges.edgesHttps.update({ id: edge.id, description: 'site' })).description).toBe('site');
    expect((await client.edges.edgesHttps.list()).map((e) => e.id)).toEqual([edge.id]);
    await deleted(client.edges.edgesHttpsRoutes.delete(item));
    expect((await rejection(client.edges.edgesHttpsRoutes.get(item))).statusCode).toBe(404);
    await deleted(client.edges.edgesHttps.delete(edge.id));
    await deleted(client.ipPolicies.delete(policy.id));
    await deleted(client.certificateAuthorities.delete(ca.id));
    await deleted(client.backends.tunnelGroupBackends.delete(tg.id));
  });

  it('event subscriptions and their sources', async () => {
    const sub = await client.eventSubscriptions.create({ description: 'audit', sources: [{ type: 'ip_policy_created.v0' }], destinationIds: [] });
    expect(sub.id).toMatch(/^esb_/);
    const source = await client.eventSources.create({ subscriptionId: sub.id, type: 'ip_policy_updated.v0' });
    expect(source.type).toBe('ip_policy_updated.v0');
    const listed = await client.eventSources.list({ subscriptionId: sub.id });
    expect(listed.sources.map((s) => s.type).sort()).toEqual(['ip_policy_created.v0', 'ip_policy_updated.v0']);
    expect((await client.eventSources.get({ subscriptionId: sub.id, type: 'ip_policy_updated.v0' })).type).toBe('ip_policy_updated.v0');
    expect((await client.eventSources.update({ subscriptionId: sub.id, type: 'ip_policy_updated.v0' })).type).toBe('ip_policy_updated.v0');
    await deleted(client.eventSources.delete({ subscriptionId: sub.id, type: 'ip_policy_updated.v0' }));
    expect((await client.eventSubscriptions.update({ id: sub.id, description: 'all' })).description).toBe('all');
    expect((await client.eventSubscriptions.get(sub.id)).sources.map((s) => s.type)).toEqual(['ip_policy_created.v0']);
    expect((await client.eventSubscriptions.list()).map((s) => s.id)).toEqual([sub.id]);
    await deleted(client.eventSubscriptions.delete(sub.id));
    expect((await rejection(client.eventSubscriptions.get(sub.id))).statusCode).toBe(404);
  });
});
