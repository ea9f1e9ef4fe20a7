// `edgeops list` through the real CLI against the real service: the stack's managed resources with their ids
// and documents (naturally sorted, a gone document as "not in the manifests", a renamed one at its new
// document), and nothing else: not another stack's resources, not unmanaged ones, not the stack lock's record,
// not natural-key items. PATH defaults to the current directory; its edgeops.yaml names the stack.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { lockBody } from '../../src/lock/lock-record.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { copyExample, edgeops } from './run.ts';

let svc: TestService;
let http: ApiClient;
const base = mkdtempSync(join(tmpdir(), 'edgeops-list-'));
const infra = join(base, 'infra');
const other = join(base, 'other');

const EDGES = [
  'kind: TunnelGroupBackend', 'name: web', 'labels: {app: web}',
  '---', 'kind: TCPEdge', 'name: bulk-10', 'hostports: ["1.tcp.example.com:20010"]',
  '---', 'kind: TCPEdge', 'name: bulk-2', 'hostports: ["1.tcp.example.com:20002"]',
  '---', 'kind: TCPEdge', 'name: bulk-1', 'hostports: ["1.tcp.example.com:20001"]',
  '---', 'kind: HTTPSEdge', 'name: site', 'hostports: ["www.example.com:443"]',
  '---', 'kind: HTTPSEdgeRoute', 'name: site-root', 'edge_id: site', 'match_type: path_prefix', 'match: /', 'backend: {backend_id: web}',
  '---', 'kind: RouteResponseHeaders', 'name: site-root-headers', 'edge_id: site', 'route_id: site-root', 'add: {x-served-by: edgeops}',
];
const POLICIES = ['kind: IPPolicy', 'name: office', 'description: office', '---', 'kind: IPPolicy', 'name: lab', 'description: lab'];
const lines = (docs: string[]): string => `${docs.join('\n')}\n`;
const env = (): Record<string, string> => ({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey });

/** Live ids by marker address, for one stack, as the service holds them. */
async function idsOf(stack: string): Promise<Map<string, string>> {
  const lists: [string, string][] = [['/ip_policies', 'ip_policies'], ['/backends/tunnel_group', 'backends'], ['/edges/tcp', 'tcp_edges'], ['/edges/https', 'https_edges']];
  const ids = new Map<string, string>();
  for (const [path, key] of lists) {
    for (const item of (await http.listAll(path, key)) as Record<string, unknown>[]) {
      const { marker } = parseMetadata(item.metadata);
      if (marker?.stack === stack) ids.set(marker.name, String(item.id));
      // Routes are listed inside their edge.
      for (const route of (item.routes ?? []) as Record<string, unknown>[]) {
        const routeMarker = parseMetadata(route.metadata).marker;
        if (routeMarker?.stack === stack) ids.set(routeMarker.name, String(route.id));
      }
    }
  }
  return ids;
}

beforeAll(async () => {
  svc = await startTestService();
  http = api(svc);
  mkdirSync(infra);
  mkdirSync(other);
  writeFileSync(join(infra, 'edgeops.yaml'), 'stack: listed\n');
  writeFileSync(join(infra, 'edges.yaml'), lines(EDGES));
  writeFileSync(join(infra, 'policies.yaml'), lines(POLICIES));
  writeFileSync(join(other, 'edgeops.yaml'), 'stack: elsewhere\n');
  writeFileSync(join(other, 'all.yaml'), lines(['kind: IPPolicy', 'name: office', 'description: not ours']));
  for (const dir of [infra, other]) {
    const applied = await edgeops(['apply', dir, '--auto-approve'], { env: env() });
    expect(applied.code, applied.stderr).toBe(0);
  }
  // Neither an unmanaged resource nor the stack's lock record is one of the stack's resources.
  expect((await http.post('/ip_policies', { description: 'made by hand' })).status).toBe(201);
  const now = Date.now();
  const lock = lockBody('listed', { holder: 'someone@elsewhere pid 1', token: 'tok', acquired: new Date(now).toISOString(), expires: new Date(now + 600_000).toISOString() });
  expect((await http.post('/ip_policies', lock)).status).toBe(201);
});
afterAll(async () => {
  await svc?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('edgeops list', () => {
  it('lists each managed resource with its id and document, naturally sorted', async () => {
    const ids = await idsOf('listed');
    const listed = await edgeops(['list', 'infra'], { cwd: base, env: env() });
    expect(listed.code, listed.stderr).toBe(0);
    const rows: [string, string][] = [
      ['HTTPSEdge/site', 'infra/edges.yaml:17'],
      ['HTTPSEdgeRoute/site-root', 'infra/edges.yaml:21'],
      ['IPPolicy/lab', 'infra/policies.yaml:5'],
      ['IPPolicy/office', 'infra/policies.yaml:1'],
      ['TCPEdge/bulk-1', 'infra/edges.yaml:13'],
      ['TCPEdge/bulk-2', 'infra/edges.yaml:9'],
      ['TCPEdge/bulk-10', 'infra/edges.yaml:5'],
      ['TunnelGroupBackend/web', 'infra/edges.yaml:1'],
    ];
    const idWidth = Math.max(...rows.map(([a]) => ids.get(a)!.length));
    expect(listed.stdout).toBe([
      'Stack "listed" manages 8 resources:',
      '',
      ...rows.map(([address, source]) => `  ${address.padEnd(24)}  ${ids.get(address)!.padEnd(idWidth)}  ${source}`),
      '',
    ].join('\n'));
  });

  it('shows a resource whose document is gone as not in the manifests, and a renamed one at its new document', async () => {
    writeFileSync(join(infra, 'policies.yaml'), lines(['kind: IPPolicy', 'name: front-office', 'moved_from: office', 'description: office']));
    try {
      const ids = await idsOf('listed');
      const listed = await edgeops(['list', 'infra', '--format', 'json'], { cwd: base, env: env() });
      expect(listed.code, listed.stderr).toBe(0);
      const json = JSON.parse(listed.stdout);
      expect(json.format_version).toBe(1);
      expect(json.stack).toBe('listed');
      const policies = json.resources.filter((r: { kind: string }) => r.kind === 'IPPolicy');
      expect(policies).toEqual([
        { address: 'IPPolicy/lab', kind: 'IPPolicy', name: 'lab', id: ids.get('IPPolicy/lab'), source: null },
        { address: 'IPPolicy/office', kind: 'IPPolicy', name: 'office', id: ids.get('IPPolicy/office'), source: 'infra/policies.yaml:1', moved_to: 'IPPolicy/front-office' },
      ]);
      expect(json.resources.map((r: { address: string }) => r.address)).toEqual([
        'HTTPSEdge/site', 'HTTPSEdgeRoute/site-root', 'IPPolicy/lab', 'IPPolicy/office', 'TCPEdge/bulk-1', 'TCPEdge/bulk-2', 'TCPEdge/bulk-10', 'TunnelGroupBackend/web',
      ]);

      // PATH defaults to the current directory; file:line is relative to it.
      const text = await edgeops(['list'], { cwd: infra, env: env() });
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/^ {2}IPPolicy\/lab +ipp_\w+ +not in the manifests$/m);
      expect(text.stdout).toMatch(/^ {2}IPPolicy\/office +ipp_\w+ +policies\.yaml:1 \(renamed to IPPolicy\/front-office\)$/m);
      expect(text.stdout).toMatch(/^ {2}TCPEdge\/bulk-2 +edgtcp_\w+ +edges\.yaml:9$/m);
      expect(text.stdout).toContain('\n1 resource is not in the manifests: a plan of these manifests deletes it.\n');
    } finally {
      writeFileSync(join(infra, 'policies.yaml'), lines(POLICIES));
    }
  });

  it('lists another stack by its own edgeops.yaml, and an empty stack', async () => {
    const elsewhere = await edgeops(['list', other], { env: env() });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stdout).toMatch(/^Stack "elsewhere" manages 1 resource:\n\n {2}IPPolicy\/office {2}ipp_\w+ {2}\S+all\.yaml:1\n$/);
    const none = await edgeops(['list', infra, '--stack', 'nobody'], { env: env() });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('Stack "nobody" manages no resources.\n');
  });

  it('needs a service, and says which setting is missing', async () => {
    const missing = await edgeops(['list', infra]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('edgeops: no service URL: pass --api-url or set EDGEOPS_API_URL (or api_url in edgeops.yaml); or use --local for the embedded service\n');
    const local = await edgeops(['list', infra, '--local']);
    expect(local.code).toBe(1);
    expect(local.stderr).toContain('--local: there is no embedded service database at');
    // Part of a stack is refused, as for plan: the documents left out would read as gone.
    const part = await edgeops(['list', join(infra, 'edges.yaml')], { env: env() });
    expect(part.code).toBe(1);
    expect(part.stdout).toBe('');
    expect(part.stderr).toContain('part of a stack');
    const help = await edgeops(['list', '--help']);
    expect(help.stdout).toContain('$ edgeops list infra/ --format json');
  });
});

describe('list --local', () => {
  it('lists the embedded service of a directory applied with --local', async () => {
    const example = copyExample('basic');
    try {
      const planned = await edgeops(['plan', example.dir, '--local', '--format', 'json']);
      expect(planned.code, planned.stderr).toBe(0);
      // What the apply creates, but the natural-key items (they belong to their parent and carry no marker).
      const natural = new Set(['RouteResponseHeaders', 'EventSources']);
      const created = (JSON.parse(planned.stdout).resources as { address: string; kind: string; action: string; source: string }[])
        .filter((r) => r.action === 'create' && !natural.has(r.kind));
      expect(created.length).toBeGreaterThan(3);
      const applied = await edgeops(['apply', example.dir, '--local', '--auto-approve']);
      expect(applied.code, applied.stderr).toBe(0);
      const listed = await edgeops(['list', example.dir, '--local', '--format', 'json']);
      expect(listed.code, listed.stderr).toBe(0);
      const resources = JSON.parse(listed.stdout).resources as { address: string; source: string }[];
      expect(resources.map((r) => r.address).sort()).toEqual(created.map((r) => r.address).sort());
      for (const r of resources) expect(r.source, r.address).toBe(created.find((c) => c.address === r.address)!.source);
    } finally {
      example.dispose();
    }
  });
});
