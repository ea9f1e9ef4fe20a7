// A failed action does not leave other replaces half done. Rules of several IP policies are replaced (their
// action changes) while edges, or the routes of one HTTPS edge, move between those policies, and a proxy in
// front of the service answers the replacement POST of one rule with a 504 (never forwarded: nothing landed).
// After the run every other rule is live once, in its new version; the failed one once, in its old version;
// the summary names the failure and counts the other replaces as done. Where keeping an old half is the safe
// choice (a rule moving to another policy, which an edge that did not move still uses; a route moving to
// another edge whose new route failed), the summary names the document, both ids and why, and the next plan
// deletes the old one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type HttpApi } from '../../src/client/http.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import { computePlan, executeAndCheck } from '../../src/pipeline.ts';
import { applySummary } from '../../src/render/apply-report.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.ts';
import { e2eForFile, ownerOf, planLines, STACK, type Doc } from './harness.ts';
import { duplicates, liveCopies } from './live-copies.ts';

const { e } = e2eForFile({ certs: false });
let proxy: RoundRobinProxy;
let api: HttpApi;
/** The address whose create POST the proxy answers with a 504 (undefined: every request goes through). */
let failing: string | undefined;

beforeAll(async () => {
  proxy = await startRoundRobinProxy([e.svc.url], {
    answer: (method, _path, body) => (method === 'POST' && failing !== undefined && body.includes(`"${failing}"`.slice(1, -1))
      ? { status: 504, body: JSON.stringify({ error_code: 'ERR_GATEWAY_TIMEOUT', status_code: 504, msg: 'the gateway timed out' }) }
      : undefined),
  });
  api = createApi({ url: proxy.url, apiKey: e.svc.apiKey });
});
afterAll(async () => {
  await api?.close();
  await proxy?.close();
});

const rule = (policy: string, action: string, cidr: string, name = `${policy}-v4`): Doc => ({ kind: 'IPPolicyRule', name, ip_policy_id: policy, cidr, action });
const policies = (names: string[], action: string): Doc[] =>
  names.flatMap((p, i) => [{ kind: 'IPPolicy', name: p } as Doc, rule(p, action, `10.${i + 1}.0.0/16`)]);
const backend: Doc = { kind: 'TunnelGroupBackend', name: 'app', labels: { app: 'halves' } };
const edges = (on: string[]): Doc[] => on.map((p, i) => ({
  kind: 'TCPEdge', name: `e${i}`, hostports: [`1.tcp.example.com:${23000 + i}`], backend: { backend_id: 'app' }, ip_restriction: { ip_policy_ids: [p] },
}));
const routes = (on: string[]): Doc[] => [
  { kind: 'HTTPSEdge', name: 'site', hostports: ['halves.example.com:443'] },
  ...on.map((p, i) => ({
    kind: 'HTTPSEdgeRoute', name: `r${i}`, edge_id: 'site', match_type: 'path_prefix', match: `/r${i}`, backend: { backend_id: 'app' }, ip_restriction: { ip_policy_ids: [p] },
  })),
];

interface Rule { id: string; owner: string; action: string; policy: string }
async function rules(): Promise<Rule[]> {
  return ((await e.http.listAll('/ip_policy_rules', 'ip_policy_rules')) as Obj[])
    .filter((r) => ownerOf(r) !== undefined)
    .map((r) => ({ id: String(r.id), owner: ownerOf(r)!, action: String(r.action), policy: String((r.ip_policy as Obj).id) }))
    .sort((a, b) => (a.owner < b.owner ? -1 : 1));
}

/** Plan and apply through the proxy with `fail`'s create answered 504; the result, its summary and the plan. */
async function applyFailing(docs: Doc[], fail: string) {
  const ctx = await e.plan(docs); // the docs written to the harness's directory; planned again through the proxy
  failing = fail;
  try {
    const planned = await computePlan(ctx.desired, api, { stack: STACK });
    const outcome = await executeAndCheck(planned, api, { stack: STACK, concurrency: 8 });
    expect(outcome.selfCheck).toBeUndefined();
    return { plan: planned.plan, result: outcome.result, summary: applySummary(planned.plan, outcome.result) };
  } finally {
    failing = undefined;
  }
}

/** Live copies per document of the stack, through plain HTTP. */
const live = async () => liveCopies({ list: (path: string, key: string) => e.http.listAll(path, key) as Promise<Obj[]> }, STACK);

describe('a failed replacement leaves the other replaces whole', () => {
  it('three policies, edges moving between them: every other rule live once (new), the failed one once (old)', async () => {
    const names = ['pol-1', 'pol-5', 'pol-9'];
    await e.converge([backend, ...policies(names, 'allow'), ...edges(names)]);
    const before = await rules();
    const docs = [backend, ...policies(names, 'deny'), ...edges(['pol-9', 'pol-1', 'pol-5'])];
    const { result, summary } = await applyFailing(docs, 'IPPolicyRule/pol-9-v4');

    expect(duplicates(await live())).toEqual([]);
    const after = await rules();
    expect(after.map((r) => [r.owner, r.action])).toEqual([['IPPolicyRule/pol-1-v4', 'deny'], ['IPPolicyRule/pol-5-v4', 'deny'], ['IPPolicyRule/pol-9-v4', 'allow']]);
    expect(after[2]!.id).toBe(before[2]!.id);
    expect(result.kept).toBeUndefined();
    expect(summary).toMatch(/^Apply failed: 1 action failed; 0 created, 2 updated, 2 replaced, 0 deleted\.$/m);
    expect(summary).toContain('failed:  replace IPPolicyRule/pol-9-v4');
    expect(summary).toContain('504 ERR_GATEWAY_TIMEOUT');
    expect(summary).toContain('skipped: module-put TCPEdge/e0: module ip_restriction put (depends on replace:IPPolicyRule/pol-9-v4)');
    expect(summary).not.toContain('kept:');
    // What is left is the failed replace and the edge that waited for it.
    expect(planLines((await e.plan(docs)).plan)).toEqual(['replace IPPolicyRule/pol-9-v4 /action', 'module-put TCPEdge/e0:ip_restriction /ip_restriction/ip_policy_ids']);
    await e.converge(docs);
    await e.converge([]);
  });

  it('the smallest: two policies, one edge', async () => {
    await e.converge([backend, ...policies(['a', 'b'], 'allow'), ...edges(['a'])]);
    const docs = [backend, ...policies(['a', 'b'], 'deny'), ...edges(['b'])];
    const { summary } = await applyFailing(docs, 'IPPolicyRule/b-v4');
    expect(duplicates(await live())).toEqual([]);
    expect((await rules()).map((r) => [r.owner, r.action])).toEqual([['IPPolicyRule/a-v4', 'deny'], ['IPPolicyRule/b-v4', 'allow']]);
    expect(summary).toMatch(/1 action failed; 0 created, 0 updated, 1 replaced, 0 deleted/);
    expect(summary).not.toContain('kept:');
    await e.converge(docs);
    await e.converge([]);
  });

  it('the routes of one HTTPS edge moving between the policies', async () => {
    const names = ['pol-1', 'pol-5', 'pol-9'];
    await e.converge([backend, ...policies(names, 'allow'), ...routes(names)]);
    const docs = [backend, ...policies(names, 'deny'), ...routes(['pol-9', 'pol-1', 'pol-5'])];
    const { result, summary } = await applyFailing(docs, 'IPPolicyRule/pol-9-v4');
    expect(duplicates(await live())).toEqual([]);
    expect((await rules()).map((r) => [r.owner, r.action])).toEqual([['IPPolicyRule/pol-1-v4', 'deny'], ['IPPolicyRule/pol-5-v4', 'deny'], ['IPPolicyRule/pol-9-v4', 'allow']]);
    expect(result.kept).toBeUndefined();
    expect(summary).toMatch(/1 action failed; 0 created, 2 updated, 2 replaced, 0 deleted/);
    expect(summary).toContain('skipped: module-put HTTPSEdgeRoute/r0: module ip_restriction put (depends on replace:IPPolicyRule/pol-9-v4)');
    await e.converge(docs);
    await e.converge([]);
  });
});

describe('where keeping the old half is the safe choice', () => {
  it('a rule moving to the policy an edge could not move to stays in the old one too: the summary says why, the next plan deletes it', async () => {
    await e.converge([backend, ...policies(['a', 'b'], 'allow'), ...edges(['a'])]);
    const [moving, other] = await rules();
    // a-v4 moves to policy b (a replace into another policy); b's own rule is replaced, and its POST fails.
    const docs = [backend, { kind: 'IPPolicy', name: 'a' }, { kind: 'IPPolicy', name: 'b' }, rule('b', 'allow', '10.1.0.0/16', 'a-v4'), rule('b', 'deny', '10.2.0.0/16'), ...edges(['b'])];
    const { result, summary } = await applyFailing(docs, 'IPPolicyRule/b-v4');

    // The edge stays on a (b is incomplete): removing a's rule first would leave it on an empty policy.
    expect(duplicates(await live())).toEqual(['IPPolicyRule/a-v4']);
    const now = await rules();
    const copies = now.filter((r) => r.owner === 'IPPolicyRule/a-v4');
    const made = copies.find((r) => r.id !== moving!.id)!;
    expect(copies.map((r) => r.id)).toContain(moving!.id);
    expect(made.policy).toBe(other!.policy);
    expect(result.kept).toEqual([{
      address: 'IPPolicyRule/a-v4', oldId: moving!.id, newId: made.id,
      reason: 'kept until TCPEdge/e0 leaves IPPolicy/a: removing it first would take one of IPPolicy/a\'s rules away while TCPEdge/e0 still uses it'
        + ' (TCPEdge/e0 did not run: it depends on failed replace:IPPolicyRule/b-v4)',
    }]);
    expect(summary).toContain(`  kept:    IPPolicyRule/a-v4: ${moving!.id} beside its replacement ${made.id}, kept until TCPEdge/e0 leaves IPPolicy/a: `);
    expect(summary).toContain(`; the next plan deletes ${moving!.id}\n`);

    const next = (await e.plan(docs)).plan;
    expect(next.actions.filter((a) => a.address === 'IPPolicyRule/a-v4').map((a) => [a.op, a.liveId])).toEqual([['delete', moving!.id]]);
    await e.converge(docs);
    expect(duplicates(await live())).toEqual([]);
    await e.converge([]);
  });

  it('a route moving to another edge stays on the old edge too until that edge\'s new route exists', async () => {
    const site = (name: string): Doc => ({ kind: 'HTTPSEdge', name, hostports: [`${name}.halves.example.com:443`] });
    const route = (name: string, edge: string): Doc => ({ kind: 'HTTPSEdgeRoute', name, edge_id: edge, match_type: 'path_prefix', match: `/${name}`, backend: { backend_id: 'app' } });
    await e.converge([backend, site('site-a'), site('site-b'), route('mv', 'site-a')]);
    const routesOf = async () => ((await e.http.listAll('/edges/https', 'https_edges')) as Obj[])
      .flatMap((edge) => ((edge.routes ?? []) as Obj[]).map((r) => ({ id: String(r.id), owner: ownerOf(r), edge: String(edge.id) })));
    const [old] = await routesOf();
    const docs = [backend, site('site-a'), site('site-b'), route('mv', 'site-b'), route('nw', 'site-a')];
    const { result, summary } = await applyFailing(docs, 'HTTPSEdgeRoute/nw');

    expect(duplicates(await live())).toEqual(['HTTPSEdgeRoute/mv']);
    const made = (await routesOf()).find((r) => r.owner === 'HTTPSEdgeRoute/mv' && r.id !== old!.id)!;
    expect(made.edge).not.toBe(old!.edge);
    expect(result.kept).toEqual([{
      address: 'HTTPSEdgeRoute/mv', oldId: old!.id, newId: made.id,
      reason: 'kept until HTTPSEdgeRoute/nw exists: removing it first would leave HTTPSEdge/site-a with fewer routes than both before and after'
        + ' (HTTPSEdgeRoute/nw failed: 504 ERR_GATEWAY_TIMEOUT: ' + result.results.find((r) => r.actionId === 'create:HTTPSEdgeRoute/nw')!.error!.message + ')',
    }]);
    expect(summary).toContain(`  kept:    HTTPSEdgeRoute/mv: ${old!.id} beside its replacement ${made.id}, kept until HTTPSEdgeRoute/nw exists: `);
    const next = (await e.plan(docs)).plan;
    expect(next.actions.filter((a) => a.address === 'HTTPSEdgeRoute/mv').map((a) => [a.op, a.liveId])).toEqual([['delete', old!.id]]);
    await e.converge(docs);
    expect(duplicates(await live())).toEqual([]);
    await e.converge([]);
  });
});
