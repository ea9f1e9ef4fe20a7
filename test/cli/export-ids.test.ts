// `edgeops export --id ID...` through the real CLI against the real service: only the resources named are
// written (a managed one under its marker's name, an unmanaged one to adopt, a route with its response
// headers), references to resources left out stay ids, and picking every resource of the stack round-trips
// to "No changes."; another stack's resource and an unknown id are refused, naming the stack, writing nothing.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { edgeops } from './run.ts';

let svc: TestService;
let http: ApiClient;
const base = mkdtempSync(join(tmpdir(), 'edgeops-export-ids-'));
const infra = join(base, 'infra');
const other = join(base, 'other');
const out = (name: string): string => join(base, name);
const ids = new Map<string, string>();
let handPolicy = '';

const DOCS = [
  'kind: TunnelGroupBackend', 'name: web', 'labels: {app: web}',
  '---', 'kind: TCPEdge', 'name: ssh', 'description: bastion', 'hostports: ["1.tcp.example.com:20001"]', 'backend: {backend_id: web}',
  '---', 'kind: IPPolicy', 'name: office', 'description: office',
  '---', 'kind: HTTPSEdge', 'name: site', 'hostports: ["www.example.com:443"]',
  '---', 'kind: HTTPSEdgeRoute', 'name: site-root', 'edge_id: site', 'match_type: path_prefix', 'match: /', 'backend: {backend_id: web}',
  '---', 'kind: RouteResponseHeaders', 'name: site-root-headers', 'edge_id: site', 'route_id: site-root', 'add: {x-served-by: edgeops}',
];
const env = (): Record<string, string> => ({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey });
const docsIn = (dir: string, file: string): Record<string, unknown>[] =>
  parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => d.toJS() as Record<string, unknown>);

beforeAll(async () => {
  svc = await startTestService();
  http = api(svc);
  mkdirSync(infra);
  mkdirSync(other);
  writeFileSync(join(infra, 'edgeops.yaml'), 'stack: picked\n');
  writeFileSync(join(infra, 'all.yaml'), `${DOCS.join('\n')}\n`);
  writeFileSync(join(other, 'edgeops.yaml'), 'stack: elsewhere\n');
  writeFileSync(join(other, 'all.yaml'), 'kind: IPPolicy\nname: theirs\ndescription: theirs\n');
  for (const dir of [infra, other]) {
    const applied = await edgeops(['apply', dir, '--auto-approve'], { env: env() });
    expect(applied.code, applied.stderr).toBe(0);
  }
  const lists: [string, string][] = [['/ip_policies', 'ip_policies'], ['/backends/tunnel_group', 'backends'], ['/edges/tcp', 'tcp_edges'], ['/edges/https', 'https_edges']];
  for (const [path, key] of lists) {
    for (const item of (await http.listAll(path, key)) as Record<string, unknown>[]) {
      for (const one of [item, ...((item.routes ?? []) as Record<string, unknown>[])]) {
        const { marker } = parseMetadata(one.metadata);
        if (marker) ids.set(`${marker.stack}:${marker.name}`, String(one.id));
      }
    }
  }
  const made = await http.post('/ip_policies', { description: 'made by hand' });
  expect(made.status).toBe(201);
  handPolicy = String(made.body.id);
});
afterAll(async () => {
  await svc?.close();
  rmSync(base, { recursive: true, force: true });
});

const id = (address: string): string => ids.get(`picked:${address}`)!;

describe('export --id', () => {
  it('writes just the resources named, references to the others as ids, an unmanaged one to adopt', async () => {
    const r = await edgeops(['export', infra, '--out', out('some'), '--id', id('TCPEdge/ssh'), handPolicy, '--id', id('HTTPSEdgeRoute/site-root')], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Exported 4 resources of stack "picked" (3 managed, 1 unmanaged) to ${out('some')}:`);
    expect(r.stdout).toContain(`Only the resources given by --id were exported; stack "picked" manages 3 more. A plan of ${out('some')} alone would delete them`);
    expect(docsIn(out('some'), 'tcp-edges.yaml')).toEqual([
      { kind: 'TCPEdge', name: 'ssh', description: 'bastion', hostports: ['1.tcp.example.com:20001'], backend: { enabled: true, backend_id: id('TunnelGroupBackend/web') } },
    ].map((d) => expect.objectContaining(d)));
    const route = docsIn(out('some'), 'https-edge-routes.yaml');
    expect(route).toHaveLength(1);
    expect(route[0]).toMatchObject({ kind: 'HTTPSEdgeRoute', name: 'site-root', edge_id: id('HTTPSEdge/site'), match: '/' });
    // The route's response headers belong to it, and name it.
    expect(docsIn(out('some'), 'route-response-headers.yaml')).toEqual([expect.objectContaining({ kind: 'RouteResponseHeaders', route_id: 'site-root', add: { 'x-served-by': 'edgeops' } })]);
    const policies = docsIn(out('some'), 'ip-policies.yaml');
    expect(policies).toEqual([expect.objectContaining({ kind: 'IPPolicy', name: 'made-by-hand', description: 'made by hand' })]);
    expect(readFileSync(join(out('some'), 'edgeops.yaml'), 'utf8')).toContain('adopt: true');
    expect(existsSync(join(out('some'), 'tunnel-group-backends.yaml'))).toBe(false);
    expect(existsSync(join(out('some'), 'https-edges.yaml'))).toBe(false);

    // Beside --snapshot too, --id writes documents (to the default directory when --out is not given).
    const snap = await edgeops(['export', infra, '--snapshot', out('snap.json'), '--id', id('IPPolicy/office')], { cwd: base, env: env() });
    expect(snap.code, snap.stderr).toBe(0);
    expect(existsSync(out('snap.json'))).toBe(true);
    expect(docsIn(join(base, 'edgeops-export'), 'ip-policies.yaml')).toEqual([expect.objectContaining({ kind: 'IPPolicy', name: 'office' })]);
  });

  it('picking every resource of the stack plans as "No changes."', async () => {
    const all = ['TunnelGroupBackend/web', 'TCPEdge/ssh', 'IPPolicy/office', 'HTTPSEdge/site', 'HTTPSEdgeRoute/site-root'].map(id);
    const r = await edgeops(['export', infra, '--out', out('every'), '--id', ...all], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('Only the resources given by --id');
    const planned = await edgeops(['plan', out('every'), '--detailed-exitcode'], { env: { ...env(), EDGEOPS_STACK: 'picked' } });
    expect(planned.stdout).toContain('No changes.');
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
  });

  it("refuses another stack's resource, naming the stack, and an unknown id, writing nothing", async () => {
    const theirs = ids.get('elsewhere:IPPolicy/theirs')!;
    const foreign = await edgeops(['export', infra, '--out', out('refused'), '--id', id('TCPEdge/ssh'), theirs], { env: env() });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toBe(`edgeops: cannot export this id:\n  ${theirs} (IPPolicy) is IPPolicy/theirs of stack "elsewhere": export it from that stack (--stack elsewhere)\n`);
    const unknown = 'edgtcp_0000000000000000000000000000';
    const both = await edgeops(['export', infra, '--out', out('refused'), '--id', unknown, theirs], { env: env() });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('edgeops: cannot export these ids:\n');
    expect(both.stderr).toContain(`  ${unknown}: no live resource has this id\n`);
    expect(both.stderr).toContain(`stack "elsewhere"`);
    expect(existsSync(out('refused'))).toBe(false);

    const withAll = await edgeops(['export', infra, '--all', '--id', handPolicy], { env: env() });
    expect(withAll.code).toBe(1);
    expect(withAll.stderr).toContain("option '--id <ids...>' cannot be used with option '--all'");
  });
});
