// `export --all` is directly usable: an account populated only through the service's API (no ownership markers,
// edge modules put one by one) is exported with `edgeops export --all --out DIR`, whose edgeops.yaml sets
// `adopt: true`; then `edgeops plan DIR` shows adoptions only (no create, no field change), `edgeops apply DIR
// --auto-approve` adopts without making anything new, and `edgeops plan DIR --detailed-exitcode` exits 0.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { makeCa, makeCert } from '../helpers/certs.ts';
import { serviceForFile, type ApiClient } from '../helpers/service.ts';
import { edgeops, type RunResult } from './run.ts';

const { svc, c } = serviceForFile();
const base = mkdtempSync(join(tmpdir(), 'edgeops-export-adopt-'));
const dir = join(base, 'exported');
let env: Record<string, string> = {};
let exported: RunResult;

/** Every item of the top-level lists (routes come inside their edges), by id. */
const LISTS: [string, string][] = [
  ['/ip_policies', 'ip_policies'], ['/ip_policy_rules', 'ip_policy_rules'], ['/backends/tunnel_group', 'backends'],
  ['/backends/http_response', 'backends'], ['/certificate_authorities', 'certificate_authorities'], ['/tls_certificates', 'tls_certificates'],
  ['/edges/tcp', 'tcp_edges'], ['/edges/tls', 'tls_edges'], ['/edges/https', 'https_edges'], ['/event_subscriptions', 'event_subscriptions'],
];
async function liveById(): Promise<Map<string, Record<string, unknown>>> {
  const all = new Map<string, Record<string, unknown>>();
  for (const [path, key] of LISTS) for (const item of (await c.listAll(path, key)) as Record<string, unknown>[]) all.set(String(item.id), item);
  return all;
}

async function made(http: ApiClient, path: string, body: object): Promise<string> {
  const r = await http.post(path, body);
  expect(r.status, r.text).toBe(201);
  return String(r.body.id);
}

async function putModule(http: ApiClient, path: string, body: object): Promise<void> {
  const r = await http.put(path, body);
  expect(r.status, r.text).toBe(200);
}

beforeAll(async () => {
  const ca = await makeCa({ commonName: 'Hand CA' });
  const leaf = await makeCert({ commonName: 'hand.example.com', dnsNames: ['hand.example.com'] });
  const policy = await made(c, '/ip_policies', { description: 'office networks', metadata: '{"team":"net"}' });
  await made(c, '/ip_policy_rules', { ip_policy_id: policy, cidr: '203.0.113.0/24', action: 'allow', description: 'office v4' });
  const backend = await made(c, '/backends/tunnel_group', { labels: { app: 'web' } });
  const teapot = await made(c, '/backends/http_response', { description: 'short and stout', body: "I'm a teapot", headers: { 'Content-Type': 'text/plain' }, status_code: 418 });
  const caId = await made(c, '/certificate_authorities', { ca_pem: ca.certPem, description: 'hand CA' });
  await made(c, '/tls_certificates', { certificate_pem: leaf.chainPem, private_key_pem: leaf.keyPem });

  // Edges with every module kind, each put separately after the edge was made bare.
  const tcp = await made(c, '/edges/tcp', { description: 'ssh', hostports: ['1.tcp.example.com:20001'] });
  await putModule(c, `/edges/tcp/${tcp}/backend`, { enabled: true, backend_id: backend });
  await putModule(c, `/edges/tcp/${tcp}/ip_restriction`, { ip_policy_ids: [policy] });
  await putModule(c, `/edges/tcp/${tcp}/policy`, { inbound: [{ name: 'only-22', expressions: ['conn.server_port != 22'], actions: [{ type: 'deny' }] }], outbound: [] });
  const tls = await made(c, '/edges/tls', { hostports: ['secure.example.com:443'] });
  await putModule(c, `/edges/tls/${tls}/backend`, { backend_id: backend });
  await putModule(c, `/edges/tls/${tls}/mutual_tls`, { certificate_authority_ids: [caId] });
  await putModule(c, `/edges/tls/${tls}/tls_termination`, { terminate_at: 'edge', min_version: '1.2' });

  const https = await made(c, '/edges/https', { hostports: ['www.example.com:443'], description: 'web site' });
  const route = await made(c, `/edges/https/${https}/routes`, { match_type: 'path_prefix', match: '/', backend: { backend_id: teapot } });
  await putModule(c, `/edges/https/${https}/routes/${route}/response_headers`, { add: { 'x-frame-options': 'DENY' } });
  const subscription = await made(c, '/event_subscriptions', { description: 'policy changes' });
  expect((await c.post(`/event_subscriptions/${subscription}/sources`, { type: 'ip_policy_created.v0' })).status).toBe(201);

  for (const [id, item] of await liveById()) expect(parseMetadata(item.metadata).marker, id).toBeUndefined();

  env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey };
  exported = await edgeops(['export', '--all', '--out', dir], { env, cwd: base });
  expect(exported.code, exported.stderr).toBe(0);
  // The certificate's private key is never exported: its document reads it from the variable the output names.
  for (const [, name] of exported.stdout.matchAll(/^ {2}(EDGEOPS_KEY_[A-Z0-9_]+) /gm)) env[name!] = leaf.keyPem;
}, 60_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));


describe('export --all, then plan and apply the directory as it is', () => {
  it('export writes adopt: true into the directory and says so', () => {
    expect(readFileSync(join(dir, 'edgeops.yaml'), 'utf8')).toMatch(/\nstack: default\n(#.*\n)*adopt: true\n$/);
    expect(exported.stdout).toContain(`edgeops.yaml sets adopt: true, so plan and apply on ${dir} adopt them`);
    expect(exported.stdout).not.toContain('Left out');
  });

  it('plan shows adoptions only: no create, no field change', async () => {
    const json = await edgeops(['plan', dir, '--format', 'json', '--detailed-exitcode'], { env, cwd: base });
    expect(json.code, json.stderr).toBe(2);
    const plan = JSON.parse(json.stdout) as { summary: Record<string, number>; resources: { address: string; live_id: string | null }[] };
    const ids = [...(await liveById()).keys()];
    // Every resource with an id is adopted (the route is not in a top-level list: counted on top).
    expect(plan.resources).toHaveLength(ids.length + 1);
    for (const r of plan.resources) expect(r, r.address).toMatchObject({ action: 'update', adopt: expect.any(String), changes: [] });
    expect(plan.resources.map((r) => r.live_id)).toEqual(expect.arrayContaining(ids));
    expect(plan.summary).toEqual({ create: 0, update: ids.length + 1, replace: 0, delete: 0 });

    const text = await edgeops(['plan', dir], { env, cwd: base });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/~ TCPEdge\/ssh \(adopt: matched by hostport 1\.tcp\.example\.com:20001\)/);
    expect(text.stdout).toMatch(/~ TLSEdge\/secure-example-com-443 \(adopt: matched by hostport secure\.example\.com:443\)/);
    expect(text.stdout).not.toContain('Warning');
  });

  it('apply adopts without making anything new; the next plan says "No changes."', async () => {
    const before = await liveById();
    const applied = await edgeops(['apply', dir, '--auto-approve'], { env, cwd: base });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const after = await liveById();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [id, item] of after) expect(parseMetadata(item.metadata).marker?.stack, id).toBe('default');
    // The user's metadata survives adoption.
    const policy = [...after.values()].find((i) => i.description === 'office networks')!;
    expect(parseMetadata(policy.metadata).user).toEqual({ team: 'net' });

    const again = await edgeops(['plan', dir, '--detailed-exitcode'], { env, cwd: base });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });
});
