// Two applies of one stack at once (issue 5). Without a lock, two planners that both see a resource missing
// both create it: the engine's create check cannot tell them apart (each copy carries the same marker, and
// each POST is a first attempt). So `edgeops apply` holds the stack's lock (src/lock/) from before it plans
// until it has finished: two `edgeops apply` processes started together make exactly one live resource per
// document. An expired lock (its holder died) is taken over, the lock is released after a failed apply, and
// the lock record never shows in plan, drift or export.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createApi, type HttpApi } from '../../src/client/http.ts';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { fetchLive, managedBy } from '../../src/engine/live.ts';
import { KINDS } from '../../src/kinds/index.ts';
import { LOCK_PATH, lockBody, parseLockRecord } from '../../src/lock/lock-record.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import { computePlan, executePlan, loadDesired } from '../../src/pipeline.ts';
import { startProxy, type Hit } from '../support/round-robin-proxy.ts';
import { cleanEnv, edgeops, ROOT, type RunResult } from '../cli/run.ts';
import { api as http, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { holdStackLock } from '../helpers/stack-lock.ts';
import { allKinds, makeCerts } from './fixtures.ts';
import type { Doc } from './harness.ts';
import { walkFiles } from './secret-scan.ts';

let svc: TestService;
let raw: ApiClient;
let api: HttpApi;
let docs: Doc[];
const base = mkdtempSync(join(tmpdir(), 'edgeops-concurrent-'));

function writeDocs(name: string, set: Doc[]): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'all.yaml'), set.map((d) => stringify(d)).join('---\n'));
  return dir;
}

const cli = (args: string[], stack: string): Promise<RunResult> =>
  edgeops(args, { cwd: base, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: stack } });

/** Live copies of each marker-kind address of a stack (more than one is a duplicate). */
async function copies(stack: string, from: HttpApi = api): Promise<Record<string, number>> {
  const live = await fetchLive(KINDS, from);
  const { byAddress } = managedBy(live, stack);
  return Object.fromEntries([...byAddress].map(([address, items]) => [address, items.length]));
}

/** Every document of a marker kind, once. */
const once = (set: Doc[]): Record<string, number> =>
  Object.fromEntries(set.filter((d) => !['RouteResponseHeaders', 'EventSources'].includes(d.kind)).map((d) => [`${d.kind}/${d.name}`, 1]));

/** Ids of the lock records of a stack (each test has its own stack, so one test's leftovers fail only itself). */
async function lockRecords(stack: string, client: ApiClient = raw): Promise<string[]> {
  const items = (await client.listAll('/ip_policies', 'ip_policies')) as { id: string; metadata?: string }[];
  return items.filter((i) => parseMetadata(i.metadata).marker?.name === `Lock/${stack}`).map((i) => i.id);
}

const created = (r: RunResult): number => Number(/Apply complete: (\d+) created/.exec(r.stdout)?.[1] ?? 0);

beforeAll(async () => {
  svc = await startTestService();
  raw = http(svc);
  api = createApi({ url: svc.url, apiKey: svc.apiKey });
  docs = allKinds(await makeCerts());
});
afterAll(async () => {
  await api.close();
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('concurrent applies of one stack', () => {
  it('without the lock, two plans made before either applies both create (why the lock exists)', async () => {
    const set = docs.filter((d) => d.kind === 'IPPolicy' || d.kind === 'TunnelGroupBackend');
    const desired = await loadDesired([writeDocs('unlocked', set)], {});
    const [a, b] = [createApi({ url: svc.url, apiKey: svc.apiKey }), createApi({ url: svc.url, apiKey: svc.apiKey })];
    const plans = await Promise.all([computePlan(desired, a, { stack: 'unlocked' }), computePlan(desired, b, { stack: 'unlocked' })]);
    // Each run's self-check may see the other's copies; what matters here is what was created.
    await Promise.allSettled([
      executePlan(plans[0], a, { stack: 'unlocked', concurrency: 4 }),
      executePlan(plans[1], b, { stack: 'unlocked', concurrency: 4 }),
    ]);
    await Promise.all([a.close(), b.close()]);
    expect(await copies('unlocked')).toEqual(Object.fromEntries(Object.keys(once(set)).map((k) => [k, 2])));
  });

  it('two `edgeops apply` processes at once make exactly one live resource per document', async () => {
    // Every request takes 100 ms more, so each apply lasts seconds and the two surely overlap (without the lock,
    // both would plan every create).
    const slow = await startTestService({ faults: 'latency=100' });
    const slowApi = createApi({ url: slow.url, apiKey: slow.apiKey });
    try {
      const dir = writeDocs('together', docs);
      const run = () => edgeops(['apply', dir, '--auto-approve'], { cwd: base, env: { EDGEOPS_API_URL: slow.url, EDGEOPS_API_KEY: slow.apiKey } });
      const [first, second] = await Promise.all([run(), run()]);
      expect([first.code, second.code], `${first.stderr}\n${second.stderr}`).toEqual([0, 0]);
      // One of them planned and created everything; the other waited for the lock, then found nothing to do.
      expect([created(first), created(second)].sort((x, y) => x - y)).toEqual([0, docs.length]);
      expect(await copies('default', slowApi)).toEqual(once(docs));
      expect(await lockRecords('default', http(slow))).toEqual([]);
    } finally {
      await slowApi.close();
      await slow.close();
    }
  }, 120_000);

  it('with --lock-timeout 0, an apply refuses while another holds the lock, naming it, and changes nothing', async () => {
    const dir = writeDocs('refused', docs.slice(0, 3));
    const held = await holdStackLock(api, 'refused', { holder: 'deploy@ci pid 42' });
    try {
      const r = await cli(['apply', dir, '--auto-approve', '--lock-timeout', '0'], 'refused');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`edgeops: another apply of stack "refused" is running \\(lock ${held.id}, holder deploy@ci pid 42, expires \\S+Z\\)`));
      expect(await copies('refused')).toEqual({});
    } finally {
      await held.release();
    }
  });

  it('Ctrl-C while waiting for the lock stops the wait, deletes its queued record and changes nothing', async () => {
    const dir = writeDocs('waiting', docs.slice(0, 2));
    const held = await holdStackLock(api, 'waiting', { holder: 'long@apply pid 1' });
    try {
      const child = spawn(process.execPath, [join(ROOT, 'bin/edgeops.js'), 'apply', dir, '--auto-approve'], {
        cwd: base, env: cleanEnv({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: 'waiting' }), stdio: 'pipe',
      });
      let stderr = '';
      let sent = false;
      child.stdout.resume();
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (!sent && stderr.includes('Waiting up to 120 s for the lock of stack "waiting"')) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(1);
      expect(stderr).toContain(`another apply is running (lock ${held.id}, holder long@apply pid 1, expires `);
      expect(stderr).toContain('edgeops: stopped waiting for the lock of stack "waiting"');
      expect(await lockRecords('waiting')).toEqual([held.id]);
      expect(await copies('waiting')).toEqual({});
    } finally {
      await held.release();
    }
  });

  it('takes over a lock whose holder died (its expiry passed) and deletes it', async () => {
    const dir = writeDocs('stale', docs.slice(0, 2));
    const stale = await raw.post('/ip_policies', lockBody('stale', { holder: 'gone@host pid 9', token: 'old', acquired: '2020-01-01T00:00:00.000Z', expires: '2020-01-01T00:01:00.000Z' }));
    expect(stale.status).toBe(201);
    const r = await cli(['apply', dir, '--auto-approve', '--lock-timeout', '0'], 'stale');
    expect(r.code, r.stderr).toBe(0);
    expect(await copies('stale')).toEqual(once(docs.slice(0, 2)));
    expect(await lockRecords('stale')).toEqual([]);
  });

  it('releases the lock after a failed apply', async () => {
    // The hostport is taken once the apply holds its lock and has listed the TCP edges: after its check before
    // the lock, so no plan sees it, and the create fails on the service.
    let takenBy = '';
    const proxy = await startProxy(svc.url, async (hit: Hit, body: unknown) => {
      const locked = proxy.requests.some((h) => h.method === 'POST' && h.path.startsWith(LOCK_PATH));
      if (!takenBy && locked && hit.method === 'GET' && hit.path.startsWith('/edges/tcp')) {
        const taken = await raw.post('/edges/tcp', { hostports: ['9.tcp.example.com:29999'], description: 'not managed' });
        expect(taken.status).toBe(201);
        takenBy = (taken.body as { id: string }).id;
      }
      return body;
    });
    const dir = writeDocs('failing', [
      { kind: 'IPPolicy', name: 'ok' },
      { kind: 'TCPEdge', name: 'clash', hostports: ['9.tcp.example.com:29999'] },
    ]);
    const r = await edgeops(['apply', dir, '--auto-approve'], { cwd: base, env: { EDGEOPS_API_URL: proxy.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: 'failing' } });
    await proxy.close();
    expect(takenBy).not.toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/failed to create TCPEdge\/clash \(.+\.yaml:\d+\): 400 ERR_HOSTPORT_IN_USE/);
    expect(await lockRecords('failing')).toEqual([]);
    // And the next apply is not kept waiting: with --lock-timeout 0 it would fail if a record were left.
    expect((await cli(['apply', writeDocs('failing-fixed', [{ kind: 'IPPolicy', name: 'ok' }]), '--auto-approve', '--lock-timeout', '0'], 'failing')).code).toBe(0);
  });

  it('the lock record never shows in plan, drift or export: their output is the same with locks held', async () => {
    const dir = writeDocs('quiet', docs.slice(0, 4));
    expect((await cli(['apply', dir, '--auto-approve'], 'quiet')).code).toBe(0);
    const look = async (exportDir: string) => {
      const runs = [
        await cli(['plan', dir, '--detailed-exitcode', '--format', 'json'], 'quiet'),
        await cli(['drift', dir], 'quiet'),
        await cli(['export', '--all', '--out', exportDir, '--snapshot', join(exportDir, 'snapshot.json')], 'quiet'),
      ];
      // The same apart from the directory's name and the times written into the files.
      const same = (text: string) => text.replaceAll(exportDir, 'DIR').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME');
      const files = walkFiles(join(base, exportDir));
      return {
        codes: runs.map((r) => r.code),
        output: runs.map((r) => same(`${r.stdout}${r.stderr}`)),
        files: Object.fromEntries(files.map((f) => [f, same(readFileSync(join(base, exportDir, f), 'utf8'))])),
      };
    };
    const before = await look('export-before');
    expect(before.codes).toEqual([0, 0, 0]);
    expect(Object.keys(before.files)).toEqual(expect.arrayContaining(['ip-policies.yaml', 'snapshot.json']));
    // This stack's lock and another stack's, as during two applies.
    const held = await holdStackLock(api, 'quiet');
    const other = await holdStackLock(api, 'another-stack');
    try {
      expect([await lockRecords('quiet'), await lockRecords('another-stack')]).toEqual([[held.id], [other.id]]);
      expect(await look('export-during')).toEqual(before);
    } finally {
      await held.release();
      await other.release();
    }
  });
});

describe('the lock under rate limits', () => {
  it('is renewed in time while every other request of its client waits out 429 pauses', async () => {
    // Every PUT is answered 429 with a 2 s Retry-After; the lock itself uses POST, GET, PATCH and DELETE.
    const limited = await startTestService({ faults: 'PUT.rate429=1,PUT.retryAfter=2' });
    // The PUTs' retries stop after 8 s, when the watch below is over.
    const client = createApi({ url: limited.url, apiKey: limited.apiKey, concurrency: 4, retry: { maxElapsedMs: 8000 } });
    const plain = http(limited);
    const ttlMs = 3000;
    const lock = await holdStackLock(client, 'busy', { ttlMs, heartbeatMs: 600 });
    try {
      // Writes that keep the client's scheduler paused: each PUT is retried after every Retry-After, and the
      // retries go before any new request in its queue.
      const busy = Array.from({ length: 4 }, (_, i) => client.put(`/edges/tcp/edgtcp_busy${i}/backend`, { enabled: true }).catch(() => undefined));
      const expiries: number[] = [];
      const watchUntil = Date.now() + 6000;
      while (Date.now() < watchUntil) {
        const records = (await plain.listAll('/ip_policies', 'ip_policies')) as Obj[];
        const mine = records.map((r) => parseLockRecord(r, 'busy')).find((r) => r !== undefined);
        expiries.push(Date.parse(mine?.expires ?? '') - Date.now());
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(client.stats().rateLimited).toBeGreaterThan(4);
      // Never expired, and renewed all along (a starved renewal lets the time left run down to nothing).
      expect(Math.min(...expiries)).toBeGreaterThan(ttlMs / 4);
      // A contender (its own client, not paused) does not take it for a dead holder's.
      const contender = createApi({ url: limited.url, apiKey: limited.apiKey });
      try {
        await expect(holdStackLock(contender, 'busy', { waitMs: 0 })).rejects.toThrow(/another apply of stack "busy" is running/);
      } finally {
        await contender.close();
      }
      expect(lock.lost.aborted).toBe(false);
      await Promise.all(busy);
    } finally {
      await lock.release();
      await client.close();
      await limited.close();
    }
  }, 60_000);
});
