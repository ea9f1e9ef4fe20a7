// Plans a reviewer can read, and no false alarms, through the real CLI against the real service: ids of managed
// resources are shown with their Kind/name (live values too), a delete lists what it destroys, a natural-key
// item without a document is labelled by its parents' names, the JSON plan keeps ids and gains names, an apply
// failure names the document's file:line and the resources its message mentions; a second stack gets the
// "apply will fail" warning only where apply does fail.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonPlan } from '../../src/render/json.ts';
import { api, startTestService, type TestService } from '../helpers/service.ts';
import { edgeops, output, type RunResult } from './run.ts';

let svc: TestService;
const base = mkdtempSync(join(tmpdir(), 'edgeops-readable-'));

const run = (args: string[]): Promise<RunResult> => edgeops(args, { cwd: base, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey } });

function write(dir: string, files: Record<string, string>): void {
  rmSync(join(base, dir), { recursive: true, force: true });
  mkdirSync(join(base, dir), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(base, dir, file), text);
}

const BACKENDS = [
  'kind: TunnelGroupBackend\nname: mqtt\nlabels: {app: mqtt}\n',
  'kind: TunnelGroupBackend\nname: web\nlabels: {app: web}\n',
].join('---\n');
const EDGE = (backend: string): string => `kind: TLSEdge\nname: devices\ndescription: device gateway\nhostports: ["devices.example.com:443"]\nbackend: {backend_id: ${backend}}\n`;
const HTTPS = [
  'kind: HTTPSEdge\nname: site\nhostports: ["site.example.com:443"]\n',
  'kind: HTTPSEdgeRoute\nname: api\nedge_id: site\nmatch_type: path_prefix\nmatch: /api\n',
].join('---\n');
const HEADERS = 'kind: RouteResponseHeaders\nname: api-headers\nedge_id: site\nroute_id: api\nadd: {X-Frame-Options: DENY}\n';

async function idOf(path: string, key: string, name: string): Promise<string> {
  const items = (await api(svc).listAll(path, key)) as { id: string; metadata?: string }[];
  return items.find((i) => i.metadata?.includes(`"name":"${name}"`))!.id;
}

beforeAll(async () => {
  svc = await startTestService();
  write('infra', { 'edgeops.yaml': 'stack: readable\n', 'backends.yaml': BACKENDS, 'edges.yaml': EDGE('mqtt'), 'https.yaml': `${HTTPS}---\n${HEADERS}` });
  const r = await run(['apply', 'infra', '--auto-approve']);
  expect(r.code, output(r)).toBe(0);
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('names for ids', () => {
  it('shows a live reference as Kind/name (id), in text and in the JSON plan', async () => {
    const mqtt = await idOf('/backends/tunnel_group', 'backends', 'TunnelGroupBackend/mqtt');
    write('infra', { 'edgeops.yaml': 'stack: readable\n', 'backends.yaml': BACKENDS, 'edges.yaml': EDGE('web'), 'https.yaml': `${HTTPS}---\n${HEADERS}` });
    const web = await idOf('/backends/tunnel_group', 'backends', 'TunnelGroupBackend/web');
    const text = await run(['plan', 'infra']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`backend.backend_id: TunnelGroupBackend/mqtt (${mqtt}) -> TunnelGroupBackend/web (${web})`);
    const json = await run(['plan', 'infra', '--format', 'json']);
    const plan = JSON.parse(json.stdout) as JsonPlan;
    expect(plan.format_version).toBe(2);
    const change = plan.resources.find((r) => r.address === 'TLSEdge/devices')!.changes.find((c) => c.path === '/backend/backend_id')!;
    expect(change).toMatchObject({ old: mqtt, new: web, names: { [mqtt]: 'TunnelGroupBackend/mqtt', [web]: 'TunnelGroupBackend/web' } });
    expect(plan.resources.find((r) => r.address === 'TLSEdge/devices')!.source).toBe(join('infra', 'edges.yaml:1'));
  });

  it('lists the attributes a delete destroys, and labels a natural-key item by its parents\' names', async () => {
    write('infra', { 'edgeops.yaml': 'stack: readable\n', 'backends.yaml': BACKENDS, 'https.yaml': HTTPS });
    const mqtt = await idOf('/backends/tunnel_group', 'backends', 'TunnelGroupBackend/mqtt');
    const route = (await api(svc).listAll('/edges/https', 'https_edges') as { routes: { id: string }[] }[])[0]!.routes[0]!.id;
    const r = await run(['plan', 'infra']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  - TLSEdge/devices'));
    expect(lines.slice(at + 1, at + 4)).toEqual([
      `      - backend: {enabled: true, backend_id: TunnelGroupBackend/mqtt (${mqtt})} -> null`,
      '      - description: "device gateway" -> null',
      '      - hostports: ["devices.example.com:443"] -> null',
    ]);
    expect(r.stdout).toMatch(/ {2}- RouteResponseHeaders of HTTPSEdgeRoute\/api {2}# edghts_\w+\/edghtsrt_\w+\n/);
    expect(r.stdout).toContain(`      - route_id: HTTPSEdgeRoute/api (${route}) -> null`);
    expect(r.stdout).toContain('      - add: {"x-frame-options": "DENY"} -> null');
    const json = JSON.parse((await run(['plan', 'infra', '--format', 'json'])).stdout) as JsonPlan;
    const headers = json.resources.find((res) => res.kind === 'RouteResponseHeaders')!;
    expect(headers.label).toBe('RouteResponseHeaders of HTTPSEdgeRoute/api');
    expect(headers.address).toMatch(/^RouteResponseHeaders\/edghts_\w+\/edghtsrt_\w+$/);
    // Applied, the progress lines use the label too.
    const applied = await run(['apply', 'infra', '--auto-approve']);
    expect(applied.code, output(applied)).toBe(0);
    expect(applied.stdout).toContain('deleted RouteResponseHeaders of HTTPSEdgeRoute/api');
  });
});

describe('a second stack', () => {
  it('is refused only where apply would fail, at the file:line:col, naming the resource in the way; apply writes nothing', async () => {
    // The same names and descriptions as stack "readable" plus the same hostport as its HTTPS edge.
    write('second', {
      'edgeops.yaml': 'stack: second\n',
      'backends.yaml': BACKENDS,
      'site.yaml': '# the public site\nkind: HTTPSEdge\nname: site-copy\nhostports: ["site.example.com:443"]\n',
    });
    const plan = await run(['plan', 'second']);
    expect(plan.code).toBe(1);
    const notes = plan.stdout.split('\n').filter((l) => l.startsWith('Warning:') || l.startsWith('Error:'));
    const site = await idOf('/edges/https', 'https_edges', 'HTTPSEdge/site');
    const error = `${join('second', 'site.yaml')}:4:13: HTTPSEdge/site-copy: hostport "site.example.com:443" is held by HTTPSEdge/site (stack readable), and the service lets one resource hold it at a time: remove it from stack readable first`;
    expect(notes).toEqual([`Error: ${error}`]);
    // Named as its stack names it, never by its id.
    expect(plan.stdout).not.toContain(site);
    const applied = await run(['apply', 'second', '--auto-approve']);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toBe('');
    expect(applied.stderr).toBe(`${error}\nedgeops: Plan has 1 error, so apply refused it and changed nothing\n`);
  });
});
