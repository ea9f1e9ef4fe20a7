// Shared by the edge conformance tests: the referenced resources edges need (backends, IP policies,
// certificate authorities), Ref builders, exact-shape matchers and a snapshot of every edge for the
// "a failed request changes nothing" checks.
import { expect } from 'vitest';
import { makeCa } from '../helpers/certs.ts';
import { ID_SUFFIX, TIMESTAMP, type ApiClient, type ApiResponse, type TestService } from '../helpers/service.ts';

export type Body = Record<string, unknown>;

/** The body of a 2xx response, failing with the response text otherwise. */
export function ok(r: ApiResponse, status = 200): Body {
  expect(r.status, r.text).toBe(status);
  return r.body as Body;
}

export async function tunnelGroupBackend(c: ApiClient): Promise<string> {
  return ok(await c.post('/backends/tunnel_group', { labels: { app: 'web' } }), 201).id as string;
}

export async function httpResponseBackend(c: ApiClient): Promise<string> {
  return ok(await c.post('/backends/http_response', { body: 'hello', status_code: 200 }), 201).id as string;
}

export async function ipPolicy(c: ApiClient): Promise<string> {
  return ok(await c.post('/ip_policies', { description: 'office' }), 201).id as string;
}

let caPem: string | undefined;

export async function certificateAuthority(c: ApiClient): Promise<string> {
  caPem ??= (await makeCa()).certPem;
  return ok(await c.post('/certificate_authorities', { ca_pem: caPem }), 201).id as string;
}

/** The Ref the service returns for a resource at `collection` (absolute uri from the service's base URL). */
export function ref(svc: TestService, collection: string, id: string): { id: string; uri: string } {
  return { id, uri: `${svc.url}${collection}/${id}` };
}

export function backendRef(svc: TestService, id: string): { id: string; uri: string } {
  return ref(svc, id.startsWith('bkdtg_') ? '/backends/tunnel_group' : '/backends/http_response', id);
}

/** Matchers for the fields the service generates. */
export function generated(prefix: string, svc: TestService, collection: string): Body {
  return {
    id: expect.stringMatching(new RegExp(`^${prefix}_${ID_SUFFIX.source}`)),
    created_at: expect.stringMatching(TIMESTAMP),
    uri: expect.stringMatching(new RegExp(`^${escape(svc.url)}${escape(collection)}/${prefix}_${ID_SUFFIX.source}`)),
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Every edge of every kind (HTTPS edges carry their routes and their modules): the whole edge state. */
export async function edgeSnapshot(c: ApiClient): Promise<unknown> {
  return {
    tcp: await c.listAll('/edges/tcp', 'tcp_edges'),
    tls: await c.listAll('/edges/tls', 'tls_edges'),
    https: await c.listAll('/edges/https', 'https_edges'),
  };
}

/** A fresh hostport for each call, so tests in one service never collide by accident. */
let port = 20000;
export function freshHostport(host = 'tcp.example.com'): string {
  port += 1;
  return `${host}:${port}`;
}
