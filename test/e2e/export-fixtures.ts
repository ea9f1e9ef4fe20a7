// Shared by the drift and export scenarios: writing manifest documents to a directory, reading every list of
// the service (for byte-level before/after comparisons), and a set of resources made by hand through the API.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { expect } from 'vitest';
import type { Certs } from './fixtures.ts';
import type { Doc, E2E } from './harness.ts';
import { LISTS } from './fixtures.ts';
import type { ApiClient } from '../helpers/service.ts';
import { fileTempDir } from '../helpers/temp-dirs.ts';

/** Writes `docs` to all.yaml in `dir` (by default a new temporary directory, removed after the test file). */
export function writeDocs(docs: Doc[], dir = fileTempDir('edgeops-docs-')): string {
  writeFileSync(join(dir, 'all.yaml'), docs.map((d) => stringify(d)).join('---\n'));
  return dir;
}

/** Every list the service serves, as the exact response text of each page: equal text = equal data. */
export async function serviceText(http: ApiClient): Promise<string> {
  const pages: string[] = [];
  for (const [path] of Object.values(LISTS)) {
    let next: string | null = path;
    while (next) {
      const r = await http.get(next);
      expect(r.status, r.text).toBe(200);
      pages.push(r.text);
      next = r.body.next_page_uri as string | null;
    }
  }
  return pages.join('\n');
}

/** Every file of a directory tree's top level, concatenated: for "this secret appears nowhere" checks. */
export function dirText(dir: string): string {
  return readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
}

export async function made(http: ApiClient, path: string, body: object): Promise<string> {
  const r = await http.post(path, body);
  expect(r.status, r.text).toBe(201);
  return String(r.body.id);
}

export interface HandMade {
  policy: string;
  rule: string;
  backend: string;
  edge: string;
  httpsEdge: string;
  route: string;
  subscription: string;
  cert: string;
  ca: string;
  /** Unmanaged resources whose metadata is not exportable, or that another stack manages. */
  oddPolicies: string[];
  otherStack: string;
}

/** Resources made directly through the API (no marker of the test stack), of every kind with an id. */
export async function makeByHand(e: E2E, certs: Certs, opts: { managedBackendId: string }): Promise<HandMade> {
  const h = e.http;
  const policy = await made(h, '/ip_policies', { description: 'made by hand', metadata: '{"owner":"ops"}' });
  const rule = await made(h, '/ip_policy_rules', { ip_policy_id: policy, cidr: '192.0.2.0/24', action: 'allow' });
  const backend = await made(h, '/backends/tunnel_group', { labels: { app: 'legacy' } });
  const edge = await made(h, '/edges/tcp', { hostports: ['9.tcp.example.com:29999'], backend: { backend_id: backend } });
  // An unmanaged edge on a managed backend: its reference is exported by name.
  await made(h, '/edges/tcp', { hostports: ['8.tcp.example.com:28888'], backend: { backend_id: opts.managedBackendId } });
  const httpsEdge = await made(h, '/edges/https', { hostports: ['legacy.example.com:443'] });
  const routeRes = await h.post(`/edges/https/${httpsEdge}/routes`, { match_type: 'path_prefix', match: '/', backend: { backend_id: backend } });
  expect(routeRes.status, routeRes.text).toBe(201);
  const route = String(routeRes.body.id);
  const headers = await h.put(`/edges/https/${httpsEdge}/routes/${route}/response_headers`, { add: { 'x-legacy': '1' } });
  expect(headers.status, headers.text).toBe(200);
  const subscription = await made(h, '/event_subscriptions', { description: 'hand-made' });
  expect((await h.post(`/event_subscriptions/${subscription}/sources`, { type: 'ip_policy_created.v0' })).status).toBe(201);
  const cert = await made(h, '/tls_certificates', { certificate_pem: certs.leaf2.chainPem, private_key_pem: certs.leaf2.keyPem });
  const ca = await made(h, '/certificate_authorities', { ca_pem: certs.ca2.certPem, description: 'partner CA' });
  const oddPolicies = [
    await made(h, '/ip_policies', { metadata: 'not json at all' }),
    await made(h, '/ip_policies', { metadata: '{"edgeops":"not a marker","keep":"me"}' }),
  ];
  const otherStack = await made(h, '/ip_policies', { metadata: JSON.stringify({ edgeops: { stack: 'someone-else', name: 'IPPolicy/theirs' } }) });
  return { policy, rule, backend, edge, httpsEdge, route, subscription, cert, ca, oddPolicies, otherStack };
}
