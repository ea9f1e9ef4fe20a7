// A create whose response is lost is never repeated blindly: the engine lists the kind and looks for the
// marker (or natural key). These tests put a lossy Api in front of the real client: the request reaches the
// real service (or not), then the caller sees a transport failure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { PostCheck } from '../../src/client/retry.ts';
import { ApiError } from '../../src/errors.ts';
import type { Api, Obj } from '../../src/kinds/resource-kind.ts';
import { computePlan, executePlan, loadDesired } from '../../src/pipeline.ts';
import { LISTS } from './fixtures.ts';
import { e2eForFile, listRaw, ownerOf } from './harness.ts';
import type { Doc } from './harness.ts';

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
