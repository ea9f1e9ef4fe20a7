// Invalid manifests stop plan and apply before any change: exit 1, every problem printed as file:line:col, and
// no write reaches the service (a recording server counts them), not even apply's lock record: apply reads the
// manifests before it takes the lock. What may reach it is what starts while they load: plan's list reads, and
// the reads of apply's check before the lock that need no manifest.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RoundRobinProxy as RecordingProxy } from '../support/round-robin-proxy.ts';
import { edgeops } from './run.ts';

let service: RecordingProxy;
const dir = mkdtempSync(join(tmpdir(), 'edgeops-invalid-'));

beforeAll(async () => {
  service = await startProxy();
  writeFileSync(join(dir, 'site.yaml'), [
    'kind: HTTPSEdge', 'name: www', 'hostports: ["www.example.com:443"]',
    '---', 'kind: HTTPSEdge', 'name: shop', 'hostports: ["shop.example.com:443"]',
    '---', 'kind: HTTPSEdgeRoute', 'name: root', 'edge_id: www', 'match_type: path_prefix', 'match: /',
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'headers.yaml'), [
    'kind: RouteResponseHeaders', 'name: first', 'edge_id: www', 'route_id: root', 'add: {X-A: "1", x-a: "2"}',
    '---', 'kind: RouteResponseHeaders', 'name: second', 'edge_id: shop', 'route_id: root',
    '---', 'kind: TCPEdge', 'name: Bad_Name', 'backend: {backend_id: nowhere}',
    // Only the contract's rules (checked once names are resolved) refuse this one.
    '---', 'kind: HTTPResponseBackend', 'name: hr', 'body: hi', 'headers: {x-a: "\\u0007"}',
    '',
  ].join('\n'));
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const EXPECTED = [
  'headers.yaml:5:17: RouteResponseHeaders/first: add: "X-A" and "x-a" are the same header (header names ignore case)',
  'headers.yaml:9:10: RouteResponseHeaders/second: edge_id: HTTPSEdge/shop is not the edge_id of HTTPSEdgeRoute/root, which is HTTPSEdge/www (site.yaml:11:10); they must name the same resource',
  'headers.yaml:10:11: RouteResponseHeaders/second: route_id: the RouteResponseHeaders of HTTPSEdgeRoute/root are already managed by RouteResponseHeaders/first (headers.yaml:4:11); one document states them all, so merge the two',
  'headers.yaml:13:7: TCPEdge/Bad_Name: name "Bad_Name" must not contain "_" (a value with "_" is read as a literal id) or upper-case letters',
  'headers.yaml:14:23: TCPEdge/Bad_Name: backend.backend_id: no TunnelGroupBackend or HTTPResponseBackend named "nowhere"',
  'headers.yaml:19:16: HTTPResponseBackend/hr: headers["x-a"]: header values must not contain control characters',
  'edgeops: 6 problems in the manifests',
];

describe('invalid manifests', () => {
  it.each([
    ['plan', ['.']],
    ['plan', ['.', '--format', 'json', '--detailed-exitcode']],
    ['apply', ['.', '--auto-approve']],
    ['apply', ['.']],
  ])('%s %j exits 1 with every positioned error and sends no write', async (command, args) => {
    service.requests.length = 0;
    const r = await edgeops([command, ...args], { cwd: dir, env: { EDGEOPS_API_URL: service.url, EDGEOPS_API_KEY: 'key-of-a-service-never-reached' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual(EXPECTED);
    const writes = service.requests.filter((h) => h.method !== 'GET');
    expect(writes).toEqual([]);
    // plan's list reads were under way before the manifests had been read (they overlap the loading).
    if (command === 'plan') expect(service.requests.filter((h) => h.method === 'GET').length).toBeGreaterThan(0);
  });

  it('the recording server does count requests (a valid plan reaches it)', async () => {
    const valid = mkdtempSync(join(tmpdir(), 'edgeops-valid-'));
    try {
      writeFileSync(join(valid, 'p.yaml'), 'kind: IPPolicy\nname: office\n');
      const r = await edgeops(['plan', valid], { env: { EDGEOPS_API_URL: service.url, EDGEOPS_API_KEY: 'key-of-a-service-never-reached' } });
      expect(r.code).toBe(1);
      expect(service.requests.length).toBeGreaterThan(0);
    } finally {
      service.requests.length = 0;
      rmSync(valid, { recursive: true, force: true });
    }
  });
});
