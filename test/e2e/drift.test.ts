// `edgeops drift` as a user runs it (node bin/edgeops.js, a child process) against the real service: a converged
// manifest set is in sync; then fields are changed, resources and modules deleted and added by hand through the
// API, and drift reports each with its direction and exits 2, writing nothing (ids of managed resources named,
// a natural-key item by its parent, as plans show them); apply; drift exits 0 again.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeops } from '../cli/run.ts';
import { allKinds, makeCerts, type Certs } from './fixtures.ts';
import { idOf, startE2E, STACK, type E2E } from './harness.ts';
import { serviceText, writeDocs } from './export-fixtures.ts';

let e: E2E;
let certs: Certs;
let dir: string;
const env = () => ({ EDGEOPS_API_URL: e.svc.url, EDGEOPS_API_KEY: e.svc.apiKey, EDGEOPS_STACK: STACK });
const ids: Record<string, string> = {};

/** The service's files, byte for byte (the WAL too: a write would append to it). */
function dbBytes(): string {
  const hash = createHash('sha256');
  for (const f of [e.svc.dbFile, `${e.svc.dbFile}-wal`]) if (existsSync(f)) hash.update(readFileSync(f));
  return hash.digest('hex');
}

beforeAll(async () => {
  e = await startE2E();
  certs = await makeCerts();
  await e.converge(allKinds(certs));
  dir = writeDocs(allKinds(certs));
  ids.ssh = await idOf(e, '/edges/tcp', 'tcp_edges', 'TCPEdge/ssh');
  ids.passthrough = await idOf(e, '/edges/tls', 'tls_edges', 'TLSEdge/passthrough');
  ids.partner = await idOf(e, '/ip_policy_rules', 'ip_policy_rules', 'IPPolicyRule/partner-v4');
  ids.office = await idOf(e, '/ip_policies', 'ip_policies', 'IPPolicy/office');
  ids.audit = await idOf(e, '/event_subscriptions', 'event_subscriptions', 'EventSubscription/audit');
  ids.www = await idOf(e, '/edges/https', 'https_edges', 'HTTPSEdge/www');
  const www = (await e.http.get(`/edges/https/${ids.www}`)).body;
  ids.brew = String(www.routes.find((r: { match: string }) => r.match === '/brew').id);
}, 60_000);
afterAll(async () => {
  await e?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('drift', () => {
  it('exits 0 and says so when live state matches the manifests', async () => {
    const r = await edgeops(['drift', dir], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('No drift. Live state matches the manifests.\n');
  });

  it('reports changes made by hand with their direction, exits 2, and writes nothing', async () => {
    const h = e.http;
    expect((await h.patch(`/edges/tcp/${ids.ssh}`, { description: 'changed by hand' })).status).toBe(200);
    expect((await h.del(`/edges/tcp/${ids.ssh}/policy`)).status).toBe(204);
    expect((await h.del(`/ip_policy_rules/${ids.partner}`)).status).toBe(204);
    expect((await h.put(`/edges/tls/${ids.passthrough}/ip_restriction`, { ip_policy_ids: [ids.office] })).status).toBe(200);
    expect((await h.post(`/event_subscriptions/${ids.audit}/sources`, { type: 'ip_policy_deleted.v0' })).status).toBe(201);
    expect((await h.put(`/edges/https/${ids.www}/routes/${ids.brew}/response_headers`, { add: { 'x-by-hand': '1' } })).status).toBe(200);
    const rogue = await h.post('/ip_policies', { metadata: JSON.stringify({ edgeops: { stack: STACK, name: 'IPPolicy/rogue' } }) });
    expect(rogue.status).toBe(201);

    const before = await serviceText(h);
    const bytes = dbBytes();
    const json = await edgeops(['drift', dir, '--format', 'json'], { env: env() });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout);
    expect(report.in_sync).toBe(false);
    const findings = report.resources.flatMap((r: { address: string; apply: string; findings: { direction: string; path: string; live: unknown; desired: unknown; action: string }[] }) =>
      r.findings.map((f) => [r.address, r.apply, f.direction, f.path, f.live, f.desired, f.action]));
    const byText = (a: unknown, b: unknown): number => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
    expect([...findings].sort(byText)).toEqual([
      ['IPPolicy/rogue', 'delete', 'live-only', '', null, null, 'delete'],
      ['IPPolicyRule/partner-v4', 'create', 'missing', '', null, null, 'create'],
      [`RouteResponseHeaders/${ids.www}/${ids.brew}`, 'delete', 'live-only', '', null, null, 'delete'],
      ['TCPEdge/ssh', 'update', 'changed', '/description', 'changed by hand', 'ssh', 'update'],
      ['TCPEdge/ssh', 'update', 'missing', '/policy', null,
        { enabled: true, inbound: [{ name: 'only-22', expressions: ['conn.server_port != 22'], actions: [{ type: 'deny' }] }], outbound: [] }, 'module-put'],
      ['TLSEdge/passthrough', 'update', 'live-only', '/ip_restriction', { enabled: true, ip_policy_ids: [ids.office] }, null, 'module-delete'],
      ['EventSources/audit-sources', 'update', 'live-only', '/types', 'ip_policy_deleted.v0', null, 'update'],
    ].sort(byText));
    expect(report.summary).toEqual({ changed: 1, missing: 2, live_only: 4, resources: 6 });
    // Ids stay ids; the managed ones are named, and a natural-key item without a document is labelled by its parent.
    const passthrough = report.resources.find((r: { address: string }) => r.address === 'TLSEdge/passthrough');
    expect(passthrough.label).toBe('TLSEdge/passthrough');
    expect(passthrough.findings[0].names).toEqual({ [ids.office]: 'IPPolicy/office' });
    const headers = report.resources.find((r: { kind: string }) => r.kind === 'RouteResponseHeaders');
    expect(headers.label).toBe('RouteResponseHeaders of HTTPSEdgeRoute/brew');

    const text = await edgeops(['drift', dir], { env: env() });
    expect(text.code).toBe(2);
    expect(text.stdout).toContain(`TCPEdge/ssh (${ids.ssh}): apply would update it\n    changed    description: live "changed by hand", manifests "ssh"\n`);
    expect(text.stdout).toContain(`    live-only  module ip_restriction: {enabled: true, ip_policy_ids: [IPPolicy/office (${ids.office})]} present live, not in the manifests  # apply: delete module ip_restriction\n`);
    expect(text.stdout).toContain(`RouteResponseHeaders of HTTPSEdgeRoute/brew (${ids.www}/${ids.brew}): apply would delete it\n`);
    expect(text.stdout).toContain('IPPolicyRule/partner-v4: apply would create it\n    missing    no live resource (deleted out of band, or never applied)\n');
    expect(text.stdout).toContain('    live-only  types[]: "ip_policy_deleted.v0" present live, not in the manifests\n');
    expect(text.stdout).toContain('Drift: 1 changed, 2 missing, 4 live-only (6 resources differ from the manifests).');

    const md = await edgeops(['drift', dir, '--format', 'markdown'], { env: env() });
    expect(md.code).toBe(2);
    expect(md.stdout).toContain('| 1 | 2 | 4 | 6 |');
    expect(md.stdout).toContain('| `IPPolicyRule/partner-v4` | missing | resource | absent | present | create |');
    expect(md.stdout).toContain(`| \`TLSEdge/passthrough\` (\`${ids.passthrough}\`) | live-only | module ip\\_restriction | \`{enabled: true, ip_policy_ids: [IPPolicy/office (${ids.office})]}\` |`);
    expect(md.stdout).toContain(`| \`RouteResponseHeaders of HTTPSEdgeRoute/brew\` (\`${ids.www}/${ids.brew}\`) | live-only | resource | present | absent | delete |`);

    // Three drift runs later, the service holds exactly what it held, to the byte.
    expect(await serviceText(h)).toBe(before);
    expect(dbBytes()).toBe(bytes);
  });

  it('after apply, drift exits 0 again', async () => {
    const apply = await edgeops(['apply', dir, '--auto-approve'], { env: env() });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const r = await edgeops(['drift', dir, '--format', 'json'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ in_sync: true, resources: [], summary: { changed: 0, missing: 0, live_only: 0, resources: 0 } });
  });

  it('errors exit 1, not 2: invalid manifests (before any request) and an unreachable service', async () => {
    const invalid = await edgeops(['drift', writeDocs([{ kind: 'IPPolicy', name: 'Bad_Name' }])], { env: { ...env(), EDGEOPS_API_URL: 'http://127.0.0.1:9' } });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('1 problem in the manifests');
    const unreachable = await edgeops(['drift', dir], { env: { ...env(), EDGEOPS_API_URL: 'http://127.0.0.1:9', EDGEOPS_RETRY_BUDGET: '0' } });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr).toMatch(/^edgeops: cannot connect to http:\/\/127\.0\.0\.1:9: connection refused; .* \[GET \/\S+\]; gave up after \d+ s, as the service has not answered once in this run \(--retry-budget, 0 s, .*\)$/m);
  });
});
