// Two service instances on one PostgreSQL schema (what `serve --db postgresql://…` on N hosts behind a load
// balancer is): a write on one is seen by the other's very next read (its read cache is checked against the
// database's version), checks that read-then-write (hostports, module PUTs, event sources) hold across
// instances because every writer of every instance takes the one `meta` row lock first, paging is stable
// while the other instance inserts, created_at comes from the database's clock (an instance whose clock is
// hours off still writes the right time), the rate limit is one budget for the fleet, two `edgeops apply` of
// one stack through different instances take turns on the stack lock, and an apply through a round-robin
// proxy rides out `kill -9` of one instance (502s retried; creates whose answer was lost found by their marker)
// without a duplicate. Behind a strict rotation that keeps sending every other request to the dead instance, a
// create can fail (its retries alternate with its landed-check GETs and so all land on the dead one): never
// a duplicate, and a rerun converges once the instance is back.
//
// Each test starts its own instances on a schema of its own (storeOf of a fresh temp name), so no test sees
// another's data. PostgreSQL project only (vitest.config.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { generateDocs } from '../../bench/lib/generate.ts';
import { createApi, type HttpApi } from '../../src/client/http.ts';
import { fetchLive, managedBy } from '../../src/engine/live.ts';
import { KINDS } from '../../src/kinds/index.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import { parseLockRecord, type LockRecord } from '../../src/lock/lock-record.ts';
import { startService, type RunningService } from '../../src/service/server.ts';
import { cleanEnv, edgeops, ROOT, type RunResult } from '../cli/run.ts';
import { allKinds, makeCerts } from '../e2e/fixtures.ts';
import { makeCa } from '../helpers/certs.ts';
import { api, expectError, storeOf, TEST_STORE, type ApiClient, type ApiResponse } from '../helpers/service.ts';
import { startRoundRobinProxy, type ProxyExchange, type RoundRobinProxy } from '../support/round-robin-proxy.ts';
import { HOSTPORT_AVAILABILITY_PATH } from '../../src/contract/hostport-availability.ts';

const KEY = 'two-instances-key';
const base = mkdtempSync(join(tmpdir(), 'edgeops-two-'));
let schemas = 0;
/** A database no other test uses: a schema named after a fresh path (see storeOf). */
const freshDb = (): string => storeOf(join(base, `db-${++schemas}`));

/** Everything a test started, stopped after it whatever happened. */
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Pair {
  /** The database both instances share. */
  db: string;
  A: RunningService;
  B: RunningService;
  a: ApiClient;
  b: ApiClient;
  /** The client of request i when alternating: A, B, A, B, … */
  alt(i: number): ApiClient;
  /** JSON of a value with both instances' base URLs written as <base> (uris name the instance that answered). */
  same(value: unknown): unknown;
}

async function startPair(opts: { rateLimit?: number; faults?: unknown } = {}): Promise<Pair> {
  const db = freshDb();
  const start = () => startService({ host: '127.0.0.1', port: 0, db, apiKeys: [KEY], quiet: true, poolSize: 5, ...opts });
  const A = await start();
  cleanups.push(() => A.close());
  const B = await start();
  cleanups.push(() => B.close());
  const a = api({ url: A.url, apiKey: KEY });
  const b = api({ url: B.url, apiKey: KEY });
  return {
    db, A, B, a, b,
    alt: (i) => (i % 2 === 0 ? a : b),
    same: (value) => JSON.parse(JSON.stringify(value).replaceAll(A.url, '<base>').replaceAll(B.url, '<base>')),
  };
}

function created(r: ApiResponse): string {
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
}

function ok(r: ApiResponse): Record<string, unknown> {
  expect(r.status, r.text).toBe(200);
  return r.body as Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- child processes -------------------------------------------------------------------------------------

const BIN = join(ROOT, 'bin/edgeops.js');

interface ServeChild {
  url: string;
  proc: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/** `node [nodeArgs] bin/edgeops.js serve --port 0 --db DB --api-key KEY --quiet`, once it prints its URL. */
async function serveChild(db: string, nodeArgs: string[] = [], port = 0): Promise<ServeChild> {
  const proc = spawn(process.execPath, [...nodeArgs, BIN, 'serve', '--port', String(port), '--db', db, '--api-key', KEY, '--quiet'], {
    cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('close', (code, signal) => resolve({ code, signal })));
  cleanups.push(async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    void exited.then(({ code, signal }) => reject(new Error(`serve exited (${code ?? signal}) before listening:\n${stderr}`)));
  });
  return { url, proc, exited, stderr: () => stderr };
}

// --- helpers for the applies -----------------------------------------------------------------------------

function writeDocs(name: string, docs: readonly Record<string, unknown>[]): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'all.yaml'), docs.map((d) => stringify(d)).join('---\n'));
  return dir;
}

/** Live copies of each marker-kind address of a stack (more than one is a duplicate). */
async function copies(from: HttpApi, stack: string): Promise<Record<string, number>> {
  const live = await fetchLive(KINDS, from);
  const { byAddress } = managedBy(live, stack);
  return Object.fromEntries([...byAddress].map(([address, items]) => [address, items.length]));
}

/** Each document of a marker kind, once (RouteResponseHeaders and EventSources are parts of other resources). */
const once = (docs: readonly { kind: string; name: string }[]): Record<string, number> =>
  Object.fromEntries(docs.filter((d) => !['RouteResponseHeaders', 'EventSources'].includes(d.kind)).map((d) => [`${d.kind}/${d.name}`, 1]));

/** The creates of an apply's closing line; 0 when it found nothing to do. */
const createdCount = (r: RunResult): number => (r.stdout.includes('No changes.') ? 0 : Number(/Apply complete: (\d+) created/.exec(r.stdout)?.[1] ?? -1));

const isWrite = (e: ProxyExchange) => e.method !== 'GET' && e.method !== 'HEAD';

describe.runIf(TEST_STORE === 'postgres')('two instances on one PostgreSQL schema', () => {
  it('a write on one instance is in the other\'s very next GET and list, though that list was cached', async () => {
    const p = await startPair();
    for (let i = 0; i < 12; i++) {
      // Writer and reader swap each round; the reader's list and item are read twice first, so its cache has them.
      const [w, r] = i % 2 === 0 ? [p.a, p.b] : [p.b, p.a];
      const before = ok(await r.get('/ip_policies'));
      expect(ok(await r.get('/ip_policies'))).toEqual(before);
      const id = created(await w.post('/ip_policies', { description: `round ${i}` }));
      const after = ok(await r.get('/ip_policies'));
      expect((after.ip_policies as { id: string }[]).map((x) => x.id)).toEqual([id, ...(before.ip_policies as { id: string }[]).map((x) => x.id)]);
      expect(ok(await r.get(`/ip_policies/${id}`)).description).toBe(`round ${i}`);
      expect(ok(await r.get(`/ip_policies/${id}`)).description).toBe(`round ${i}`);

      expect(ok(await w.patch(`/ip_policies/${id}`, { description: `patched ${i}` })).description).toBe(`patched ${i}`);
      expect(ok(await r.get(`/ip_policies/${id}`)).description).toBe(`patched ${i}`);
      expect((ok(await r.get('/ip_policies')).ip_policies as { description: string }[])[0]!.description).toBe(`patched ${i}`);

      if (i % 3 === 2) {
        expect((await w.del(`/ip_policies/${id}`)).status).toBe(204);
        expectError(await r.get(`/ip_policies/${id}`), 404, 'ERR_IP_POLICY_NOT_FOUND');
        expect((ok(await r.get('/ip_policies')).ip_policies as { id: string }[]).map((x) => x.id)).not.toContain(id);
      }
    }
    // Both instances answer the same list, item for item (uris aside).
    expect(p.same(ok(await p.a.get('/ip_policies')))).toEqual(p.same(ok(await p.b.get('/ip_policies'))));
  });

  it('hostport races across instances: one create wins, the rest are ERR_HOSTPORT_IN_USE, none a 5xx', async () => {
    const p = await startPair();
    for (let round = 0; round < 3; round++) {
      const h = `race${round}.tcp.example.com:3100${round}`;
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => p.alt(i).post('/edges/tcp', { hostports: [h], description: `try ${i}` })));
      expect(answers.filter((r) => r.status >= 500).map((r) => r.text)).toEqual([]);
      const winners = answers.filter((r) => r.status === 201);
      expect(winners, answers.map((r) => r.status).join(',')).toHaveLength(1);
      for (const r of answers.filter((x) => x.status !== 201)) expectError(r, 400, 'ERR_HOSTPORT_IN_USE', winners[0]!.body.id as string);
      for (const c of [p.a, p.b]) {
        const owners = ((await c.listAll('/edges/tcp', 'tcp_edges')) as { id: string; hostports: string[] | null }[]).filter((e) => e.hostports?.includes(h));
        expect(owners.map((e) => e.id)).toEqual([winners[0]!.body.id]);
      }
    }
  });

  it('hostport races across instances: PATCHes moving different edges onto one free hostport, one wins', async () => {
    const p = await startPair();
    for (let round = 0; round < 8; round++) {
      const h = `move${round}.tcp.example.com:3200${round}`;
      const e1 = created(await p.a.post('/edges/tcp', { description: 'one' }));
      const e2 = created(await p.b.post('/edges/tcp', { description: 'two' }));
      // Round by round, each edge is moved through the other instance.
      const [c1, c2] = round % 2 === 0 ? [p.a, p.b] : [p.b, p.a];
      const [r1, r2] = await Promise.all([c1.patch(`/edges/tcp/${e1}`, { hostports: [h] }), c2.patch(`/edges/tcp/${e2}`, { hostports: [h] })]);
      expect([r1.status, r2.status].sort(), `${r1.text}\n${r2.text}`).toEqual([200, 400]);
      const [winner, loser, lost] = r1.status === 200 ? [e1, e2, r2] : [e2, e1, r1];
      expectError(lost, 400, 'ERR_HOSTPORT_IN_USE', winner);
      for (const c of [p.a, p.b]) {
        expect(ok(await c.get(`/edges/tcp/${winner}`)).hostports).toEqual([h]);
        expect(ok(await c.get(`/edges/tcp/${loser}`)).hostports).toBeNull();
      }
    }
    // Ten edges at once onto one hostport, alternating instances.
    const h = 'crowd.tcp.example.com:32100';
    const edges = await Promise.all(Array.from({ length: 10 }, async (_, i) => created(await p.alt(i).post('/edges/tcp', {}))));
    const answers = await Promise.all(edges.map((id, i) => p.alt(i + 1).patch(`/edges/tcp/${id}`, { hostports: [h] })));
    expect(answers.filter((r) => r.status >= 500).map((r) => r.text)).toEqual([]);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const winner = edges[answers.findIndex((r) => r.status === 200)]!;
    for (const r of answers.filter((x) => x.status !== 200)) expectError(r, 400, 'ERR_HOSTPORT_IN_USE', winner);
    const owners = ((await p.b.listAll('/edges/tcp', 'tcp_edges')) as { id: string; hostports: string[] | null }[]).filter((e) => e.hostports?.includes(h));
    expect(owners.map((e) => e.id)).toEqual([winner]);
  });

  it('concurrent writes to different parts of one document through both instances lose nothing', async () => {
    const p = await startPair();
    const ca = created(await p.a.post('/certificate_authorities', { ca_pem: (await makeCa()).certPem }));
    const tg = created(await p.a.post('/backends/tunnel_group', { labels: { app: 'web' } }));
    const pol = created(await p.b.post('/ip_policies', { description: 'office' }));

    // Ten event sources of one subscription, each its own POST.
    const esb = created(await p.a.post('/event_subscriptions', {}));
    const types = 'abcdefghij'.split('').map((l) => `scale_${l}.v0`);
    const posted = await Promise.all(types.map((type, i) => p.alt(i).post(`/event_subscriptions/${esb}/sources`, { type })));
    expect(posted.map((r) => r.status), posted.map((r) => r.text).join('\n')).toEqual(types.map(() => 201));
    for (const c of [p.a, p.b]) {
      expect((ok(await c.get(`/event_subscriptions/${esb}`)).sources as { type: string }[]).map((s) => s.type).sort()).toEqual(types);
      expect((ok(await c.get(`/event_subscriptions/${esb}/sources`)).sources as { type: string }[]).map((s) => s.type).sort()).toEqual(types);
    }

    /** Sends the writes at once (alternating instances), all 200, then checks each field on both instances. */
    const together = async (path: string, writes: [method: 'PUT' | 'PATCH', path: string, body: Record<string, unknown>, field: string][]) => {
      const answers = await Promise.all(writes.map(([method, at, body], i) => (method === 'PUT' ? p.alt(i).put(at, body) : p.alt(i).patch(at, body))));
      expect(answers.map((r) => r.status), answers.map((r) => r.text).join('\n')).toEqual(writes.map(() => 200));
      const expected: Record<string, unknown> = {};
      writes.forEach(([method, , body, field], i) => {
        expected[field] = method === 'PUT' ? answers[i]!.body : body[field];
      });
      for (const c of [p.a, p.b]) {
        const item = ok(await c.get(path));
        expect(p.same(Object.fromEntries(Object.keys(expected).map((f) => [f, item[f]])))).toEqual(p.same(expected));
      }
    };

    // Every module of one TLS edge (6) and three of its fields, at once.
    const tls = created(await p.b.post('/edges/tls', {}));
    const t = `/edges/tls/${tls}`;
    await together(t, [
      ['PUT', `${t}/backend`, { backend_id: tg }, 'backend'],
      ['PUT', `${t}/ip_restriction`, { ip_policy_ids: [pol] }, 'ip_restriction'],
      ['PUT', `${t}/mutual_tls`, { certificate_authority_ids: [ca] }, 'mutual_tls'],
      ['PUT', `${t}/tls_termination`, { terminate_at: 'edge', min_version: '1.3' }, 'tls_termination'],
      ['PUT', `${t}/policy`, { inbound: [{ expressions: ['true'], actions: [{ type: 'deny' }] }] }, 'policy'],
      ['PUT', `${t}/traffic_policy`, { value: JSON.stringify({ on_tcp_connect: [{ actions: [{ type: 'deny' }] }] }) }, 'traffic_policy'],
      ['PATCH', t, { description: 'tls edge' }, 'description'],
      ['PATCH', t, { metadata: 'tls meta' }, 'metadata'],
      ['PATCH', t, { hostports: ['secure.example.com:443'] }, 'hostports'],
    ]);

    // One HTTPS edge: both its modules, three fields and five new routes, ten writes at once.
    const https = created(await p.a.post('/edges/https', {}));
    const hp = `/edges/https/${https}`;
    const edgeWrites = [
      p.a.put(`${hp}/mutual_tls`, { certificate_authority_ids: [ca] }),
      p.b.put(`${hp}/tls_termination`, { min_version: '1.2' }),
      p.a.patch(hp, { description: 'site' }),
      p.b.patch(hp, { metadata: 'site meta' }),
      p.a.patch(hp, { hostports: ['www.example.com:443'] }),
      ...Array.from({ length: 5 }, (_, i) => p.alt(i + 1).post(`${hp}/routes`, { match_type: 'exact_path', match: `/r${i}` })),
    ];
    const edgeAnswers = await Promise.all(edgeWrites);
    expect(edgeAnswers.map((r) => r.status), edgeAnswers.map((r) => r.text).join('\n')).toEqual([200, 200, 200, 200, 200, 201, 201, 201, 201, 201]);
    const routeIds = edgeAnswers.slice(5).map((r) => r.body.id as string);
    for (const c of [p.a, p.b]) {
      const edge = ok(await c.get(hp));
      expect(p.same({
        mutual_tls: edge.mutual_tls, tls_termination: edge.tls_termination, description: edge.description, metadata: edge.metadata, hostports: edge.hostports,
      })).toEqual(p.same({ mutual_tls: edgeAnswers[0]!.body, tls_termination: edgeAnswers[1]!.body, description: 'site', metadata: 'site meta', hostports: ['www.example.com:443'] }));
      expect((edge.routes as { id: string }[]).map((r) => r.id).sort()).toEqual([...routeIds].sort());
    }

    // Every served module of one route and two of its fields, at once.
    const route = `${hp}/routes/${routeIds[0]}`;
    await together(route, [
      ['PUT', `${route}/backend`, { backend_id: tg }, 'backend'],
      ['PUT', `${route}/ip_restriction`, { ip_policy_ids: [pol] }, 'ip_restriction'],
      ['PUT', `${route}/response_headers`, { add: { 'X-Frame-Options': 'DENY' }, remove: ['server'] }, 'response_headers'],
      ['PUT', `${route}/traffic_policy`, { value: JSON.stringify({ on_http_request: [{ actions: [{ type: 'deny' }] }] }) }, 'traffic_policy'],
      ['PATCH', route, { description: 'route' }, 'description'],
      ['PATCH', route, { metadata: 'route meta' }, 'metadata'],
    ]);
  });

  it('paging with before_id on one instance while the other inserts: every older item once, newest first', async () => {
    const p = await startPair();
    const order: string[] = [];
    for (let i = 0; i < 60; i++) order.push(created(await p.alt(i).post('/backends/tunnel_group', { description: `before ${i}` })));
    const existing = [...order];
    let inserting = true;
    const inserter = (async () => {
      try {
        for (let i = 0; i < 50; i++) order.push(created(await p.b.post('/backends/tunnel_group', { description: `during ${i}` })));
      } finally {
        inserting = false;
      }
    })();
    const seen: string[] = [];
    const insertedAt: number[] = [];
    let next: string | null = '/backends/tunnel_group?limit=7';
    for (let page = 1; next; page++) {
      const body = ok(await p.a.get(next));
      const ids = (body.backends as { id: string }[]).map((x) => x.id);
      expect(ids.length).toBeLessThanOrEqual(7);
      seen.push(...ids);
      insertedAt.push(order.length - existing.length);
      next = body.next_page_uri as string | null;
      // Let the other instance insert a few between pages, so the walk surely overlaps the inserts.
      while (next && inserting && order.length - existing.length < 5 * page) await sleep(2);
    }
    await inserter;
    expect(insertedAt.at(-1)!, 'inserts happened during the walk').toBeGreaterThan(insertedAt[0]!);
    // Each seen id once, strictly newest first by creation (the order the creates were answered, one at a time).
    const positions = seen.map((id) => order.indexOf(id));
    expect(positions.filter((x) => x < 0)).toEqual([]);
    expect(new Set(seen).size).toBe(seen.length);
    for (let i = 1; i < positions.length; i++) expect(positions[i]!, `item ${i} of the walk`).toBeLessThan(positions[i - 1]!);
    // Every item that existed before the walk began, exactly once.
    expect(seen.filter((id) => existing.includes(id))).toEqual([...existing].reverse());
  });

  it('created_at is the database\'s time: an instance whose clock is 3 hours ahead writes the same times', async () => {
    const p = await startPair();
    // A third instance, a child process whose Date is 3 h ahead (Date.now() and new Date() alike).
    const skew = join(base, 'skewed-clock.mjs');
    writeFileSync(skew, [
      'const RealDate = Date;',
      'const OFFSET = 3 * 3600 * 1000;',
      'class SkewedDate extends RealDate {',
      '  constructor(...args) { if (args.length === 0) super(RealDate.now() + OFFSET); else super(...args); }',
      '  static now() { return RealDate.now() + OFFSET; }',
      '}',
      'globalThis.Date = SkewedDate;',
      'process.stderr.write(`skewed clock: ${new Date().toISOString()}\\n`);',
    ].join('\n'));
    const c = await serveChild(p.db, ['--import', pathToFileURL(skew).href]);
    const shown = Date.parse(/skewed clock: (\S+)/.exec(c.stderr())?.[1] ?? '');
    expect(shown - Date.now(), 'the child\'s clock is skewed').toBeGreaterThan(2.9 * 3600 * 1000);
    const clients = [p.a, api({ url: c.url, apiKey: KEY }), p.b];

    const ids: string[] = [];
    const stamps: { at: string; via: number; before: number; after: number }[] = [];
    for (let i = 0; i < 30; i++) {
      const before = Date.now();
      const r = await clients[i % 3]!.post('/ip_policies', { description: `clock ${i}` });
      const after = Date.now();
      ids.push(created(r));
      stamps.push({ at: r.body.created_at as string, via: i % 3, before, after });
    }
    // Whole seconds of the database's clock, which is this machine's: within the request's own time span.
    for (const s of stamps) {
      const at = Date.parse(s.at);
      expect(at, `created_at ${s.at} via instance ${s.via}`).toBeGreaterThanOrEqual(Math.floor(s.before / 1000) * 1000);
      expect(at, `created_at ${s.at} via instance ${s.via}`).toBeLessThanOrEqual(s.after);
    }
    // Listed newest first in creation order, with created_at never going back along it.
    const listed = (await p.b.listAll('/ip_policies', 'ip_policies')) as { id: string; created_at: string }[];
    expect(listed.map((x) => x.id)).toEqual([...ids].reverse());
    const times = listed.reverse().map((x) => x.created_at);
    for (let i = 1; i < times.length; i++) expect(times[i]! >= times[i - 1]!, `${times[i - 1]} then ${times[i]}`).toBe(true);
  });

  it('a rate limit of 5 per minute on both instances admits 5 of 20 concurrent requests of one key in all', async () => {
    const p = await startPair({ rateLimit: 5 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => p.alt(i).get('/ip_policies')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200), statuses.join(',')).toHaveLength(5);
    const refused = answers.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expectError(r, 429, 'ERR_RATE_LIMITED');
      const retry = Number(r.headers['retry-after']);
      expect(Number.isInteger(retry) && retry >= 1 && retry <= 60, String(r.headers['retry-after'])).toBe(true);
    }
    // Both instances refused some: the budget is shared, not one per instance.
    expect(new Set(answers.map((r, i) => (r.status === 429 ? i % 2 : -1)).filter((x) => x >= 0)).size).toBe(2);
    // And the next request is refused on either instance.
    expectError(await p.a.get('/ip_policies'), 429, 'ERR_RATE_LIMITED');
    expectError(await p.b.get('/ip_policies'), 429, 'ERR_RATE_LIMITED');
  });

  it('two `edgeops apply` of one stack, one through each instance, take turns on the lock: every document once', async () => {
    // 200 ms more per request, so each apply lasts seconds.
    const p = await startPair({ faults: 'latency=200' });
    const docs = allKinds(await makeCerts());
    const dir = writeDocs('together', docs);
    const stack = 'together';
    const exchanges: ProxyExchange[][] = [[], []];
    // The first apply, once it holds the lock, reads no list until the second's record is queued beside its own:
    // so they surely contend, whatever the host's speed and however the second's record ties with it at first.
    let firstLocked!: () => void;
    const locked = new Promise<void>((resolve) => (firstLocked = resolve));
    let letFirstGoOn!: () => void;
    const contended = new Promise<void>((resolve) => (letFirstGoOn = resolve));
    let holding = false;
    const proxies: RoundRobinProxy[] = [];
    for (const [i, upstream] of [p.A.url, p.B.url].entries()) {
      const proxy = await startRoundRobinProxy([upstream], {
        onExchange: (e) => {
          exchanges[i]!.push(e);
          if (i === 0 && e.method === 'POST' && e.path.startsWith('/ip_policies') && e.status < 300) {
            holding = true;
            firstLocked();
          }
        },
        // Its lists before the lock are all read before its record's POST; those after it are read under the lock.
        ...(i === 0 ? { hold: (method: string, path: string) => (holding && method === 'GET' && !path.startsWith('/ip_policies') ? contended : undefined) } : {}),
      });
      cleanups.push(() => proxy.close());
      proxies.push(proxy);
    }

    // Meanwhile, the stack's lock records as each instance lists them, again and again.
    const polls: { start: number; end: number; records: LockRecord[] }[] = [];
    let polling = true;
    const poller = (async () => {
      for (let i = 0; polling; i++) {
        const start = performance.now();
        const items = (await p.alt(i).listAll('/ip_policies', 'ip_policies')) as Obj[];
        const records = items.map((x) => parseLockRecord(x, stack)).filter((r): r is LockRecord => r !== undefined);
        polls.push({ start, end: performance.now(), records });
        if (records.length === 2) letFirstGoOn();
      }
    })();
    // Stopped before the instances close, also when the test fails or times out.
    cleanups.push(() => {
      polling = false;
      letFirstGoOn();
      return poller.catch(() => undefined);
    });
    // Never held for good: without a contender seen in time, the assertions below say so.
    const giveUp = setTimeout(letFirstGoOn, 30_000);
    cleanups.push(() => clearTimeout(giveUp));
    const run = (proxy: RoundRobinProxy) => edgeops(['apply', dir, '--auto-approve', '--lock-timeout', '60'], { cwd: base, env: { EDGEOPS_API_URL: proxy.url, EDGEOPS_API_KEY: KEY, EDGEOPS_STACK: stack } });
    let runs: RunResult[];
    try {
      const first = run(proxies[0]!);
      const second = Promise.race([locked, first]).then(() => run(proxies[1]!));
      runs = await Promise.all([first, second]);
    } finally {
      polling = false;
      await poller;
    }
    expect(runs.map((r) => r.code), runs.map((r) => `${r.stdout}\n${r.stderr}`).join('\n----\n')).toEqual([0, 0]);
    // One planned and created everything; the other waited for the lock, then found nothing to do.
    const counts = runs.map(createdCount);
    expect([...counts].sort((x, y) => x - y)).toEqual([0, docs.length]);
    const winner = counts.indexOf(docs.length);
    const loser = 1 - winner;

    // Each apply's turn as its requests show it: from its first request after its lock record's POST that is
    // not about lock records (it lists the other kinds only once it holds the lock) until its release (the
    // last DELETE of a record: sent before it lets go). The two turns never overlap. The plan made ahead while
    // the lock is taken asks whether its new hostports are free; that question reads no list.
    const turn = (i: number) => {
      const ex = [...exchanges[i]!].sort((x, y) => x.start - y.start);
      const lockPost = ex.findIndex((e) => e.method === 'POST' && e.path.startsWith('/ip_policies'));
      const from = ex.slice(lockPost + 1).find((e) => !e.path.startsWith('/ip_policies') && !e.path.startsWith(HOSTPORT_AVAILABILITY_PATH));
      const release = ex.filter((e) => e.method === 'DELETE' && e.path.startsWith('/ip_policies/')).at(-1);
      expect(lockPost, `apply ${i} created a lock record`).toBeGreaterThanOrEqual(0);
      expect(from && release, `apply ${i} planned and released`).toBeTruthy();
      return { from: from!.start, to: release!.start, record: release!.path.split('/')[2]!.split('?')[0]! };
    };
    const [w, l] = [turn(winner), turn(loser)];
    expect(l.from, 'the waiting apply planned only after the other released the lock').toBeGreaterThan(w.to);
    // The lists agree: while the winner wrote, its record was there and none was older (a contender's record of
    // the same second may show up: that contender sees the tie and backs off).
    const writes = exchanges[winner]!.filter((e) => isWrite(e) && !e.path.startsWith('/ip_policies'));
    const window = { start: Math.min(...writes.map((e) => e.start)), end: Math.max(...writes.map((e) => e.end)) };
    const during = polls.filter((q) => q.start >= window.start && q.end <= window.end);
    expect(during.length, 'lock polls during the writes').toBeGreaterThan(0);
    for (const q of during) {
      const held = q.records.find((r) => r.id === w.record);
      expect(held, JSON.stringify(q.records)).toBeDefined();
      expect(q.records.filter((r) => r.createdAt! < held!.createdAt!), JSON.stringify(q.records)).toEqual([]);
    }
    // They contended: the other apply was seen queued behind the winner's record, or said it waited.
    const queued = polls.some((q) => q.records.length === 2 && q.records.some((r) => r.id === w.record));
    expect(queued || runs[loser]!.stderr.includes('Waiting up to'), runs[loser]!.stderr).toBe(true);
    // Over time the lists show one holder after the other (the record no other is as old as), each for one
    // unbroken stretch: the holder never goes back to an earlier one, and the winner's turn comes first.
    const heads = polls
      .map((q) => q.records.find((r) => q.records.every((o) => o === r || o.createdAt! > r.createdAt!))?.id)
      .filter((id): id is string => id !== undefined)
      .filter((id, i, all) => i === 0 || all[i - 1] !== id);
    expect(new Set(heads).size, heads.join(' ')).toBe(heads.length);
    expect(heads.indexOf(w.record), heads.join(' ')).toBeGreaterThanOrEqual(0);
    if (heads.includes(l.record)) expect(heads.indexOf(w.record)).toBeLessThan(heads.indexOf(l.record));

    const plain = createApi({ url: p.B.url, apiKey: KEY });
    cleanups.push(() => plain.close());
    expect(await copies(plain, stack)).toEqual(once(docs));
    expect((await p.a.listAll('/ip_policies', 'ip_policies')).map((x) => parseLockRecord(x as Obj, stack)).filter(Boolean)).toEqual([]);
    const again = await edgeops(['plan', dir, '--detailed-exitcode'], { cwd: base, env: { EDGEOPS_API_URL: p.A.url, EDGEOPS_API_KEY: KEY, EDGEOPS_STACK: stack } });
    expect(again.code, `${again.stdout}\n${again.stderr}`).toBe(0);
    expect(again.stdout).toContain('No changes.');
  }, 120_000);

  it('kill -9 of one of two `edgeops serve` processes mid-apply, behind a proxy that takes a failed upstream out of rotation: the apply finishes, nothing twice', async () => {
    const k = await killMidApply('killed', { ejectMs: 2000 });
    expect(k.run.code, `apply took ${k.seconds} s\n${k.run.stdout}\n${k.run.stderr}`).toBe(0);
    expect(createdCount(k.run), k.run.stdout).toBe(k.docs.length);
    await k.checkLive();
    await k.planHasNoChanges();
  }, 120_000);

  it('kill -9 of one of two instances mid-apply behind a strict round robin: nothing twice, and a rerun once it is back converges', async () => {
    // Each failed POST is retried after one landed-check GET: POST, GET, POST, GET… over a strict rotation of two,
    // where one is dead, can land every retry of a POST on the dead one until the retry budget is spent. Then
    // those creates fail (502, never a duplicate) and the rerun creates them.
    const k = await killMidApply('killed-rr', { ejectMs: 0, retryBudget: 15 });
    if (k.run.code !== 0) {
      const failures = [...k.run.stdout.matchAll(/^ {2}failed: {2}(.*)$/gm)].map((m) => m[1]!);
      expect(failures.length, k.run.stdout).toBeGreaterThan(0);
      for (const f of failures) expect(f).toMatch(/^create \S+ \(.+\): 502 ERR_PROXY_UPSTREAM: /);
      expect(k.run.stdout).toMatch(/^Apply failed: \d+ actions? failed; \d+ created, 0 updated, 0 replaced, 0 deleted\.$/m);
    } else {
      expect(createdCount(k.run)).toBe(k.docs.length);
    }
    await k.checkLive({ partial: k.run.code !== 0 });
    // The killed instance comes back on its port; the same apply through the proxy converges.
    await serveChild(k.db, [], Number(new URL(k.A.url).port));
    const again = await edgeops(['apply', k.dir, '--auto-approve', '--retry-budget', '15'], { cwd: base, env: k.env });
    expect(again.code, `${again.stdout}\n${again.stderr}`).toBe(0);
    await k.checkLive();
    await k.planHasNoChanges();
  }, 180_000);
});

/**
 * Two `edgeops serve` children on a fresh schema behind the round-robin proxy; an apply of 150 generated
 * documents through the proxy; kill -9 of the first instance once 20 writes went through. Returns the run and
 * checks of what is live.
 */
async function killMidApply(stack: string, opts: { ejectMs: number; retryBudget?: number }) {
  const db = freshDb();
  const [A, B] = [await serveChild(db), await serveChild(db)];
  const docs = generateDocs(150);
  const dir = writeDocs(stack, docs);
  const exchanges: ProxyExchange[] = [];
  let writesAtKill: number | undefined;
  let writes = 0;
  const proxy = await startRoundRobinProxy([A.url, B.url], {
    ejectMs: opts.ejectMs,
    onExchange: (e) => {
      exchanges.push(e);
      if (isWrite(e) && e.status >= 200 && e.status < 300) writes += 1;
      if (writesAtKill === undefined && writes >= 20) {
        writesAtKill = writes;
        A.proc.kill('SIGKILL');
      }
    },
  });
  cleanups.push(() => proxy.close());
  const env = { EDGEOPS_API_URL: proxy.url, EDGEOPS_API_KEY: KEY, EDGEOPS_STACK: stack };
  const started = performance.now();
  const run = await edgeops(['apply', dir, '--auto-approve', '--retry-budget', String(opts.retryBudget ?? 30)], { cwd: base, env });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  expect(await A.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(writesAtKill, 'A was killed mid-apply').toBeDefined();
  expect(writes - writesAtKill!, 'writes after the kill').toBeGreaterThan(100);
  expect(exchanges.filter((e) => e.status === 502).length, 'requests answered 502 after the kill').toBeGreaterThan(0);
  const plain = createApi({ url: B.url, apiKey: KEY });
  cleanups.push(() => plain.close());
  const reported = [...run.stdout.matchAll(/^created (\S+) \(([^)\s]+)\)$/gm)].map((m) => ({ address: m[1]!, id: m[2]! }));
  expect(reported.length, run.stdout).toBeGreaterThan(0);
  expect(new Set(reported.map((x) => x.address)).size, 'each create reported once').toBe(reported.length);
  return {
    db, A, B, docs, dir, env, run, seconds,
    /** Each document at most once live by its marker (exactly once unless partial); every reported create there, by its id. */
    async checkLive(check: { partial?: boolean } = {}) {
      const live = await fetchLive(KINDS, plain);
      const { byAddress } = managedBy(live, stack);
      const counts = Object.fromEntries([...byAddress].map(([address, items]) => [address, items.length]));
      if (check.partial) {
        expect(Object.values(counts).filter((n) => n !== 1), 'duplicates').toEqual([]);
        expect(Object.keys(counts).filter((a) => !(a in once(docs))), 'unknown addresses').toEqual([]);
      } else {
        expect(counts).toEqual(once(docs));
      }
      const allIds = new Set([...live.byKind.values()].flat().map((x) => x.id));
      for (const { address, id } of reported) {
        const items = byAddress.get(address);
        if (items) expect(items.map((x) => x.id), address).toEqual([id]);
        else expect(allIds.has(id), `${address} (${id}) is live`).toBe(true);
      }
    },
    async planHasNoChanges() {
      const again = await edgeops(['plan', dir, '--detailed-exitcode'], { cwd: base, env: { ...env, EDGEOPS_API_URL: B.url } });
      expect(again.code, `${again.stdout}\n${again.stderr}`).toBe(0);
      expect(again.stdout).toContain('No changes.');
    },
  };
}
