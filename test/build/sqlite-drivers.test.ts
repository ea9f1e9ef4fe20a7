// The two SQLite drivers of the store (src/service/stores/sqlite-driver.ts) behave alike, seen from outside:
// `edgeops serve --db FILE` on better-sqlite3 (forced with EDGEOPS_SQLITE_DRIVER, on a Node it was built for)
// and on node:sqlite (Node 22.13 and later: this Node, or Node 24 fetched from the npm registry) answer one
// request script over every kind, errors and paging included, with the same bytes once ids, timestamps,
// operation ids and host:port are normalized; a second serve on the same file sees the first one's write in
// its next, cached, list (data_version) on both; a file written by one driver reads the same through the
// other; and on node:sqlite an answered 201 survives kill -9 of the serve.
// better-sqlite3 is built by `npm ci` for the Node that ran it and loads in no other major, so each driver
// runs in a child process on its own Node.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchNode } from '../../scripts/fetch-node.ts';
import { makeCerts, ROOT } from '../cli/run.ts';
import { api, type ApiClient, type ApiResponse } from '../helpers/service.ts';
import { hasNodeSqlite, nodeVersion, startServe, type ServeProcess } from './serve-process.ts';

const temp = mkdtempSync(join(tmpdir(), 'edgeops-drivers-'));
const KEY = 'drivers-key';
const FORCE_BETTER = { EDGEOPS_SQLITE_DRIVER: 'better-sqlite3' };
let betterNode: string;
let sqliteNode: string;
let pem: { cert: string; key: string; ca: string };
const running: ServeProcess[] = [];

/** Whether `node` loads the checkout's better-sqlite3 (built by `npm ci` for one Node ABI). */
function loadsBetterSqlite(node: string): Promise<boolean> {
  const probe = `new (require(${JSON.stringify(join(ROOT, 'node_modules', 'better-sqlite3'))}))(':memory:').close()`;
  return new Promise((resolve) => execFile(node, ['-e', probe], (err) => resolve(!err)));
}

/** A Node that runs better-sqlite3: this one, the one that ran `npm run test:node24`, or a fetched Node 20. */
async function findBetterSqliteNode(): Promise<string> {
  const candidates = [process.execPath, process.env.EDGEOPS_TEST_HOST_NODE].filter((n): n is string => Boolean(n));
  for (const node of candidates) if (await loadsBetterSqlite(node)) return node;
  const node20 = await fetchNode(20);
  if (await loadsBetterSqlite(node20)) return node20;
  throw new Error(`no Node here loads node_modules/better-sqlite3 (tried ${[...candidates, node20].join(', ')}): run \`npm ci\``);
}

async function serveOn(driver: 'better-sqlite3' | 'node:sqlite', db: string): Promise<ServeProcess> {
  const node = driver === 'better-sqlite3' ? betterNode : sqliteNode;
  const s = await startServe(node, ['--port', '0', '--api-key', KEY, '--db', db, '--quiet'], { env: driver === 'better-sqlite3' ? FORCE_BETTER : {} });
  running.push(s);
  expect(s.storage).toContain(`sqlite (${driver})`);
  return s;
}

beforeAll(async () => {
  [betterNode, sqliteNode] = await Promise.all([findBetterSqliteNode(), hasNodeSqlite() ? process.execPath : fetchNode(24)]);
  expect(hasNodeSqlite(await nodeVersion(sqliteNode))).toBe(true);
  const certs = join(temp, 'pem');
  await makeCerts(certs);
  const read = (f: string) => readFileSync(join(certs, 'certs', f), 'utf8');
  pem = { cert: read('wildcard.pem'), key: read('wildcard-key.pem'), ca: read('client-ca.pem') };
}, 120_000);

afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop();
  rmSync(temp, { recursive: true, force: true });
});

/** One transcript line per response: method, path, status, content type and the body, normalized. */
class Transcript {
  readonly lines: string[] = [];
  private readonly ids = new Map<string, string>();

  constructor(private readonly origin: string) {}

  normalize(text: string): string {
    return text
      .replaceAll(this.origin.replace(/^http:\/\//, ''), 'HOST')
      .replace(/\bop_[0-9A-Za-z]{27}\b/g, 'op_*')
      .replace(/\b([a-z]+)_[0-9A-Za-z]{27}\b/g, (id, prefix: string) => {
        if (!this.ids.has(id)) this.ids.set(id, `${prefix}_${this.ids.size + 1}`);
        return this.ids.get(id)!;
      })
      .replace(/"(created_at)":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/g, '"$1":"T"');
  }

  record(method: string, path: string, r: ApiResponse): ApiResponse {
    this.lines.push(this.normalize(`${method} ${path} -> ${r.status} ${r.headers['content-type'] ?? '-'} ${r.headers['service-operation-id'] ? 'op' : 'no-op'}\n${r.text}`));
    return r;
  }
}

/** The request script: every kind created, listed, paged, read, updated and deleted, with errors between. */
async function requestScript(url: string): Promise<string[]> {
  const c: ApiClient = api({ url, apiKey: KEY });
  const t = new Transcript(url);
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<ApiResponse> => {
    const r = method === 'GET' ? await c.get(path) : method === 'DELETE' ? await c.del(path) : await c[method === 'POST' ? 'post' : method === 'PATCH' ? 'patch' : 'put'](path, body);
    return t.record(method, path.replace(url, ''), r);
  };
  const id = (r: ApiResponse): string => {
    expect(r.status, r.text).toBe(201);
    return r.body.id as string;
  };

  await call('GET', '/ip_policies');
  const ipp = id(await call('POST', '/ip_policies', { description: 'office', metadata: '{"team": "net"}' }));
  const ipp2 = id(await call('POST', '/ip_policies', { description: 'second' }));
  id(await call('POST', '/ip_policies', { description: 'third' }));
  const page1 = await call('GET', '/ip_policies?limit=2');
  expect(page1.body.next_page_uri).toEqual(expect.any(String));
  const page2 = await call('GET', page1.body.next_page_uri);
  expect(page2.body.next_page_uri).toBeNull();
  await call('PATCH', `/ip_policies/${ipp}`, { description: 'office and VPN' });
  await call('PATCH', `/ip_policies/${ipp}`, { description: 'x'.repeat(300) });
  await call('GET', '/ip_policies/ipp_doesnotexist');
  await call('POST', '/ip_policies', { unknown_field: 1 });
  const rule = id(await call('POST', '/ip_policy_rules', { ip_policy_id: ipp, cidr: '203.0.113.0/24', action: 'allow' }));
  await call('POST', '/ip_policy_rules', { ip_policy_id: ipp, cidr: 'not-a-cidr', action: 'allow' });
  await call('GET', '/ip_policy_rules?limit=10');
  await call('PATCH', `/ip_policy_rules/${rule}`, { cidr: '203.0.113.0/25', description: 'office v4' });
  const tg = id(await call('POST', '/backends/tunnel_group', { labels: { app: 'web', dc: 'eu-1' } }));
  await call('PATCH', `/backends/tunnel_group/${tg}`, { labels: { app: 'web' } });
  const hr = id(await call('POST', '/backends/http_response', { body: 'down', headers: { 'Content-Type': 'text/plain' }, status_code: 503 }));
  await call('GET', '/backends/http_response');
  const cert = id(await call('POST', '/tls_certificates', { certificate_pem: pem.cert, private_key_pem: pem.key }));
  await call('POST', '/tls_certificates', { certificate_pem: pem.ca, private_key_pem: pem.key });
  await call('GET', `/tls_certificates/${cert}`);
  const ca = id(await call('POST', '/certificate_authorities', { ca_pem: pem.ca }));
  const tcp = id(await call('POST', '/edges/tcp', { hostports: ['1.tcp.example.com:20001'], backend: { backend_id: tg }, ip_restriction: { ip_policy_ids: [ipp] } }));
  await call('POST', '/edges/tcp', { hostports: ['1.tcp.example.com:20001'] });
  await call('PATCH', `/edges/tcp/${tcp}`, { description: 'ssh' });
  await call('PUT', `/edges/tcp/${tcp}/backend`, { enabled: true, backend_id: hr });
  await call('DELETE', `/edges/tcp/${tcp}/ip_restriction`);
  await call('PUT', `/edges/tcp/${tcp}/traffic_policy`, { value: 'on_tcp_connect:\n  - actions:\n      - type: deny\n' });
  await call('GET', `/edges/tcp/${tcp}/traffic_policy`);
  const tls = id(await call('POST', '/edges/tls', { hostports: ['partner.example.com:443'], backend: { backend_id: tg }, mutual_tls: { certificate_authority_ids: [ca] }, tls_termination: { terminate_at: 'edge', min_version: '1.2' } }));
  await call('PATCH', `/edges/tls/${tls}`, { tls_termination: { terminate_at: 'edge', min_version: '1.3' } });
  const https = id(await call('POST', '/edges/https', { hostports: ['www.example.com:443'], tls_termination: { min_version: '1.2' } }));
  const route = id(await call('POST', `/edges/https/${https}/routes`, { match_type: 'path_prefix', match: '/', backend: { backend_id: tg } }));
  const route2 = id(await call('POST', `/edges/https/${https}/routes`, { match_type: 'path_prefix', match: '/api', backend: { backend_id: hr } }));
  const routes = await call('GET', `/edges/https/${https}/routes?limit=1`);
  await call('GET', routes.body.next_page_uri);
  await call('PUT', `/edges/https/${https}/routes/${route}/response_headers`, { add: { 'X-Frame-Options': 'DENY' }, remove: ['server'] });
  await call('GET', `/edges/https/${https}`);
  const esb = id(await call('POST', '/event_subscriptions', { description: 'audit', sources: [{ type: 'ip_policy_created.v0' }] }));
  await call('POST', `/event_subscriptions/${esb}/sources`, { type: 'ip_policy_updated.v0' });
  await call('GET', `/event_subscriptions/${esb}/sources`);
  await call('DELETE', `/ip_policies/${ipp}`);
  await call('DELETE', `/backends/tunnel_group/${tg}`);
  for (const path of [`/event_subscriptions/${esb}`, `/edges/https/${https}/routes/${route2}`, `/edges/https/${https}/routes/${route}`, `/edges/https/${https}`, `/edges/tls/${tls}`, `/edges/tcp/${tcp}`, `/certificate_authorities/${ca}`,
    `/tls_certificates/${cert}`, `/backends/http_response/${hr}`, `/backends/tunnel_group/${tg}`, `/ip_policy_rules/${rule}`, `/ip_policies/${ipp}`]) {
    expect((await call('DELETE', path)).status).toBe(204);
  }
  await call('DELETE', `/ip_policies/${ipp}`);
  await call('GET', `/ip_policies/${ipp2}`);
  await call('GET', '/ip_policies');
  return t.lines;
}

/** Two serves on one file: each one's write is in the other's next list, though it had cached that list. */
async function dataVersionScript(driver: 'better-sqlite3' | 'node:sqlite', db: string): Promise<string[]> {
  const a = await serveOn(driver, db);
  const b = await serveOn(driver, db);
  const ca = api({ url: a.url, apiKey: KEY });
  const cb = api({ url: b.url, apiKey: KEY });
  const ta = new Transcript(a.url);
  const tb = new Transcript(b.url);
  const seen: string[] = [];
  const list = async (c: ApiClient, t: Transcript, who: string) => {
    const r = await c.get('/ip_policies');
    seen.push(`${who}: ${t.normalize(r.text)}`);
    return r.body.ip_policies.map((p: { description: string }) => p.description) as string[];
  };
  expect(await list(ca, ta, 'a')).toEqual([]);
  expect(await list(cb, tb, 'b')).toEqual([]);
  expect(await list(cb, tb, 'b')).toEqual([]); // b's list is now cached
  expect((await ca.post('/ip_policies', { description: 'from a' })).status).toBe(201);
  expect(await list(cb, tb, 'b')).toEqual(['from a']);
  expect(await list(ca, ta, 'a')).toEqual(['from a']);
  expect((await cb.post('/ip_policies', { description: 'from b' })).status).toBe(201);
  expect(await list(ca, ta, 'a')).toEqual(['from b', 'from a']);
  const first = (await ca.get('/ip_policies')).body.ip_policies[1].id as string;
  expect((await cb.del(`/ip_policies/${first}`)).status).toBe(204);
  expect(await list(ca, ta, 'a')).toEqual(['from b']);
  expect((await ca.get(`/ip_policies/${first}`)).status).toBe(404);
  expect((await a.stop()).code).toBe(0);
  expect((await b.stop()).code).toBe(0);
  return seen;
}

describe('the SQLite drivers: better-sqlite3 and node:sqlite', () => {
  it('answer one request script over every kind, errors and paging included, with the same bytes', async () => {
    const transcripts: Record<string, string[]> = {};
    for (const driver of ['better-sqlite3', 'node:sqlite'] as const) {
      const s = await serveOn(driver, join(temp, `script-${driver.replace(':', '-')}.db`));
      transcripts[driver] = await requestScript(s.url);
      expect((await s.stop()).code).toBe(0);
      expect(s.stderr()).toBe('');
    }
    const [better, builtin] = [transcripts['better-sqlite3']!, transcripts['node:sqlite']!];
    expect(better.length).toBeGreaterThanOrEqual(40);
    const statuses = new Set(better.map((line) => line.split('\n')[0]!.split(' -> ')[1]!.split(' ')[0]));
    expect([...statuses].sort()).toEqual(expect.arrayContaining(['200', '201', '204', '400', '404', '409']));
    // Line by line first, for a readable failure, then the whole.
    for (let i = 0; i < Math.max(better.length, builtin.length); i++) expect(builtin[i], `request ${i + 1}`).toBe(better[i]);
    expect(builtin.join('\n')).toBe(better.join('\n'));
  }, 120_000);

  it('see another process\'s commit in the next cached list (data_version) alike', async () => {
    const better = await dataVersionScript('better-sqlite3', join(temp, 'shared-better.db'));
    const builtin = await dataVersionScript('node:sqlite', join(temp, 'shared-builtin.db'));
    expect(builtin).toEqual(better);
  }, 120_000);

  it('read each other\'s files: written by one driver, listed the same through the other', async () => {
    const db = join(temp, 'handover.db');
    const writer = await serveOn('better-sqlite3', db);
    const c = api({ url: writer.url, apiKey: KEY });
    for (const description of ['one', 'two', 'three']) expect((await c.post('/ip_policies', { description })).status).toBe(201);
    const written = (await c.get('/ip_policies')).text.replaceAll(writer.url, 'ORIGIN');
    expect((await writer.stop()).code).toBe(0);
    const reader = await serveOn('node:sqlite', db);
    const read = (await api({ url: reader.url, apiKey: KEY }).get('/ip_policies')).text.replaceAll(reader.url, 'ORIGIN');
    expect(read).toBe(written);
    expect((await api({ url: reader.url, apiKey: KEY }).post('/ip_policies', { description: 'four' })).status).toBe(201);
    expect((await reader.stop()).code).toBe(0);
    const back = await serveOn('better-sqlite3', db);
    const list = (await api({ url: back.url, apiKey: KEY }).get('/ip_policies')).body.ip_policies.map((p: { description: string }) => p.description);
    expect(list).toEqual(['four', 'three', 'two', 'one']);
    expect((await back.stop()).code).toBe(0);
  }, 60_000);

  it('node:sqlite: every 201 answered before kill -9 is in the file when it is opened again', async () => {
    const db = join(temp, 'killed.db');
    const s = await serveOn('node:sqlite', db);
    const c = api({ url: s.url, apiKey: KEY });
    const acknowledged: string[] = [];
    for (let i = 0; i < 25; i++) {
      const r = await c.post('/ip_policies', { description: `acked ${i}` });
      expect(r.status, r.text).toBe(201);
      acknowledged.push(r.body.id as string);
    }
    // One more in flight when the process dies: it may or may not have landed, but nothing else may be lost.
    void c.post('/ip_policies', { description: 'in flight' }).catch(() => undefined);
    s.child.kill('SIGKILL');
    expect((await s.exited).signal).toBe('SIGKILL');
    const reopened = await serveOn('node:sqlite', db);
    const all = (await api({ url: reopened.url, apiKey: KEY }).listAll('/ip_policies', 'ip_policies')) as { id: string }[];
    expect(all.map((p) => p.id)).toEqual(expect.arrayContaining(acknowledged));
    expect(all.length - acknowledged.length).toBeLessThanOrEqual(1);
    expect((await reopened.stop()).code).toBe(0);
  }, 60_000);
});
