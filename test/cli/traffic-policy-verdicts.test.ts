// One rule for policy text on both sides (src/contract/traffic-policy.ts): each text of the table is PUT to the
// real service as a TCP edge's and an HTTPS edge route's traffic_policy, and written inline into a manifest read
// by the pipeline `validate` runs. The service's 400 ERR_TRAFFIC_POLICY_INVALID and the manifest problem (at the
// field's file:line:col) come for the same texts. `validate` on a {file} policy that is not a policy document
// exits 1 at the field, and sends nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueMessage, ManifestError } from '../../src/errors.ts';
import { readDesiredState } from '../../src/manifest/read-desired.ts';
import { serviceForFile } from '../helpers/service.ts';
import { edgeops, output } from './run.ts';

const { c } = serviceForFile();
const base = mkdtempSync(join(tmpdir(), 'edgeops-policy-verdicts-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const TCP_RULE = '{"on_tcp_connect":[{"name":"deny","expressions":["conn.client_ip == \'203.0.113.7\'"],"actions":[{"type":"deny"}]}]}';
const HTTP_RULE = 'on_http_request:\n  - expressions: ["req.method == \'DELETE\'"]\n    actions:\n      - type: custom-response\n        config: {status_code: 405}\n';

/** text -> whether a TCP edge takes it, whether an HTTPS edge route takes it. */
const TABLE: { what: string; text: string; tcp: boolean; route: boolean }[] = [
  { what: 'a JSON on_tcp_connect document', text: TCP_RULE, tcp: true, route: true },
  { what: 'a YAML on_http_request document', text: HTTP_RULE, tcp: false, route: true },
  { what: 'a phase left null', text: 'on_tcp_connect: null\n', tcp: true, route: true },
  { what: 'text that is neither JSON nor YAML', text: 'on_tcp_connect: [\n', tcp: false, route: false },
  { what: 'a list, not a mapping of phases', text: '- actions: [{type: deny}]\n', tcp: false, route: false },
  { what: 'an unknown phase', text: '{"inbound":[{"actions":[{"type":"deny"}]}]}', tcp: false, route: false },
  { what: 'a rule without actions', text: 'on_tcp_connect:\n  - name: nothing\n', tcp: false, route: false },
  { what: 'an action with an unknown key', text: 'on_tcp_connect:\n  - actions: [{type: deny, kind: x}]\n', tcp: false, route: false },
  { what: 'a phase given twice', text: 'on_tcp_connect: []\non_tcp_connect: []\n', tcp: false, route: false },
  { what: 'a document over 64 KiB', text: `{"on_tcp_connect":[{"name":"big","expressions":[${Array.from({ length: 20 }, () => JSON.stringify('x'.repeat(3500))).join(',')}],"actions":[{"type":"deny"}]}]}`, tcp: false, route: false },
];

let tcpPath = '';
let routePath = '';

beforeAll(async () => {
  const tcp = await c.post('/edges/tcp', {});
  expect(tcp.status, tcp.text).toBe(201);
  tcpPath = `/edges/tcp/${tcp.body.id}/traffic_policy`;
  const https = await c.post('/edges/https', {});
  expect(https.status, https.text).toBe(201);
  const route = await c.post(`/edges/https/${https.body.id}/routes`, { match_type: 'path_prefix', match: '/' });
  expect(route.status, route.text).toBe(201);
  routePath = `/edges/https/${https.body.id}/routes/${route.body.id}/traffic_policy`;
});

/** The service's verdict: true when it stores the text, false on 400 ERR_TRAFFIC_POLICY_INVALID. */
async function serviceTakes(path: string, text: string): Promise<boolean> {
  const r = await c.put(path, { value: text });
  if (r.status === 200) return true;
  expect({ status: r.status, code: r.body?.error_code }, r.text).toEqual({ status: 400, code: 'ERR_TRAFFIC_POLICY_INVALID' });
  return false;
}

const MANIFEST = (text: string): string => `kind: TCPEdge
name: tcp
traffic_policy:
  value: ${JSON.stringify(text)}
---
kind: HTTPSEdge
name: www
---
kind: HTTPSEdgeRoute
name: api
edge_id: www
match_type: path_prefix
match: /
traffic_policy:
  value: ${JSON.stringify(text)}
`;

/** The pipeline's verdict per document: the problems at each policy field (by line), none when it takes the text. */
async function manifestProblems(i: number, text: string): Promise<{ tcp: string[]; route: string[] }> {
  const dir = join(base, `case-${i}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'edges.yaml'), MANIFEST(text));
  try {
    await readDesiredState([dir], { cwd: base, env: {} });
    return { tcp: [], route: [] };
  } catch (err) {
    if (!(err instanceof ManifestError)) throw err;
    const at = (line: number): string[] =>
      err.issues.filter((issue) => issue.pos.line === line).map((issue) => `${issue.pos.file}:${issue.pos.line}:${issue.pos.col} ${issueMessage(issue)}`);
    const tcp = at(4);
    const route = at(15);
    expect(err.issues.length, err.message).toBe(tcp.length + route.length);
    return { tcp, route };
  }
}

describe('policy text: the service and validate agree', () => {
  it.each(TABLE.map((row, i) => ({ ...row, i })))('$what', async ({ text, tcp, route, i }) => {
    expect(await serviceTakes(tcpPath, text)).toBe(tcp);
    expect(await serviceTakes(routePath, text)).toBe(route);
    const problems = await manifestProblems(i, text);
    expect(problems.tcp.length === 0, problems.tcp.join('\n')).toBe(tcp);
    expect(problems.route.length === 0, problems.route.join('\n')).toBe(route);
    for (const p of [...problems.tcp, ...problems.route]) expect(p).toMatch(new RegExp(`^case-${i}/edges\\.yaml:(4|15):10 traffic_policy\\.value: `));
  });

  it('the same problem text on both sides', async () => {
    const text = 'on_http_request:\n  - actions: [{type: deny}]\n';
    const r = await c.put(tcpPath, { value: text });
    expect(r.body.msg).toContain('on_http_request: unknown key; allowed: on_tcp_connect');
    const problems = await manifestProblems(TABLE.length, text);
    expect(problems.tcp).toEqual([expect.stringContaining('traffic_policy.value: on_http_request: unknown key; allowed: on_tcp_connect')]);
  });
});

describe('validate on policy text from a file', () => {
  it('exits 1 with the field position and the file named; no request is made', async () => {
    const dir = join(base, 'from-file');
    mkdirSync(join(dir, 'policies'), { recursive: true });
    writeFileSync(join(dir, 'policies/ssh.json'), '{"on_http_request": [{"actions": [{"type": "deny"}]}]}');
    writeFileSync(join(dir, 'edge.yaml'), 'kind: TLSEdge\nname: tls\ntraffic_policy:\n  value: {file: policies/ssh.json}\n');
    const r = await edgeops(['validate', dir], { env: { EDGEOPS_API_URL: 'http://127.0.0.1:9', EDGEOPS_API_KEY: 'k' }, cwd: base });
    expect(r.code, output(r)).toBe(1);
    expect(r.stderr).toMatch(/from-file\/edge\.yaml:4:\d+/);
    expect(r.stderr).toContain('on_http_request: unknown key; allowed: on_tcp_connect');
    expect(r.stderr).toContain('(in file "policies/ssh.json")');
    expect(r.stderr).toContain('1 problem');
    expect(output(r)).not.toMatch(/internal error|ECONNREFUSED|127\.0\.0\.1/i);
  });
});
