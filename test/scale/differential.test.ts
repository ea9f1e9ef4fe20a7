// The two stores answer the same bytes: one request script (every resource kind; creates with modules, PATCHes,
// module PUT/GET/DELETE, event sources, route response headers, paged lists, and 4xx answers of many kinds) is
// replayed on a service over SQLite and on one over PostgreSQL, and each answer's status, Content-Type and body
// text must be equal byte for byte once what differs by nature is named the same on both sides: ids (the
// n-th distinct id a service answered is <idN> there), created_at and other timestamps, operation ids and the
// base URL. Later requests use the ids earlier answers gave ($name placeholders).
// PostgreSQL project only (vitest.config.ts): it needs the test run's PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService, type ServiceOptions } from '../../src/service/server.ts';
import { makeCa, makeCert } from '../helpers/certs.ts';
import { storeOf, TEST_STORE } from '../helpers/service.ts';

const KEY = 'differential-key';
const dir = mkdtempSync(join(tmpdir(), 'edgeops-diff-'));
let sqlite: RunningService;
let postgres: RunningService;

type Vars = Record<string, string>;

interface Step {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** May hold $name placeholders, replaced by ids saved from earlier answers. */
  path: string;
  /** JSON (its strings may hold $name placeholders), or raw text with its own content type. */
  body?: unknown;
  raw?: { text: string; contentType: string };
  /** The status the script means to provoke: checked on both, so the script tests what it says. */
  status: number;
  /** What to keep from the answer: `name` takes its body's id, or a function picks any values. */
  save?: string | ((body: Record<string, unknown>) => Vars);
}

const TCP_YAML = 'on_tcp_connect:\n  - name: block\n    expressions: ["conn.client_ip == \'1.2.3.4\'"]\n    actions:\n      - type: deny\n';
const HTTP_JSON = JSON.stringify({
  on_http_request: [{ expressions: ["req.url.path.startsWith('/admin')"], actions: [{ type: 'custom-response', config: { status_code: 403 } }] }],
  on_http_response: [{ actions: [{ type: 'add-headers', config: { headers: { 'x-edge': '1' } } }] }],
});

function script(pems: { ca: string; cert: string; key: string }): Step[] {
  return [
    // IP policies and rules.
    { method: 'POST', path: '/ip_policies', body: { description: 'office', metadata: '{"team":"net"}' }, status: 201, save: 'pol' },
    { method: 'POST', path: '/ip_policies', body: { description: 'partners ✓' }, status: 201, save: 'pol2' },
    { method: 'GET', path: '/ip_policies/$pol', status: 200 },
    { method: 'PATCH', path: '/ip_policies/$pol', body: { description: 'office v2' }, status: 200 },
    { method: 'POST', path: '/ip_policies', body: { descriptio: 'typo' }, status: 400 }, // unknown field
    { method: 'POST', path: '/ip_policy_rules', body: { cidr: '10.0.0.0/8', ip_policy_id: '$pol', action: 'allow', description: 'lan' }, status: 201, save: 'rule' },
    { method: 'POST', path: '/ip_policy_rules', body: { cidr: '2001:db8::/32', ip_policy_id: '$pol2', action: 'deny' }, status: 201, save: 'rule2' },
    { method: 'POST', path: '/ip_policy_rules', body: { cidr: '10.1.0.0/16', ip_policy_id: 'ipp_missing', action: 'allow' }, status: 400 }, // bad reference
    { method: 'POST', path: '/ip_policy_rules', body: { cidr: '10.1.0.0/16', ip_policy_id: '$rule', action: 'allow' }, status: 400 }, // wrong kind
    { method: 'POST', path: '/ip_policy_rules', body: { cidr: '10.0.0.0/33', ip_policy_id: '$pol', action: 'allow' }, status: 400 },
    { method: 'PATCH', path: '/ip_policy_rules/$rule', body: { description: 'lan v2', metadata: 'm' }, status: 200 },
    // Backends.
    { method: 'POST', path: '/backends/tunnel_group', body: { labels: { app: 'web', dc: 'eu-1' }, description: 'web' }, status: 201, save: 'tg' },
    { method: 'POST', path: '/backends/http_response', body: { body: 'teapot', status_code: 418, headers: { 'Content-Type': 'text/plain' } }, status: 201, save: 'hr' },
    { method: 'PATCH', path: '/backends/tunnel_group/$tg', body: { labels: { app: 'web' } }, status: 200 },
    // Certificates.
    { method: 'POST', path: '/certificate_authorities', body: { ca_pem: pems.ca, description: 'clients' }, status: 201, save: 'ca' },
    { method: 'POST', path: '/tls_certificates', body: { certificate_pem: pems.cert, private_key_pem: pems.key, metadata: 'wild' }, status: 201, save: 'cert' },
    { method: 'POST', path: '/tls_certificates', body: { certificate_pem: 'not a pem', private_key_pem: pems.key }, status: 400 },
    { method: 'GET', path: '/tls_certificates/$cert', status: 200 },
    // A TCP edge with modules, and its module endpoints.
    {
      method: 'POST', path: '/edges/tcp', status: 201, save: 'tcp',
      body: { description: 'ssh', hostports: ['1.tcp.example.com:20001'], backend: { backend_id: '$tg' }, ip_restriction: { ip_policy_ids: ['$pol'] } },
    },
    { method: 'POST', path: '/edges/tcp', body: { hostports: ['1.TCP.example.com:20001'] }, status: 400 }, // hostport in use
    { method: 'POST', path: '/edges/tcp', body: { hostports: ['2.tcp.example.com:20002'] }, status: 201, save: 'tcp2' },
    { method: 'PATCH', path: '/edges/tcp/$tcp2', body: { hostports: ['1.tcp.example.com:20001'] }, status: 400 }, // moving onto a taken one
    { method: 'GET', path: '/edges/tcp/$tcp/backend', status: 200 },
    { method: 'PUT', path: '/edges/tcp/$tcp/policy', body: { inbound: { expressions: ['true'], actions: { type: 'deny' } } }, status: 200 },
    { method: 'GET', path: '/edges/tcp/$tcp/policy', status: 200 },
    { method: 'DELETE', path: '/edges/tcp/$tcp/ip_restriction', status: 204 },
    { method: 'GET', path: '/edges/tcp/$tcp/ip_restriction', status: 404 }, // module not set
    { method: 'PUT', path: '/edges/tcp/$tcp/traffic_policy', body: { value: TCP_YAML }, status: 200 },
    { method: 'PUT', path: '/edges/tcp/$tcp/backend', body: { backend_id: '$pol' }, status: 400 }, // wrong kind
    { method: 'POST', path: '/edges/tcp/$tcp/backend', body: { backend_id: '$tg' }, status: 405 },
    // A TLS edge.
    {
      method: 'POST', path: '/edges/tls', status: 201, save: 'tls',
      body: { hostports: ['secure.example.com:443'], backend: { backend_id: '$hr' }, mutual_tls: { certificate_authority_ids: ['$ca'] }, tls_termination: { terminate_at: 'edge', min_version: '1.2' } },
    },
    { method: 'PUT', path: '/edges/tls/$tls/ip_restriction', body: { ip_policy_ids: ['$pol', '$pol2'] }, status: 200 },
    { method: 'PATCH', path: '/edges/tls/$tls', body: { tls_termination: { terminate_at: 'upstream' } }, status: 400 }, // mutual_tls with upstream
    // An HTTPS edge, its routes and their modules.
    { method: 'POST', path: '/edges/https', body: { hostports: ['www.example.com:443'], tls_termination: { min_version: '1.3' } }, status: 201, save: 'https' },
    { method: 'PUT', path: '/edges/https/$https/mutual_tls', body: { certificate_authority_ids: ['$ca'] }, status: 200 },
    {
      method: 'POST', path: '/edges/https/$https/routes', status: 201, save: 'route',
      body: { match_type: 'path_prefix', match: '/', backend: { backend_id: '$tg' }, ip_restriction: { ip_policy_ids: ['$pol2'] } },
    },
    { method: 'POST', path: '/edges/https/$https/routes', body: { edge_id: '$https', match_type: 'exact_path', match: '/brew', backend: { backend_id: '$hr' }, description: 'teapot' }, status: 201, save: 'route2' },
    { method: 'POST', path: '/edges/https/$https/routes', body: { match_type: 'regex', match: '/' }, status: 400 },
    { method: 'PUT', path: '/edges/https/$https/routes/$route/response_headers', body: { add: { 'X-Frame-Options': 'DENY', 'Cache-Control': 'no-store' }, remove: ['Server'] }, status: 200 },
    { method: 'GET', path: '/edges/https/$https/routes/$route/response_headers', status: 200 },
    { method: 'PUT', path: '/edges/https/$https/routes/$route2/traffic_policy', body: { value: HTTP_JSON }, status: 200 },
    { method: 'PATCH', path: '/edges/https/$https/routes/$route', body: { description: 'root', metadata: 'r' }, status: 200 },
    { method: 'DELETE', path: '/edges/https/$https/routes/$route2/response_headers', status: 204 }, // unset: still 204
    { method: 'GET', path: '/edges/https/$https', status: 200 },
    { method: 'GET', path: '/edges/https/$https/routes?limit=1', status: 200 },
    // Event subscriptions and their sources.
    { method: 'POST', path: '/event_subscriptions', body: { description: 'audit', sources: [{ type: 'ip_policy_created.v0' }] }, status: 201, save: 'esb' },
    { method: 'POST', path: '/event_subscriptions/$esb/sources', body: { type: 'ip_policy_updated.v0' }, status: 201 },
    { method: 'POST', path: '/event_subscriptions/$esb/sources', body: { type: 'ip_policy_updated.v0' }, status: 409 },
    { method: 'POST', path: '/event_subscriptions/$esb/sources', body: { type: 'Not-A-Type' }, status: 400 },
    { method: 'GET', path: '/event_subscriptions/$esb/sources', status: 200 },
    { method: 'DELETE', path: '/event_subscriptions/$esb/sources/ip_policy_created.v0', status: 204 },
    { method: 'GET', path: '/event_subscriptions/$esb', status: 200 },
    // Lists: limits, cursors, and a cursor that is no id of the list.
    { method: 'POST', path: '/ip_policies', body: { description: 'third' }, status: 201, save: 'pol3' },
    { method: 'GET', path: '/ip_policies?limit=2', status: 200, save: (b) => ({ page1last: (b.ip_policies as { id: string }[])[1]!.id }) },
    { method: 'GET', path: '/ip_policies?limit=2&before_id=$page1last', status: 200 },
    { method: 'GET', path: '/ip_policies?before_id=$tg', status: 400 }, // an id of another list
    { method: 'GET', path: '/ip_policies?before_id=ipp_nothere', status: 400 },
    { method: 'GET', path: '/ip_policies?limit=0', status: 400 },
    { method: 'GET', path: '/ip_policies?page=2', status: 400 },
    { method: 'GET', path: '/edges/tcp?limit=1', status: 200 },
    { method: 'GET', path: '/backends/tunnel_group', status: 200 },
    // Errors of the framing and routing kinds.
    { method: 'GET', path: '/ip_policies/ipp_missing', status: 404 },
    { method: 'GET', path: '/nowhere', status: 404 },
    { method: 'PUT', path: '/ip_policies/$pol', body: {}, status: 405 },
    { method: 'POST', path: '/ip_policies', raw: { text: '{"description":', contentType: 'application/json' }, status: 400 },
    { method: 'POST', path: '/ip_policies', raw: { text: '{"description":"x"}', contentType: 'text/plain' }, status: 415 },
    { method: 'PATCH', path: '/ip_policies/$pol', body: { id: 'ipp_other' }, status: 400 },
    // Deletes: refused while referenced (409 naming the referrers), then in dependency order.
    { method: 'DELETE', path: '/ip_policies/$pol', status: 409 },
    { method: 'DELETE', path: '/backends/tunnel_group/$tg', status: 409 },
    { method: 'DELETE', path: '/certificate_authorities/$ca', status: 409 },
    { method: 'DELETE', path: '/ip_policy_rules/$rule', status: 204 },
    { method: 'DELETE', path: '/edges/tcp/$tcp', status: 204 },
    { method: 'GET', path: '/edges/tcp/$tcp', status: 404 },
    { method: 'GET', path: '/edges/tcp?before_id=$tcp', status: 200 }, // a deleted id still pages
    { method: 'DELETE', path: '/edges/https/$https', status: 204 },
    { method: 'GET', path: '/edges/https/$https/routes/$route', status: 404 },
    { method: 'DELETE', path: '/tls_certificates/$cert', status: 204 },
    { method: 'GET', path: '/ip_policies', status: 200 },
    { method: 'GET', path: '/ip_policy_rules', status: 200 },
  ];
}

interface Answer {
  label: string;
  status: number;
  contentType: string;
  text: string;
}

function fill(text: string, vars: Vars): string {
  return text.replace(/\$([a-z][a-z0-9]*)/gi, (whole, name: string) => {
    if (!(name in vars)) throw new Error(`the script uses $${name} before an answer gave it`);
    return vars[name]!;
  });
}

async function replay(svc: RunningService, steps: readonly Step[]): Promise<Answer[]> {
  const vars: Vars = {};
  const out: Answer[] = [];
  for (const [i, step] of steps.entries()) {
    const path = fill(step.path, vars);
    const headers: Record<string, string> = { authorization: `Bearer ${KEY}`, 'service-version': '2' };
    let body: string | undefined;
    if (step.raw) {
      body = step.raw.text;
      headers['content-type'] = step.raw.contentType;
    } else if (step.body !== undefined) {
      body = fill(JSON.stringify(step.body), vars);
      headers['content-type'] = 'application/json';
    }
    const res = await request(`${svc.url}${path}`, { method: step.method, headers, body });
    const text = await res.body.text();
    const type = res.headers['content-type'];
    out.push({ label: `#${i} ${step.method} ${step.path}`, status: res.statusCode, contentType: Array.isArray(type) ? type.join(', ') : (type ?? '(none)'), text });
    if (step.save && res.statusCode < 300) {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      Object.assign(vars, typeof step.save === 'string' ? { [step.save]: parsed.id as string } : step.save(parsed));
    }
  }
  return out;
}

/** One service's answers as comparable text: base URL, operation ids, timestamps and ids named alike. */
function normalize(svc: RunningService, answers: readonly Answer[]): string[] {
  const ids = new Map<string, string>();
  const name = (text: string) =>
    text
      .replaceAll(svc.url, '<base>')
      .replace(/\bop_[0-9A-Za-z]{27}(?![0-9A-Za-z])/g, '<op>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>')
      .replace(/\b[a-z]+_[0-9A-Za-z]{27}(?![0-9A-Za-z])/g, (id) => {
        if (!ids.has(id)) ids.set(id, `<id${ids.size + 1}>`);
        return ids.get(id)!;
      });
  return answers.map((a) => `${a.label}\n${a.status} ${a.contentType}\n${name(a.text)}`);
}

beforeAll(async () => {
  const opts: ServiceOptions = { host: '127.0.0.1', port: 0, apiKeys: [KEY], quiet: true };
  sqlite = await startService({ ...opts, db: join(dir, 'differential.db') });
  postgres = await startService({ ...opts, db: storeOf(join(dir, 'differential')) });
});

afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(TEST_STORE === 'postgres')('SQLite and PostgreSQL answer the same bytes', () => {
  it('one script of requests over every kind, replayed on both', async () => {
    expect([sqlite.backend, postgres.backend]).toEqual([expect.stringMatching(/^sqlite/), 'postgres']);
    const ca = await makeCa({ commonName: 'Differential CA' });
    const cert = await makeCert({ commonName: 'www.example.com', dnsNames: ['www.example.com', '*.example.com'] });
    const steps = script({ ca: ca.certPem, cert: cert.chainPem, key: cert.keyPem });
    expect(steps.length).toBeGreaterThanOrEqual(60);
    const onSqlite = await replay(sqlite, steps);
    const onPostgres = await replay(postgres, steps);

    // The script provokes what it says it does, on both.
    const wrong = (answers: Answer[]) => answers.flatMap((a, i) => (a.status === steps[i]!.status ? [] : [`${a.label}: ${a.status} ${a.text.slice(0, 300)}`]));
    expect(wrong(onSqlite), 'sqlite').toEqual([]);
    expect(wrong(onPostgres), 'postgres').toEqual([]);

    const [left, right] = [normalize(sqlite, onSqlite), normalize(postgres, onPostgres)];
    const differences = left.flatMap((l, i) => (l === right[i] ? [] : [`sqlite:\n${l}\npostgres:\n${right[i]}`]));
    expect(differences).toEqual([]);
    // Bytes, not values: equal text is equal JSON too, and the texts were really compared.
    expect(left.join('\n').length).toBeGreaterThan(10_000);
  });
});
