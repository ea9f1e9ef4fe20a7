// A partial failure: one create fails on the service (a hostport taken by an edge edgeops does not manage
// while apply plans: after its check before the lock, so no plan can see it), its dependent is skipped, the
// independent branch still runs; exit 1 and every failure listed with its API error. The unmanaged edge is
// never touched, and once the conflict is gone a rerun converges.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_PATH } from '../../src/lock/lock-record.ts';
import { api, startTestService, type TestService } from '../helpers/service.ts';
import { startProxy, type Hit, type RoundRobinProxy as RecordingProxy } from '../support/round-robin-proxy.ts';
import { edgeops } from './run.ts';

let svc: TestService;
let proxy: RecordingProxy;
let foreignEdge = '';

/** Once apply holds its lock, its plan's read of the HTTPS edges is answered, then the hostport is taken. */
async function takeHostportWhilePlanning(hit: Hit, body: unknown): Promise<unknown> {
  const locked = proxy.requests.some((h) => h.method === 'POST' && h.path.startsWith(LOCK_PATH));
  if (foreignEdge === '' && locked && hit.method === 'GET' && hit.path.startsWith('/edges/https')) {
    const r = await api(svc).post('/edges/https', { hostports: ['taken.example.com:443'], description: 'not managed by edgeops' });
    expect(r.status).toBe(201);
    foreignEdge = r.body.id;
  }
  return body;
}
const base = mkdtempSync(join(tmpdir(), 'edgeops-fail-'));
const dir = join(base, 'm');

beforeAll(async () => {
  svc = await startTestService();
  proxy = await startProxy(svc.url, takeHostportWhilePlanning);
  mkdirSync(dir);
  writeFileSync(join(dir, 'all.yaml'), [
    'kind: TunnelGroupBackend', 'name: web', 'labels: {app: web}',
    '---', 'kind: HTTPSEdge', 'name: site', 'hostports: ["taken.example.com:443"]',
    '---', 'kind: HTTPSEdgeRoute', 'name: site-root', 'edge_id: site', 'match_type: path_prefix', 'match: /', 'backend: {backend_id: web}',
    '',
  ].join('\n'));
});
afterAll(async () => {
  await proxy.close();
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('a partial apply failure', () => {
  it('exits 1, lists the failure with its API error and the skipped dependent, and runs the rest', async () => {
    const env = { EDGEOPS_API_URL: proxy.url, EDGEOPS_API_KEY: svc.apiKey };
    const r = await edgeops(['apply', dir, '--auto-approve'], { env });
    expect(r.code).toBe(1);
    // The new id follows once the engine reports it on the done event (ApplyEvent has no field for it yet).
    expect(r.stdout).toMatch(/^created TunnelGroupBackend\/web( \(bkdtg_\w+\))?$/m);
    expect(r.stdout).toMatch(/^failed to create HTTPSEdge\/site \(.+all\.yaml:5\): 400 ERR_HOSTPORT_IN_USE: .+$/m);
    expect(r.stdout).toMatch(/^skipped HTTPSEdgeRoute\/site-root \(depends on failed create:HTTPSEdge\/site\)$/m);
    expect(r.stdout).toContain('Apply failed: 1 action failed; 1 created, 0 updated, 0 replaced, 0 deleted.\n');
    expect(r.stdout).toMatch(/^  failed:  create HTTPSEdge\/site \(.+all\.yaml:5\): 400 ERR_HOSTPORT_IN_USE: /m);
    expect(r.stdout).toMatch(/^  skipped: create HTTPSEdgeRoute\/site-root/m);
    expect(r.stderr).toContain('edgeops: apply failed');

    expect(foreignEdge).not.toBe('');
    const foreign = await api(svc).get(`/edges/https/${foreignEdge}`);
    expect(foreign.status).toBe(200);
    expect(foreign.body.description).toBe('not managed by edgeops');

    expect((await api(svc).del(`/edges/https/${foreignEdge}`)).status).toBe(204);
    const rerun = await edgeops(['apply', dir, '--auto-approve'], { env });
    expect(rerun.stderr).toBe('');
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('Apply complete: 2 created, 0 updated, 0 replaced, 0 deleted.\n');
    const plan = await edgeops(['plan', dir, '--detailed-exitcode'], { env });
    expect(plan.code).toBe(0);
  });
});
