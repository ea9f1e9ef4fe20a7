// Resources created directly through the API without a marker (or with someone else's metadata) are never
// changed, deleted or shown, whatever the manifests say; natural-key items on unmanaged parents neither.
import { beforeAll, describe, expect, it } from 'vitest';
import { allKinds, LISTS } from './fixtures.ts';
import { e2eForFile, planLines } from './harness.ts';

const { e, certs } = e2eForFile();
const foreign: string[] = [];
let handMadeEdge = '';

async function created(path: string, body: object): Promise<string> {
  const r = await e.http.post(path, body);
  expect(r.status, r.text).toBe(201);
  foreign.push(String(r.body.id));
  return String(r.body.id);
}

/** Everything the service holds, as plain JSON, for before/after comparison. */
async function snapshot(): Promise<unknown> {
  const lists = await Promise.all(Object.entries(LISTS).map(async ([k, l]) => [k, await e.http.listAll(...l)] as const));
  return Object.fromEntries(lists);
}

beforeAll(async () => {
  const policy = await created('/ip_policies', { description: 'made by hand' });
  await created('/ip_policies', { metadata: '{"owned-by":"ngrok-operator"}' });
  await created('/ip_policies', { metadata: 'not json at all' });
  await created('/ip_policies', { metadata: '{"edgeops":"not a marker"}' });
  await created('/ip_policy_rules', { ip_policy_id: policy, cidr: '192.0.2.0/24', action: 'allow' });
  const backend = await created('/backends/tunnel_group', { labels: { app: 'legacy' } });
  await created('/edges/tcp', { hostports: ['9.tcp.example.com:29999'], backend: { backend_id: backend } });
  const edge = await created('/edges/https', { hostports: ['legacy.example.com:443'] });
  handMadeEdge = edge;
  const route = await e.http.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/', backend: { backend_id: backend } });
  expect(route.status, route.text).toBe(201);
  const headers = await e.http.put(`/edges/https/${edge}/routes/${route.body.id}/response_headers`, { add: { 'x-legacy': '1' } });
  expect(headers.status, headers.text).toBe(200);
  const sub = await created('/event_subscriptions', { description: 'hand-made' });
  expect((await e.http.post(`/event_subscriptions/${sub}/sources`, { type: 'ip_policy_created.v0' })).status).toBe(201);
});

describe('unmanaged resources', () => {
  it('are not in any plan, through create, update and delete of the managed ones', async () => {
    const before = await snapshot();
    const first = await e.plan(allKinds(certs));
    expect(first.plan.summary.delete).toBe(0);
    for (const a of first.plan.actions) expect(foreign).not.toContain(a.liveId);
    await e.converge(allKinds(certs));
    const empty = await e.plan([]);
    expect(empty.plan.actions.every((a) => !foreign.includes(a.liveId ?? ''))).toBe(true);
    expect(empty.plan.actions.every((a) => a.op === 'delete')).toBe(true);
    await e.converge([]);
    expect(await snapshot()).toEqual(before);
  });

  it('a natural-key document naming an unmanaged parent by id manages exactly that item', async () => {
    const edge = handMadeEdge;
    const edgeBody = (await e.http.get(`/edges/https/${edge}`)).body;
    const route = String(edgeBody.routes[0].id);
    const docs = [{ kind: 'RouteResponseHeaders', name: 'legacy', edge_id: edge, route_id: route, add: { 'x-legacy': '2' } }];
    const { plan } = await e.plan(docs);
    expect(planLines(plan)).toEqual(['update RouteResponseHeaders/legacy /add/x-legacy']);
    await e.converge(docs);
    const after = (await e.http.get(`/edges/https/${edge}`)).body.routes[0].response_headers;
    expect(after.add).toEqual({ 'x-legacy': '2' });
    // Without the document the item is out of scope again (its parent is not managed): nothing to delete.
    expect((await e.plan([])).plan.actions).toEqual([]);
  });
});
