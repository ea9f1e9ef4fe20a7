// Adoption through the real CLI against the real service: resources made directly through the API are matched
// to hand-written manifests by natural key. Without --adopt the plan creates copies and says so with the hint;
// `plan --adopt` shows updates instead; `apply --adopt` writes the markers (no new resource); then a plain plan
// has nothing to do.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { makeCa, makeCert, type MadeCert } from '../helpers/certs.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { edgeops, type RunResult } from './run.ts';

const LISTS: [string, string][] = [
  ['/ip_policies', 'ip_policies'], ['/ip_policy_rules', 'ip_policy_rules'], ['/backends/tunnel_group', 'backends'],
  ['/backends/http_response', 'backends'], ['/certificate_authorities', 'certificate_authorities'],
  ['/tls_certificates', 'tls_certificates'], ['/edges/tcp', 'tcp_edges'], ['/edges/https', 'https_edges'],
  ['/event_subscriptions', 'event_subscriptions'],
];

let svc: TestService;
let http: ApiClient;
let cert: MadeCert;
const ids: Record<string, string> = {};
let routeId = '';
const base = mkdtempSync(join(tmpdir(), 'edgeops-adopt-'));
const dir = join(base, 'infra');

async function made(path: string, body: object): Promise<string> {
  const r = await http.post(path, body);
  expect(r.status, r.text).toBe(201);
  return String(r.body.id);
}

/** Every live item of every list, by id. */
async function everything(): Promise<Map<string, Record<string, unknown>>> {
  const all = new Map<string, Record<string, unknown>>();
  for (const [path, key] of LISTS) for (const item of (await http.listAll(path, key)) as Record<string, unknown>[]) all.set(String(item.id), item);
  return all;
}

const run = (args: string[]): Promise<RunResult> =>
  edgeops(args, { env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, WILD_KEY: cert.keyPem } });

beforeAll(async () => {
  svc = await startTestService();
  http = api(svc);
  cert = await makeCert({ commonName: '*.example.com', dnsNames: ['*.example.com'] });
  const ca = await makeCa({ commonName: 'Clients CA' });
  ids.policy = await made('/ip_policies', { description: 'office networks', metadata: '{"team":"net"}' });
  ids.rule = await made('/ip_policy_rules', { ip_policy_id: ids.policy, cidr: '203.0.113.0/24', action: 'allow' });
  ids.web = await made('/backends/tunnel_group', { labels: { app: 'web' } });
  ids.maintenance = await made('/backends/http_response', { description: 'Maintenance', body: 'down', status_code: 503 });
  ids.ssh = await made('/edges/tcp', { hostports: ['1.tcp.example.com:20001'], backend: { backend_id: ids.web } });
  ids.site = await made('/edges/https', { hostports: ['www.example.com:443'] });
  const route = await http.post(`/edges/https/${ids.site}/routes`, { match_type: 'path_prefix', match: '/', backend: { backend_id: ids.web } });
  expect(route.status, route.text).toBe(201);
  routeId = String(route.body.id);
  expect((await http.put(`/edges/https/${ids.site}/routes/${routeId}/response_headers`, { add: { 'x-served-by': 'hand' } })).status).toBe(200);
  ids.audit = await made('/event_subscriptions', { description: 'audit trail' });
  expect((await http.post(`/event_subscriptions/${ids.audit}/sources`, { type: 'ip_policy_created.v0' })).status).toBe(201);
  ids.clients = await made('/certificate_authorities', { ca_pem: ca.certPem });
  ids.wild = await made('/tls_certificates', { certificate_pem: cert.chainPem, private_key_pem: cert.keyPem });
  // Never adopted: another stack's resource (the plan warns about the collision instead).
  ids.theirs = await made('/edges/tcp', { hostports: ['1.tcp.example.com:20009'], metadata: JSON.stringify({ edgeops: { stack: 'other', name: 'TCPEdge/x' } }) });

  mkdirSync(dir);
  writeFileSync(join(dir, 'edgeops.yaml'), 'stack: adopted\n');
  writeFileSync(join(dir, 'ca.pem'), ca.certPem);
  writeFileSync(join(dir, 'cert.pem'), cert.chainPem);
  writeFileSync(join(dir, 'all.yaml'), `
kind: IPPolicy
name: office
description: office networks
metadata: {team: net}
---
kind: IPPolicyRule
name: office-v4
description: office IPv4
ip_policy_id: office
cidr: 203.0.113.0/24
action: allow
---
kind: TunnelGroupBackend
name: web
labels: {app: web}
---
kind: HTTPResponseBackend
name: maintenance
body: down
status_code: 503
---
kind: TCPEdge
name: ssh
hostports: ["1.tcp.example.com:20001"]
backend: {backend_id: web}
---
kind: TCPEdge
name: other
hostports: ["1.tcp.example.com:20009"]
---
kind: HTTPSEdge
name: site
hostports: ["www.example.com:443"]
---
kind: HTTPSEdgeRoute
name: site-root
edge_id: site
match_type: path_prefix
match: /
backend: {backend_id: web}
---
kind: RouteResponseHeaders
name: site-root-headers
edge_id: site
route_id: site-root
add: {x-served-by: edgeops}
---
kind: EventSubscription
name: audit
description: audit trail
---
kind: EventSources
name: audit-sources
subscription_id: audit
types: [ip_policy_created.v0]
---
kind: CertificateAuthority
name: clients
ca_pem: {file: ca.pem}
---
kind: TLSCertificate
name: wild
certificate_pem: {file: cert.pem}
private_key_pem: {env: WILD_KEY}
`);
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('adoption', () => {
  it('without --adopt, plans copies: a copy the service would refuse (a hostport in use) is an error, the others warnings, each with the --adopt hint', async () => {
    const r = await run(['plan', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Plan: 13 to create, 0 to update, 0 to replace, 0 to delete.');
    expect(r.stdout).toContain(`all.yaml:25:13: TCPEdge/ssh: hostport "1.tcp.example.com:20001" is held by the unmanaged TCPEdge ${ids.ssh}, and the service lets one resource hold it at a time: run plan/apply with --adopt to bring it under management, or remove it there first`);
    expect(r.stdout).toContain(`Warning: IPPolicy/office would be created, but the unmanaged IPPolicy ${ids.policy} has the same description "office networks": run plan/apply with --adopt`);
    expect(r.stdout).toContain(`all.yaml:30:13: TCPEdge/other: hostport "1.tcp.example.com:20009" is held by TCPEdge/x (stack other), and the service lets one resource hold it at a time: remove it from stack other first`);
    expect(r.stdout).toContain('Plan has 3 errors; apply would be refused.');
  });

  it('plan --adopt shows updates that adopt, not creates', async () => {
    const r = await run(['plan', dir, '--adopt']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Plan has 1 error; apply would be refused.');
    expect(r.stdout).toContain(`TCPEdge/other: hostport "1.tcp.example.com:20009" is held by TCPEdge/x (stack other)`);
    // Only the edge held by another stack is still a create; the headers module differs (an update too), and the
    // event sources already match (nothing to do).
    expect(r.stdout).toContain('Plan: 1 to create, 11 to update, 0 to replace, 0 to delete.');
    expect(r.stdout).toContain(`~ TCPEdge/ssh (adopt: matched by hostport 1.tcp.example.com:20001)  # ${ids.ssh}`);
    expect(r.stdout).toContain(`~ IPPolicyRule/office-v4 (adopt: matched by rule ${ids.policy} 203.0.113.0/24)  # ${ids.rule}`);
    expect(r.stdout).toContain(`~ HTTPResponseBackend/maintenance (adopt: matched by name maintenance)  # ${ids.maintenance}`);
    expect(r.stdout).toMatch(/~ TLSCertificate\/wild \(adopt: matched by certificate_pem sha256:[0-9a-f]{16}\)/);
    expect(r.stdout).toContain('+ description: "office IPv4"');
    expect(r.stdout).toContain(`~ RouteResponseHeaders/site-root-headers  # ${ids.site}/${routeId}`);
    expect(r.stdout).toContain('+ TCPEdge/other');
    expect(r.stdout).not.toContain('run plan/apply with --adopt');

    const json = JSON.parse((await run(['plan', dir, '--adopt', '--format', 'json'])).stdout);
    const ssh = json.resources.find((x: { address: string }) => x.address === 'TCPEdge/ssh');
    expect(ssh).toMatchObject({ action: 'update', live_id: ids.ssh, adopt: 'hostport 1.tcp.example.com:20001', changes: [] });
  });

  it('apply --adopt writes the markers without creating copies; then a plain plan has nothing to do', async () => {
    // The other stack's edge keeps its hostport, so apply refuses the plan and changes nothing, as the plan said.
    const before = await everything();
    const refused = await run(['apply', dir, '--adopt', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('edgeops: Plan has 1 error, so apply refused it and changed nothing');
    expect(await everything()).toEqual(before);
    // Without the document whose hostport is taken, the adoption goes through.
    const manifests = join(dir, 'all.yaml');
    writeFileSync(manifests, readFileSync(manifests, 'utf8').replace('---\nkind: TCPEdge\nname: other\nhostports: ["1.tcp.example.com:20009"]\n', ''));
    const r = await run(['apply', dir, '--adopt', '--auto-approve']);
    expect(r.code, r.stderr).toBe(0);
    const after = await everything();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [name, id] of Object.entries(ids)) {
      const marker = parseMetadata(after.get(id)!.metadata).marker;
      expect(marker, name).toEqual(name === 'theirs' ? { stack: 'other', name: 'TCPEdge/x' } : { stack: 'adopted', name: expect.stringMatching(/^[A-Za-z]+\//) });
    }
    expect(parseMetadata(after.get(ids.policy)!.metadata)).toEqual({ marker: { stack: 'adopted', name: 'IPPolicy/office' }, user: { team: 'net' } });
    expect(after.get(ids.rule)!.description).toBe('office IPv4');
    const site = (await http.get(`/edges/https/${ids.site}`)).body;
    expect(site.routes[0].response_headers.add).toEqual({ 'x-served-by': 'edgeops' });

    const plan = await run(['plan', dir]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });
});
