// A hostport is unique across accounts, and another account's holder is invisible. Account A applies
// examples/basic (its own descriptions); B's plan and apply of examples/basic then fail with a plan error at the
// hostport, naming no id, description or stack of A's and writing nothing (the proxy's log); the plan asks the
// service about the hostports it would newly claim only, and only when there are some. A service without the
// availability endpoint (404) is planned against as before. A hostport A claims while B's apply runs (a race the
// plan cannot see) fails that one write, and the summary names the hostport without suggesting a rerun.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/server.ts';
import { startProxy, startRequestLog } from '../support/round-robin-proxy.ts';
import { edgeops, output, ROOT, type RunResult } from '../cli/run.ts';
import { api, expectError, storeOf, type ApiClient } from '../helpers/service.ts';
import { newKey } from '../service/accounts-fixtures.ts';

const base = mkdtempSync(join(tmpdir(), 'edgeops-hostports-accounts-'));
const keys = { a: newKey('alpha'), b: newKey('bravo') };
let svc: RunningService;
let A: ApiClient;
let B: ApiClient;
let idsOfA: string[];

/** examples/basic copied to `name`, each description prefixed with `prefix` when given. */
function basic(name: string, prefix?: string): string {
  const dir = join(base, name);
  cpSync(join(ROOT, 'examples/basic'), dir, { recursive: true });
  // The example's policies, where its edgeops.yaml looks for them.
  cpSync(join(ROOT, 'examples/policies'), join(base, 'policies'), { recursive: true });
  if (prefix) {
    for (const file of ['backends.yaml', 'edges.yaml', 'ip-policy.yaml']) {
      const path = join(dir, file);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/^description: /gm, `description: ${prefix} `));
    }
  }
  return dir;
}

const cli = (url: string, key: string, args: string[]): Promise<RunResult> => edgeops(args, { cwd: base, env: { EDGEOPS_API_URL: url, EDGEOPS_API_KEY: key } });

/** Everything B was told, and that none of it is A's: no id, no description, no word of A's stack. */
function expectNothingOfA(r: RunResult): void {
  const said = output(r);
  for (const id of idsOfA) expect(said).not.toContain(id);
  expect(said).not.toContain('alpha');
  expect(said).not.toMatch(/\(stack |stack example-basic/);
}

const heldSsh = 'TCPEdge/ssh: hostport 1.tcp.example.com:20001 is held outside this account; the service lets one resource hold it at a time: pick another hostport, or have it released where it is held';
const heldDb = 'TCPEdge/db: hostport 1.tcp.example.com:20002 is held outside this account; the service lets one resource hold it at a time: pick another hostport, or have it released where it is held';

beforeAll(async () => {
  svc = await startService({ host: '127.0.0.1', port: 0, db: storeOf(join(base, 'service.db')), accounts: [`team-alpha=${keys.a}`, `team-bravo=${keys.b}`], quiet: true });
  A = api({ url: svc.url, apiKey: keys.a });
  B = api({ url: svc.url, apiKey: keys.b });
  const applied = await cli(svc.url, keys.a, ['apply', basic('alpha', 'alpha'), '--auto-approve']);
  expect(applied.code, output(applied)).toBe(0);
  const lists = await Promise.all(['/edges/tcp', '/ip_policies', '/ip_policy_rules', '/backends/tunnel_group', '/backends/http_response'].map((p) => A.get(p)));
  idsOfA = lists.flatMap((l) => l.text.match(/[a-z]+_[0-9A-Za-z]{27}/g) ?? []);
  expect(idsOfA.length).toBeGreaterThan(6);
}, 60_000);
afterAll(async () => {
  await svc?.close();
  rmSync(base, { recursive: true, force: true });
});

describe("a hostport held in another account", () => {
  it('the service says where each hostport is held, never by what', async () => {
    const r = await B.get('/hostports/availability?hostport=1.tcp.example.com:20002&hostport=1.TCP.example.com:20001&hostport=free.example.com:1');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      hostports: [
        { hostport: '1.tcp.example.com:20002', availability: 'held_outside_account' },
        { hostport: '1.TCP.example.com:20001', availability: 'held_outside_account' },
        { hostport: 'free.example.com:1', availability: 'free' },
      ],
    });
    expect((await A.get('/hostports/availability?hostport=1.tcp.example.com:20002')).body.hostports[0].availability).toBe('held_in_account');
    expectError(await B.get('/hostports/availability?hostport=nohost'), 400, 'ERR_HOSTPORT_INVALID', 'hostport[0]');
    expectError(await B.get('/hostports/availability'), 400, 'ERR_FIELD_INVALID');
    expectError(await B.get(`/hostports/availability?${Array.from({ length: 101 }, (_, i) => `hostport=h.example.com:${i + 1}`).join('&')}`), 400, 'ERR_FIELD_INVALID');
    expectError(await B.get('/hostports/availability?hostport=a.example.com:1&limit=5'), 400, 'ERR_QUERY_UNKNOWN_PARAM');
  });

  it("B's plan and apply fail with a plan error at the hostport, naming nothing of A's, and write nothing", async () => {
    const log = await startRequestLog(svc.url, async () => {});
    try {
      const plan = await cli(log.url, keys.b, ['plan', basic('bravo-plan')]);
      expect(plan.code, output(plan)).toBe(1);
      expect(output(plan)).toContain(`edges.yaml:6:13: ${heldSsh}`);
      expect(output(plan)).toContain(`edges.yaml:13:13: ${heldDb}`);
      expectNothingOfA(plan);

      const apply = await cli(log.url, keys.b, ['apply', basic('bravo-apply'), '--auto-approve']);
      expect(apply.code, output(apply)).toBe(1);
      expect(output(apply)).toContain(heldDb);
      expectNothingOfA(apply);
      expect(log.writes).toEqual([]);
    } finally {
      await log.close();
    }
    expect((await B.get('/edges/tcp')).body.tcp_edges).toEqual([]);
  });

  it('asks only about hostports the plan would newly claim, and only when there are some', async () => {
    const proxy = await startProxy(svc.url);
    try {
      const dir = basic('alpha-again', 'alpha');
      const same = await cli(proxy.url, keys.a, ['plan', dir, '--detailed-exitcode']);
      expect(same.code, output(same)).toBe(0);
      expect(proxy.requests.filter((h) => h.path.startsWith('/hostports/'))).toEqual([]);

      writeFileSync(join(dir, 'edges.yaml'), readFileSync(join(dir, 'edges.yaml'), 'utf8').replace('["1.tcp.example.com:20001"]', '["1.tcp.example.com:20001", "2.tcp.example.com:20001"]'));
      const more = await cli(proxy.url, keys.a, ['plan', dir, '--detailed-exitcode']);
      expect(more.code, output(more)).toBe(2);
      expect(proxy.requests.filter((h) => h.path.startsWith('/hostports/'))).toEqual([{ method: 'GET', path: '/hostports/availability?hostport=2.tcp.example.com%3A20001' }]);
    } finally {
      await proxy.close();
    }
  });

  it('against a service without the availability endpoint, the plan goes on without the check', async () => {
    const older = await olderService(svc.url);
    try {
      const plan = await cli(older.url, keys.b, ['plan', basic('bravo-older'), '--format', 'json']);
      expect(plan.code, output(plan)).toBe(0);
      expect((JSON.parse(plan.stdout) as { summary: { create: number } }).summary.create).toBe(8);
      expect(older.refused).toBe(1);
    } finally {
      await older.close();
    }
  });

  it('a hostport claimed in another account while the apply runs: that write fails, and the summary names it without suggesting a rerun', async () => {
    const dir = join(base, 'race');
    cpSync(join(ROOT, 'examples/basic'), dir, { recursive: true });
    writeFileSync(join(dir, 'edges.yaml'), readFileSync(join(dir, 'edges.yaml'), 'utf8').replace(/1\.tcp\.example\.com/g, 'race.example.com'));
    let writes = 0;
    const log = await startRequestLog(svc.url, async () => {
      // B's first write is its stack lock, the second its first resource: by then B's plan has asked about the
      // hostport and found it free, and its TCP edges come later (they need the backends).
      if (++writes !== 2) return;
      const edge = await A.post('/edges/tcp', { description: 'alpha racer', hostports: ['race.example.com:20002'] });
      expect(edge.status, edge.text).toBe(201);
      idsOfA.push(edge.body.id as string);
    });
    try {
      const apply = await cli(log.url, keys.b, ['apply', dir, '--auto-approve']);
      expect(apply.code, output(apply)).toBe(1);
      expect(output(apply)).toMatch(/failed:  create TCPEdge\/db \(.+edges\.yaml:\d+\): 400 ERR_HOSTPORT_IN_USE: hostports\[0\]: "race.example.com:20002" is already in use/);
      expect(writes).toBeGreaterThan(2);
      expect(apply.stdout).toContain('Hostport race.example.com:20002 is held by another resource, outside this account or claimed since the plan was made; the same command fails again until it is released there, or the manifests name another hostport.');
      expect(apply.stdout).not.toContain('Run the same command again');
      expectNothingOfA(apply);
    } finally {
      await log.close();
    }
  });
});

/** The service as one that predates GET /hostports/availability: that path answers 404 ERR_NOT_FOUND_PATH. */
async function olderService(target: string): Promise<{ url: string; refused: number; close(): Promise<void> }> {
  const state = { refused: 0 };
  const server = createServer((req: IncomingMessage, res) => {
    void (async () => {
      if ((req.url ?? '').startsWith('/hostports/availability')) {
        state.refused++;
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error_code: 'ERR_NOT_FOUND_PATH', status_code: 404, msg: 'no endpoint at /hostports/availability', details: { operation_id: 'op_older' } }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'service-version', 'content-type']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
      const answer = await request(`${target}${req.url}`, { method: req.method as 'GET', headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
      res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(await answer.body.text());
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
