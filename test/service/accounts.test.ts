// Accounts (issue 22): every API key acts for one account, and no key reaches another account's resources.
// Two accounts on one service (on the test project's store) each hold a document of every kind, with every
// module, route headers and event sources. Then account B's key is used on A's ids at every route and method the
// service declares: as path parameters (parents too), as references in bodies, as echoed body ids and as
// before_id. Every answer must equal the answer for random ids of the same prefixes that do not exist, must hold
// none of A's data, and A's documents must read back byte for byte as before. Hostports are unique across
// accounts without saying who holds one; lists, pages, the read cache and the rate limit keep to their account.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/server.ts';
import { api, expectError, storeOf, type ApiClient } from '../helpers/service.ts';
import {
  fill, METHODS, newKey, ownParams, PATHS, populate, roleOf, ROUTES, runProbe, runProbes, snapshot, sweepProbes, type Account,
} from './accounts-fixtures.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A service on a fresh store of the test project with the given `NAME=KEY` accounts. */
async function serviceWith(accounts: string[], opts: { rateLimit?: number } = {}): Promise<RunningService> {
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-accounts-'));
  dirs.push(dir);
  return startService({ host: '127.0.0.1', port: 0, db: storeOf(join(dir, 'service.db')), accounts, quiet: true, rateLimit: opts.rateLimit });
}

describe('two accounts on one service', () => {
  let svc: RunningService;
  let A: Account;
  let B: Account;
  let B2: ApiClient;
  const keys = { a: newKey('alpha'), b: newKey('bravo'), b2: newKey('bravo2') };

  beforeAll(async () => {
    svc = await serviceWith([`team-alpha=${keys.a}`, `team-bravo=${keys.b}`, `team-bravo=${keys.b2}`]);
    expect(svc.accounts).toEqual(['team-alpha (1 key)', 'team-bravo (2 keys)']);
    A = await populate(api({ url: svc.url, apiKey: keys.a }), 'team-alpha', keys.a, 'alpha', 21000);
    B = await populate(api({ url: svc.url, apiKey: keys.b }), 'team-bravo', keys.b, 'bravo', 22000);
    A.secrets.push(A.name, A.key);
    B2 = api({ url: svc.url, apiKey: keys.b2 });
  }, 120_000);
  afterAll(async () => {
    await svc?.close();
  });

  it('each account sees its own documents only, whichever of its keys it uses', async () => {
    for (const route of ROUTES.filter((r) => r.method === 'GET' && roleOf(r.path).role === 'collection')) {
      const kind = (roleOf(route.path) as { kind: { listKey: string | null; kind: string } }).kind;
      const listOf = async (c: ApiClient, acct: Account) => ((await c.get(fill(route.path, ownParams(route.path, acct)))).body[kind.listKey!] as { id: string }[]).map((i) => i.id);
      expect(await listOf(A.c, A)).toEqual([A.ids[kind.kind]]);
      expect(await listOf(B.c, B)).toEqual([B.ids[kind.kind]]);
      expect(await listOf(B2, B)).toEqual([B.ids[kind.kind]]);
    }
    // The same answer, byte for byte, to either key of an account.
    for (const route of ROUTES.filter((r) => r.method === 'GET')) {
      const path = fill(route.path, ownParams(route.path, B));
      expect((await B2.get(path)).text.replace(/op_\w+/g, ''), path).toBe((await B.c.get(path)).text.replace(/op_\w+/g, ''));
    }
  });

  it("sweep: B's key with A's ids, at every route and method, answers as for ids that do not exist, leaks nothing, changes nothing", async () => {
    const beforeA = await snapshot(A);
    const beforeB = await snapshot(B);
    const probes = sweepProbes(A, B);

    // Every route the service declares, and every method on every path with an id parameter, is probed.
    const probed = new Set(probes.filter((p) => p.what!.startsWith('path ')).map((p) => p.what!.slice('path '.length)));
    for (const route of ROUTES) {
      const covered = probes.some((p) => p.what!.endsWith(` ${route.method} ${route.path}`));
      expect(covered, `no probe of ${route.method} ${route.path}`).toBe(true);
    }
    for (const path of PATHS.filter((p) => p.includes(':'))) {
      for (const method of METHODS) expect(probed.has(`${method} ${path}`), `no probe of ${method} ${path}`).toBe(true);
    }

    const writes: string[] = [];
    const statuses = new Map<number, number>();
    const problems = await runProbes(B.c, probes, A.secrets, 8, (r) => {
      statuses.set(r.foreign.status, (statuses.get(r.foreign.status) ?? 0) + 1);
      if (r.probe.method !== 'GET' && r.foreign.status < 400) writes.push(`${r.probe.what} -> ${r.foreign.status} ${r.foreign.text.slice(0, 200)}`);
    });
    expect(problems.slice(0, 25), `${problems.length} of ${probes.length} probes`).toEqual([]);
    expect(writes).toEqual([]);
    expect(probes.length).toBeGreaterThan(1500);
    console.log(`sweep: ${probes.length} probes; answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    // Mostly 404 (unknown ids in paths) and 400 (unknown references, cursors, echoed ids), some 405.
    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([400, 404, 405]));

    // A's documents byte for byte as they were, and B's too (no probe wrote anything).
    expect(await snapshot(A)).toEqual(beforeA);
    expect(await snapshot(B)).toEqual(beforeB);
  }, 300_000);

  it('examples of the sweep, spelled out', async () => {
    const r1 = await runProbe(B.c, { method: 'GET', path: `/ip_policies/${A.ids.ip_policy}`, foreign: [A.ids.ip_policy!] });
    expect(r1.foreign.body).toEqual({ error_code: 'ERR_IP_POLICY_NOT_FOUND', status_code: 404, msg: 'IP policy "<ID0>" not found', details: { operation_id: '<OP>' } });
    // A reference of the wrong kind in another account is unknown, not "the wrong kind".
    const wrongKind = await B.c.post('/edges/tcp', { backend: { backend_id: A.ids.ip_policy } });
    expectError(wrongKind, 400, 'ERR_REFERENCE_NOT_FOUND', `backend.backend_id: no `);
    expect(wrongKind.body.msg).toContain(`with id "${A.ids.ip_policy}"`);
    expectError(await B.c.post('/edges/tcp', { backend: { backend_id: B.ids.ip_policy } }), 400, 'ERR_REFERENCE_WRONG_KIND');
    // Parents in paths: B's edge with A's route, and A's edge with B's route.
    expectError(await B.c.get(`/edges/https/${B.ids.https_edge}/routes/${A.ids.https_edge_route}`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expectError(await B.c.get(`/edges/https/${A.ids.https_edge}/routes/${B.ids.https_edge_route}`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expectError(await B.c.get(`/edges/https/${A.ids.https_edge}/routes`), 404, 'ERR_HTTPS_EDGE_NOT_FOUND');
    expectError(await B.c.post(`/edges/https/${A.ids.https_edge}/routes`, { match_type: 'exact_path', match: '/x' }), 404, 'ERR_HTTPS_EDGE_NOT_FOUND');
    expectError(await B.c.get(`/event_subscriptions/${A.ids.event_subscription}/sources/${A.types[0]}`), 404, 'ERR_EVENT_SUBSCRIPTION_NOT_FOUND');
    // A deleted id of A's is no cursor for B; for A it still is.
    expectError(await B.c.get(`/ip_policies?before_id=${A.gone.ip_policy}`), 400, 'ERR_BEFORE_ID_INVALID');
    expect((await A.c.get(`/ip_policies?before_id=${A.gone.ip_policy}`)).status).toBe(200);
    // B's own references still protect B's documents.
    expectError(await B.c.del(`/ip_policies/${B.ids.ip_policy}`), 409, 'ERR_RESOURCE_IN_USE');
  });

  it("a hostport held by A is refused for B, on create and PATCH of every edge kind, naming neither A nor A's edge", async () => {
    const held = A.hostports.tcp_edge![0]!;
    const leakFree = (msg: string, sent: string) => {
      // The message may repeat the hostport B sent (lower-cased as its key), nothing else of A's.
      const leaked = A.secrets.filter((s) => msg.includes(s) && !sent.toLowerCase().includes(s.toLowerCase()));
      expect(leaked, msg).toEqual([]);
      expect(msg).not.toContain(A.name);
      expect(msg).not.toMatch(/edg(tcp|tls|hts)_/);
    };
    const cases: [string, 'post' | 'patch', string, Record<string, unknown>, string][] = [
      ['create TCP edge', 'post', '/edges/tcp', { hostports: [held] }, `hostports[0]: "${held}" is already in use`],
      ['create TLS edge (another kind)', 'post', '/edges/tls', { hostports: ['bravo-free.example.com:1443', A.hostports.https_edge![1]!] }, `hostports[1]: "${A.hostports.https_edge![1]}" is already in use`],
      ['create HTTPS edge, another spelling', 'post', '/edges/https', { hostports: [A.hostports.tls_edge![0]!.toUpperCase()] }, `hostports[0]: "${A.hostports.tls_edge![0]}" is already in use`],
      ['PATCH TCP edge', 'patch', `/edges/tcp/${B.ids.tcp_edge}`, { hostports: [...B.hostports.tcp_edge!, held] }, `hostports[2]: "${held}" is already in use`],
      ['PATCH HTTPS edge', 'patch', `/edges/https/${B.ids.https_edge}`, { hostports: [A.hostports.tcp_edge![1]!] }, `hostports[0]: "${A.hostports.tcp_edge![1]}" is already in use`],
      ['PATCH TLS edge, with a description', 'patch', `/edges/tls/${B.ids.tls_edge}`, { description: 'mine', hostports: [A.hostports.https_edge![0]!] }, `hostports[0]: "${A.hostports.https_edge![0]}" is already in use`],
    ];
    const before = await snapshot(B);
    for (const [what, method, path, body, msg] of cases) {
      const r = await B.c[method](path, body);
      expectError(r, 400, 'ERR_HOSTPORT_IN_USE');
      expect(r.body.msg, what).toBe(msg);
      leakFree(r.text, JSON.stringify(body));
    }
    expect(await snapshot(B)).toEqual(before);

    // Within one account the holder is named, as before accounts.
    const same = await A.c.post('/edges/tls', { hostports: [held] });
    expectError(same, 400, 'ERR_HOSTPORT_IN_USE', `hostports[0]: "${held}" is already used by TCP edge ${A.ids.tcp_edge}`);
    const own = await B.c.post('/edges/https', { hostports: [B.hostports.tcp_edge![0]!] });
    expectError(own, 400, 'ERR_HOSTPORT_IN_USE', `is already used by TCP edge ${B.ids.tcp_edge}`);

    // A hostport A lets go of is B's to take; then A is refused, and told nothing of B.
    const freed = 'alpha-moving.example.com:7000';
    const edge = await A.c.post('/edges/tcp', { description: A.text('moving-edge'), hostports: [freed] });
    expect(edge.status, edge.text).toBe(201);
    expect((await A.c.patch(`/edges/tcp/${edge.body.id}`, { hostports: [] })).status).toBe(200);
    const taken = await B.c.post('/edges/tcp', { description: 'now bravo', hostports: [freed] });
    expect(taken.status, taken.text).toBe(201);
    const back = await A.c.patch(`/edges/tcp/${edge.body.id}`, { hostports: [freed] });
    expectError(back, 400, 'ERR_HOSTPORT_IN_USE');
    expect(back.body.msg).toBe(`hostports[0]: "${freed}" is already in use`);
    expect(back.text).not.toContain(taken.body.id);
    expect(back.text).not.toContain('bravo');
    // And deleting B's edge frees it for A again.
    expect((await B.c.del(`/edges/tcp/${taken.body.id}`)).status).toBe(204);
    expect((await A.c.patch(`/edges/tcp/${edge.body.id}`, { hostports: [freed] })).status).toBe(200);
    expect((await A.c.del(`/edges/tcp/${edge.body.id}`)).status).toBe(204);
  });

  it("the read cache does not carry one account's answers to another", async () => {
    // A write first, so nothing is cached yet; then B's answers, uncached.
    expect((await B.c.post('/ip_policies', { description: 'bravo cache probe' })).status).toBe(201);
    const gets = ROUTES.filter((r) => r.method === 'GET');
    const paths = gets.map((r) => fill(r.path, ownParams(r.path, A)));
    const strip = (t: string) => t.replace(/op_[0-9A-Za-z]{27}/g, 'op_X');
    const fresh: Record<string, string> = {};
    for (const p of paths) fresh[p] = strip((await B.c.get(p)).text);
    // A reads each URL twice (the second from the cache), then B reads the very same URLs.
    const ofA: Record<string, string> = {};
    for (const p of paths) {
      ofA[p] = strip((await A.c.get(p)).text);
      expect(strip((await A.c.get(p)).text)).toBe(ofA[p]);
    }
    for (const p of paths) {
      const r = await B.c.get(p);
      expect(strip(r.text), p).toBe(fresh[p]);
      expect(A.secrets.filter((s) => r.text.includes(s) && !p.includes(s)), p).toEqual([]);
    }
    // The list URL every account shares: each gets its own, in any order of asking.
    for (const c of [A.c, B.c, B2, A.c, B2, B.c]) {
      const items = (await c.get('/ip_policies')).body.ip_policies as { id: string }[];
      const mine = c === A.c ? A.ids.ip_policy : B.ids.ip_policy;
      expect(items.map((i) => i.id)).toContain(mine);
      expect(items.map((i) => i.id)).not.toContain(c === A.c ? B.ids.ip_policy : A.ids.ip_policy);
    }
  });
});

describe('lists and pages of each account', () => {
  let svc: RunningService;
  const keys = { x: newKey('x'), y: newKey('y') };
  let cx: ApiClient;
  let cy: ApiClient;
  const made: Record<'x' | 'y', string[]> = { x: [], y: [] };

  beforeAll(async () => {
    svc = await serviceWith([`xray=${keys.x}`, `yankee=${keys.y}`]);
    cx = api({ url: svc.url, apiKey: keys.x });
    cy = api({ url: svc.url, apiKey: keys.y });
    // 150 each, interleaved, so the two accounts' documents alternate in the store's order.
    for (let batch = 0; batch < 15; batch++) {
      const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? cx : cy).post('/ip_policies', { description: `${i % 2 === 0 ? 'x' : 'y'}-${batch}-${i}` })));
      rs.forEach((r, i) => {
        expect(r.status, r.text).toBe(201);
        made[i % 2 === 0 ? 'x' : 'y'].push(r.body.id);
      });
    }
  }, 120_000);
  afterAll(async () => {
    await svc?.close();
  });

  for (const limit of [100, 7, 1]) {
    it(`limit ${limit}: every page holds only the account's own items, all of them once, newest first`, async () => {
      for (const [name, c] of [['x', cx], ['y', cy]] as const) {
        const other = new Set(made[name === 'x' ? 'y' : 'x']);
        const seen: string[] = [];
        let next: string | null = `/ip_policies?limit=${limit}`;
        let pages = 0;
        while (next) {
          const r = await c.get(next);
          expect(r.status, r.text).toBe(200);
          const ids = (r.body.ip_policies as { id: string }[]).map((i) => i.id);
          expect(ids.length).toBeLessThanOrEqual(limit);
          expect(ids.filter((id) => other.has(id))).toEqual([]);
          for (const id of other) expect(r.text.includes(id)).toBe(false);
          seen.push(...ids);
          next = r.body.next_page_uri as string | null;
          pages++;
        }
        expect(pages).toBe(Math.ceil(150 / limit));
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.sort()).toEqual([...made[name]].sort());
      }
    });
  }

  it("order: each account's list is its creation order, newest first, and the other's ids are no cursor", async () => {
    const all = (await cx.listAll('/ip_policies?limit=50', 'ip_policies')) as { id: string; description: string }[];
    const order = (d: string) => d.split('-').slice(1).map(Number) as [number, number];
    const keysOf = all.map((p) => order(p.description));
    const sorted = [...keysOf].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    // Within a batch the creates ran at once, so only batches are ordered.
    expect(keysOf.map((k) => k[0])).toEqual(sorted.map((k) => k[0]));
    const middle = all[75]!.id;
    const after = (await cx.get(`/ip_policies?before_id=${middle}&limit=100`)).body.ip_policies as { id: string }[];
    expect(after.map((p) => p.id)).toEqual(all.slice(76).map((p) => p.id));
    expectError(await cy.get(`/ip_policies?before_id=${middle}`), 400, 'ERR_BEFORE_ID_INVALID');
    expectError(await cx.get(`/ip_policies?beforeId=${made.y[3]}`), 400, 'ERR_BEFORE_ID_INVALID');
  });
});

describe('rate limit', () => {
  it('counts per key: two keys of one account each get their own limit, and another account is not slowed', async () => {
    const k = { x1: newKey('x1'), x2: newKey('x2'), y: newKey('y') };
    const svc = await serviceWith([`xray=${k.x1}`, `xray=${k.x2}`, `yankee=${k.y}`], { rateLimit: 3 });
    try {
      const [x1, x2, y] = [k.x1, k.x2, k.y].map((key) => api({ url: svc.url, apiKey: key }));
      for (let i = 0; i < 3; i++) expect((await x1!.get('/ip_policies')).status).toBe(200);
      expectError(await x1!.get('/ip_policies'), 429, 'ERR_RATE_LIMITED');
      for (let i = 0; i < 3; i++) expect((await x2!.get('/ip_policies')).status).toBe(200);
      expectError(await x2!.get('/ip_policies'), 429, 'ERR_RATE_LIMITED');
      for (let i = 0; i < 3; i++) expect((await y!.post('/ip_policies', {})).status).toBe(201);
      expectError(await y!.get('/ip_policies'), 429, 'ERR_RATE_LIMITED');
      expectError(await x1!.get('/ip_policies'), 429, 'ERR_RATE_LIMITED');
    } finally {
      await svc.close();
    }
  });
});
