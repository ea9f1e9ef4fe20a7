// The self-check after apply, as a user sees it: a service that rewrites a value edgeops does not normalize
// (played by a proxy that edits the tunnel-group backends it lists) makes a perpetual diff. apply prints what it
// wrote first (the per-action lines and the summary), then the self-check failure naming the resource and the
// field, and exits 1; after a partial failure the check still runs over the actions that completed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_PATH } from '../../src/lock/lock-record.ts';
import { api, startTestService, type TestService } from '../helpers/service.ts';
import { startProxy, type Hit, type RoundRobinProxy as RecordingProxy } from '../support/round-robin-proxy.ts';
import { edgeops } from './run.ts';

let svc: TestService;
let proxy: RecordingProxy;
const base = mkdtempSync(join(tmpdir(), 'edgeops-selfcheck-'));

/** When set: once apply holds its lock, its plan's read of the HTTPS edges is answered, then this hostport is taken. */
let takeWhilePlanning: string | undefined;

async function rewrite(hit: Hit, body: unknown): Promise<unknown> {
  const locked = proxy.requests.some((h) => h.method === 'POST' && h.path.startsWith(LOCK_PATH));
  if (takeWhilePlanning && locked && hit.method === 'GET' && hit.path.startsWith('/edges/https')) {
    const r = await api(svc).post('/edges/https', { hostports: [takeWhilePlanning], description: 'not managed by edgeops' });
    expect(r.status).toBe(201);
    takeWhilePlanning = undefined;
  }
  return rewriteDescriptions(hit, body);
}

/** The service "helpfully" edits every tunnel-group backend's description it lists. */
function rewriteDescriptions(hit: Hit, body: unknown): unknown {
  if (hit.method !== 'GET' || !hit.path.startsWith('/backends/tunnel_group')) return body;
  const page = body as { backends?: { description?: string }[] };
  for (const b of page.backends ?? []) if (b.description) b.description = `${b.description} (edited)`;
  return body;
}

function manifests(name: string, lines: string[]): string {
  const dir = join(base, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'all.yaml'), `${lines.join('\n')}\n`);
  return dir;
}

/** Each case on a stack of its own, so one case's resources are not another's deletes. */
const env = (stack: string) => ({ EDGEOPS_API_URL: proxy.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: stack });

beforeAll(async () => {
  svc = await startTestService();
  proxy = await startProxy(svc.url, rewrite);
});
afterEach(() => {
  proxy.requests.length = 0;
});
afterAll(async () => {
  await proxy.close();
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('the self-check after apply', () => {
  it('prints the summary of what was written, then the perpetual diff naming the field, and exits 1', async () => {
    const dir = manifests('bug', [
      'kind: TunnelGroupBackend', 'name: web', 'description: web tier', 'labels: {app: web}',
      '---', 'kind: IPPolicy', 'name: office',
    ]);
    const r = await edgeops(['apply', dir, '--auto-approve'], { env: env('bug') });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^created TunnelGroupBackend\/web \(bkdtg_\w+\)$/m);
    expect(r.stdout).toMatch(/^created IPPolicy\/office \(ipp_\w+\)$/m);
    expect(r.stdout).toContain('Apply complete: 2 created, 0 updated, 0 replaced, 0 deleted.\n');
    expect(r.stderr).toContain('edgeops: edgeops bug: after apply, the plan still has 1 action(s) for resources it just changed');
    expect(r.stderr).toContain('  TunnelGroupBackend/web: update: /description\n');
    expect(r.stderr).not.toContain('IPPolicy/office');
    // Paths only: the values (which could be secrets) are never in the report.
    expect(r.stderr).not.toContain('web tier');
    // The check re-planned: the lists were read again after the creates.
    const creates = proxy.requests.filter((h) => h.method === 'POST' && h.path === '/backends/tunnel_group');
    expect(creates).toHaveLength(1);
    const lastCreate = proxy.requests.lastIndexOf(creates[0]!);
    expect(proxy.requests.slice(lastCreate).some((h) => h.method === 'GET' && h.path.startsWith('/backends/tunnel_group'))).toBe(true);
  });

  it('after a partial failure, lists the failure in the summary and still checks the actions that completed', async () => {
    // Taken after apply's check before the lock, so no plan sees it: the create fails on the service.
    takeWhilePlanning = 'taken.example.com:443';
    const dir = manifests('partial', [
      'kind: TunnelGroupBackend', 'name: api', 'description: api tier', 'labels: {app: api}',
      '---', 'kind: HTTPSEdge', 'name: site', 'hostports: ["taken.example.com:443"]',
      '---', 'kind: HTTPSEdgeRoute', 'name: site-root', 'edge_id: site', 'match_type: path_prefix', 'match: /', 'backend: {backend_id: api}',
    ]);
    const r = await edgeops(['apply', dir, '--auto-approve'], { env: env('partial') });
    expect(r.code).toBe(1);
    expect(takeWhilePlanning).toBeUndefined();
    expect(r.stdout).toMatch(/^failed to create HTTPSEdge\/site \(.+\.yaml:6\): 400 ERR_HOSTPORT_IN_USE: .+$/m);
    expect(r.stdout).toContain('Apply failed: 1 action failed; 1 created, 0 updated, 0 replaced, 0 deleted.\n');
    expect(r.stdout).toMatch(/^ {2}skipped: create HTTPSEdgeRoute\/site-root/m);
    expect(r.stderr).toContain('  TunnelGroupBackend/api: update: /description\n');
    // What failed or was skipped is the apply's failure, reported above; the check does not call it a bug.
    expect(r.stderr).not.toContain('HTTPSEdge/site');
  });

  it('passes silently when the service keeps what was sent', async () => {
    const dir = manifests('clean', ['kind: TunnelGroupBackend', 'name: plain', 'labels: {app: plain}']);
    const r = await edgeops(['apply', dir, '--auto-approve'], { env: env('clean') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete: 1 created, 0 updated, 0 replaced, 0 deleted.\n');
  });
});
