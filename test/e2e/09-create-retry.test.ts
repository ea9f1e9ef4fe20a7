// A create whose response is lost is never repeated blindly: the engine lists the kind and looks for the
// marker (or natural key). These tests put a lossy Api in front of the real client: the request reaches the
// real service (or not), then the caller sees a transport failure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { stringify } from 'yaml';
import type { PostCheck, RetryPolicy } from '../../src/client/retry.ts';
import { ApiError } from '../../src/errors.ts';
import type { Api, Obj } from '../../src/kinds/resource-kind.ts';
import { computePlan, executePlan, loadDesired } from '../../src/pipeline.ts';
import { createApi } from '../../src/client/http.ts';
import { api as rawClient, startTestService, tempDbFile } from '../helpers/service.ts';
import { LISTS } from './fixtures.ts';
import { e2eForFile, idOf, listRaw, ownerOf, planLines, startE2E } from './harness.ts';
import type { Doc, E2E } from './harness.ts';
import { expectNoUnreportedDuplicates, plainLister } from './live-copies.ts';

const { e } = e2eForFile({ certs: false });
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgeops-e2e-retry-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Mode = 'lose-response' | 'lose-request';

/**
 * The first POST to each path matching `fail` fails with a transport error: after the service processed it
 * (`lose-response`) or before sending it (`lose-request`). Like the real client, `retryPostIf(check)` retries
 * an ambiguous POST once the check says it did not land.
 */
function lossy(inner: Api, fail: RegExp, mode: Mode): Api & { retryPostIf(check: PostCheck): Api; checks: number } {
  const failed = new Set<string>();
  const reset = (path: string) => new ApiError({ status: 0, errorCode: 'ECONNRESET', message: 'socket hang up', operation: `POST ${path}` });
  const post = async (path: string, body: Obj, check?: PostCheck): Promise<Obj> => {
    if (!fail.test(path) || failed.has(path)) return inner.post(path, body);
    failed.add(path);
    if (mode === 'lose-response') await inner.post(path, body);
    if (check && (await check())) {
      api.checks++;
      return inner.post(path, body);
    }
    throw reset(path);
  };
  const api = {
    ...inner,
    checks: 0,
    post: (path: string, body: Obj) => post(path, body),
    retryPostIf: (check: PostCheck): Api => ({ ...inner, post: (path, body) => post(path, body, check) }),
  };
  return api;
}

async function applyThrough(api: Api, docs: Doc[], stack: string) {
  writeFileSync(join(dir, 'all.yaml'), docs.map((d) => stringify(d)).join('---\n'));
  const desired = await loadDesired([dir], {});
  const ctx = await computePlan(desired, api, { stack });
  const result = await executePlan(ctx, api, { stack, concurrency: 4 });
  await expectNoUnreportedDuplicates(plainLister(e), stack, result, 'after the run');
  return { desired, result };
}

const copies = async (address: string, stack: string): Promise<number> => {
  const lists = await Promise.all(Object.values(LISTS).map((l) => listRaw(e, ...l)));
  return lists.flat().filter((r) => ownerOf(r, stack) === address).length;
};

const docs: Doc[] = [
  { kind: 'IPPolicy', name: 'office' },
  { kind: 'IPPolicyRule', name: 'v4', ip_policy_id: 'office', cidr: '203.0.113.0/24', action: 'allow' },
  { kind: 'EventSubscription', name: 'audit' },
  { kind: 'EventSources', name: 'audit-sources', subscription_id: 'audit', types: ['ip_policy_created.v0', 'ip_policy_updated.v0', 'ip_policy_deleted.v0'] },
];

describe('lost create responses', () => {
  it('a create that landed is found by its marker: no duplicate, dependents get its id', async () => {
    const api = lossy(e.api, /^\/(ip_policies|ip_policy_rules)$/, 'lose-response');
    const { result } = await applyThrough(api, docs, 'lost-response');
    expect(result.ok).toBe(true);
    expect(await copies('IPPolicy/office', 'lost-response')).toBe(1);
    expect(await copies('IPPolicyRule/v4', 'lost-response')).toBe(1);
    expect(api.checks).toBe(0);
    expect((await e.plan(docs, 'lost-response')).plan.actions).toEqual([]);
  });

  it('a natural-key create that stopped half-way is completed through the kind update', async () => {
    const api = lossy(e.api, /\/sources$/, 'lose-response');
    const { result } = await applyThrough(api, docs, 'lost-sources');
    expect(result.ok).toBe(true);
    expect((await e.plan(docs, 'lost-sources')).plan.actions).toEqual([]);
  });

  it('a create that did not land is retried once the list shows it missing', async () => {
    const api = lossy(e.api, /^\/ip_policies$/, 'lose-request');
    const { result } = await applyThrough(api, docs, 'lost-request');
    expect(result.ok).toBe(true);
    expect(api.checks).toBe(1);
    expect(await copies('IPPolicy/office', 'lost-request')).toBe(1);
  });
});

/** The stack's live copies of each marked address, through plain HTTP (no retries, no scheduler). */
async function ownersOn(svc: E2E, stack: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const l of Object.values(LISTS)) {
    for (const raw of await listRaw(svc, ...l)) {
      const owner = ownerOf(raw, stack);
      if (owner) counts[owner] = (counts[owner] ?? 0) + 1;
    }
  }
  return counts;
}

/** Converges `docs` without faults, then reopens the same database behind a service with `faults`. */
async function convergedThenFaulty(docs: Doc[], faults: string, stack: string, retry?: Partial<RetryPolicy>): Promise<{ faulty: E2E; db: { dbFile: string; cleanup(): void } }> {
  const db = tempDbFile();
  const clean = await startE2E({ dbFile: db.dbFile });
  try {
    await clean.converge(docs, stack);
  } finally {
    await clean.close();
  }
  return { faulty: await startE2E({ dbFile: db.dbFile, faults, retry }), db };
}

describe('a replace whose create fails ambiguously', () => {
  const base: Doc[] = [
    { kind: 'IPPolicy', name: 'office' },
    { kind: 'IPPolicyRule', name: 'v4', ip_policy_id: 'office', cidr: '203.0.113.0/24', action: 'allow' },
  ];
  const denied = base.map((d) => (d.kind === 'IPPolicyRule' ? { ...d, action: 'deny' } : d));
  const rules = async (svc: E2E) => (await listRaw(svc, '/ip_policy_rules', 'ip_policy_rules')).map((r) => ({ owner: ownerOf(r, 'replace-503'), action: r.action }));

  it('never takes the old resource for the new one: a 503 before the write leaves the old rule in place', async () => {
    // Every POST is answered 503 before its handler runs: the new rule never exists. A 503 is an outage, retried
    // (through the landed check) for the outage budget; 2 s of it here, as the service never heals.
    const { faulty, db } = await convergedThenFaulty(base, 'POST.error=1,POST.status=503', 'replace-503', { outageBudgetMs: 2000 });
    try {
      const ctx = await faulty.plan(denied, 'replace-503');
      expect(planLines(ctx.plan)).toEqual(['replace IPPolicyRule/v4 /action']);
      const result = await executePlan(ctx, faulty.api, { stack: 'replace-503', concurrency: 4 });
      await expectNoUnreportedDuplicates(plainLister(faulty), 'replace-503', result, 'after the run');
      expect(result.ok).toBe(false);
      expect(result.results).toEqual([expect.objectContaining({ actionId: 'replace:IPPolicyRule/v4', status: 'failed' })]);
      expect(await rules(faulty)).toEqual([{ owner: 'IPPolicyRule/v4', action: 'allow' }]);
    } finally {
      await faulty.close();
    }
    // Once the service answers again, a rerun converges to exactly one rule, the new one.
    const healed = await startE2E({ dbFile: db.dbFile });
    try {
      await healed.converge(denied, 'replace-503');
      expect(await rules(healed)).toEqual([{ owner: 'IPPolicyRule/v4', action: 'deny' }]);
    } finally {
      await healed.close();
      db.cleanup();
    }
  }, 30_000);

  it('finds the new resource when the create landed but its answer was lost, and deletes only the old one', async () => {
    // Every POST commits, then its connection is dropped: the new rule exists, the client never hears of it.
    const { faulty, db } = await convergedThenFaulty(base, 'POST.drop=1', 'replace-drop');
    try {
      const oldId = await idOf(faulty, '/ip_policy_rules', 'ip_policy_rules', 'IPPolicyRule/v4', 'replace-drop');
      const ctx = await faulty.plan(denied, 'replace-drop');
      const result = await executePlan(ctx, faulty.api, { stack: 'replace-drop', concurrency: 4 });
      await expectNoUnreportedDuplicates(plainLister(faulty), 'replace-drop', result, 'after the run');
      expect(result.results.filter((r) => r.status !== 'done')).toEqual([]);
      const live = await listRaw(faulty, '/ip_policy_rules', 'ip_policy_rules');
      expect(live.map((r) => [ownerOf(r, 'replace-drop'), r.action])).toEqual([['IPPolicyRule/v4', 'deny']]);
      expect(live[0]!.id).not.toBe(oldId);
      expect(planLines((await faulty.plan(denied, 'replace-drop')).plan)).toEqual([]);
    } finally {
      await faulty.close();
      db.cleanup();
    }
  }, 30_000);
});

/**
 * A gateway in front of the real service that holds each POST for `delayMs` before passing it on, and passes
 * it on even when its client has given up: the service commits a create the client no longer waits for. (The
 * service's own latency fault cannot show this: it drops a write whose client has gone.)
 */
async function slowGateway(target: string, delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method === 'POST') await new Promise((resolve) => setTimeout(resolve, delayMs));
        const headers: Record<string, string> = {};
        for (const h of ['authorization', 'service-version', 'content-type', 'accept']) {
          const v = req.headers[h];
          if (typeof v === 'string') headers[h] = v;
        }
        const r = await request(`${target}${req.url ?? '/'}`, {
          method: req.method as 'GET', headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
        });
        const text = await r.body.text();
        if (res.destroyed) return;
        res.writeHead(r.statusCode, { 'content-type': 'application/json' });
        res.end(text);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('a POST that times out', () => {
  it('is not repeated while the service may still commit it: the action fails clearly, nothing is duplicated, a rerun converges', async () => {
    const svc = await startTestService();
    // The gateway holds each POST 2 s; the client gives up waiting after 1 s.
    const gateway = await slowGateway(svc.url, 2000);
    const api = createApi({ url: gateway.url, apiKey: svc.apiKey, timeoutMs: 1000 });
    const plain = { svc, http: rawClient(svc) } as unknown as E2E;
    try {
      const one: Doc[] = [{ kind: 'IPPolicy', name: 'slow', description: 'answered late' }];
      const { result, desired } = await applyThrough(api, one, 'timeout');
      // Long enough for every POST the client sent to have reached the service.
      await new Promise((resolve) => setTimeout(resolve, 4500));
      expect(await ownersOn(plain, 'timeout')).toEqual({ 'IPPolicy/slow': 1 });
      expect(result.ok).toBe(false);
      expect(result.results[0]!.status).toBe('failed');
      expect(result.results[0]!.error!.message).toMatch(/no answer within 1000 ms .*not repeated/);
      // The rerun finds the late create by its marker: nothing left to do.
      expect((await computePlan(desired, api, { stack: 'timeout' })).plan.actions).toEqual([]);
    } finally {
      await api.close();
      await gateway.close();
      await svc.close();
    }
  }, 30_000);
});
