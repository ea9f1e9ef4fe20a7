// traffic_policy through the CLI, as a user writes it: the policy as a YAML mapping or {file: …} in a manifest,
// applied and then planned again with no diff; the live value rewritten as JSON text in another key order by
// another tool is still no diff; a changed rule reads as that rule in the plan; a broken policy is a manifest
// error with its position and no request; export writes the policy back as a mapping that plans clean.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { edgeops, output } from './run.ts';

const { svc, c } = serviceForFile();
const base = mkdtempSync(join(tmpdir(), 'edgeops-traffic-policy-'));
const dir = join(base, 'manifests');
let env: Record<string, string> = {};

const EDGE = `kind: TCPEdge
name: ssh
hostports: ["1.tcp.example.com:20001"]
traffic_policy:
  value:
    on_tcp_connect:
      - name: office only
        expressions: ["conn.client_ip != '203.0.113.7'"]
        actions:
          - type: deny
            config: {reason: not the office, code: 7}
---
kind: HTTPSEdge
name: www
hostports: ["www.example.com:443"]
---
kind: HTTPSEdgeRoute
name: api
edge_id: www
match_type: path_prefix
match: /api
traffic_policy:
  enabled: false
  value: {file: policies/api.json}
`;

const API_POLICY = { on_http_request: [{ expressions: ["req.method == 'DELETE'"], actions: [{ type: 'custom-response', config: { status_code: 405 } }] }] };

async function tcpEdge(): Promise<Record<string, unknown>> {
  const edges = (await c.listAll('/edges/tcp', 'tcp_edges')) as Record<string, unknown>[];
  expect(edges).toHaveLength(1);
  return edges[0]!;
}

beforeAll(() => {
  env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey };
  mkdirSync(join(dir, 'policies'), { recursive: true });
  writeFileSync(join(dir, 'edges.yaml'), EDGE);
  writeFileSync(join(dir, 'policies/api.json'), JSON.stringify(API_POLICY, null, 2));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('traffic_policy in manifests', () => {
  it('applies a YAML mapping and a {file} policy; the next plan has no changes', async () => {
    const applied = await edgeops(['apply', dir, '--auto-approve'], { env, cwd: base });
    expect(applied.code, output(applied)).toBe(0);
    const edge = await tcpEdge();
    const module = edge.traffic_policy as { enabled: boolean; value: string };
    expect(module.enabled).toBe(true);
    expect(JSON.parse(module.value)).toEqual({
      on_tcp_connect: [{ name: 'office only', expressions: ["conn.client_ip != '203.0.113.7'"], actions: [{ type: 'deny', config: { reason: 'not the office', code: 7 } }] }],
    });
    const https = ((await c.listAll('/edges/https', 'https_edges')) as { routes: { traffic_policy: { enabled: boolean; value: string } }[] }[])[0]!;
    expect(https.routes[0]!.traffic_policy.enabled).toBe(false);
    expect(JSON.parse(https.routes[0]!.traffic_policy.value)).toEqual(API_POLICY);
    const again = await edgeops(['plan', dir, '--detailed-exitcode'], { env, cwd: base });
    expect(again.code, output(again)).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('the live policy rewritten as JSON or YAML text in another order is no diff', async () => {
    const edge = await tcpEdge();
    const texts = [
      '{"on_tcp_connect":[{"actions":[{"config":{"code":7,"reason":"not the office"},"type":"deny"}],"expressions":["conn.client_ip != \'203.0.113.7\'"],"name":"office only"}]}',
      "on_tcp_connect:\n- actions: [{type: deny, config: {code: 7, reason: 'not the office'}}]\n  name: office only\n  expressions: [\"conn.client_ip != '203.0.113.7'\"]\n",
    ];
    for (const value of texts) {
      expect((await c.put(`/edges/tcp/${edge.id}/traffic_policy`, { value })).status).toBe(200);
      const plan = await edgeops(['plan', dir, '--detailed-exitcode'], { env, cwd: base });
      expect(plan.code, output(plan)).toBe(0);
      expect(plan.stdout).toContain('No changes.');
    }
  });

  it('a changed rule shows as that rule, and applies', async () => {
    const changed = join(base, 'changed');
    mkdirSync(changed);
    cpSync(dir, changed, { recursive: true });
    writeFileSync(join(changed, 'edges.yaml'), EDGE.replace('code: 7', 'code: 8'));
    const plan = await edgeops(['plan', changed, '--format', 'json'], { env, cwd: base });
    expect(plan.code, output(plan)).toBe(0);
    const resources = JSON.parse(plan.stdout).resources as { address: string; changes: { path: string; old?: unknown; new?: unknown }[] }[];
    const ssh = resources.find((r) => r.address === 'TCPEdge/ssh')!;
    expect(ssh.changes).toEqual([expect.objectContaining({ path: '/traffic_policy/value/on_tcp_connect/0/actions/0/config/code', old: 7, new: 8 })]);
    const text = await edgeops(['plan', changed], { env, cwd: base });
    expect(text.stdout).toMatch(/traffic_policy.*on_tcp_connect.*code/);
    expect(text.stdout).toMatch(/7.*8/);
    const applied = await edgeops(['apply', changed, '--auto-approve'], { env, cwd: base });
    expect(applied.code, output(applied)).toBe(0);
    expect(JSON.parse(((await tcpEdge()).traffic_policy as { value: string }).value).on_tcp_connect[0].actions[0].config.code).toBe(8);
    const back = await edgeops(['apply', dir, '--auto-approve'], { env, cwd: base });
    expect(back.code, output(back)).toBe(0);
  });

  it('a policy that is not a policy document is a manifest error with its position, and nothing is sent', async () => {
    const broken = join(base, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'edge.yaml'), 'kind: TCPEdge\nname: bad\ntraffic_policy:\n  value:\n    on_http_request:\n      - actions: []\n');
    const r = await edgeops(['plan', broken], { env: { EDGEOPS_API_URL: 'http://127.0.0.1:9', EDGEOPS_API_KEY: 'k' }, cwd: base });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/edge\.yaml:5:\d+/);
    expect(r.stderr).toContain('on_http_request');
    expect(output(r)).not.toContain('internal error');
  });

  it('export writes the policy back as a mapping that plans clean', async () => {
    const out = join(base, 'exported');
    const exported = await edgeops(['export', '--out', out], { env, cwd: base });
    expect(exported.code, output(exported)).toBe(0);
    const text = readdirSync(out).filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
    expect(text).toMatch(/traffic_policy:\n\s+(enabled: true\n\s+)?value:\n\s+on_tcp_connect:\n/);
    expect(text).toMatch(/on_http_request:/);
    expect(text).not.toMatch(/value: ["']?\{/);
    const plan = await edgeops(['plan', out, '--detailed-exitcode'], { env, cwd: base });
    expect(plan.code, output(plan)).toBe(0);
  });
});
