// Seeded input fuzzing of every write endpoint of the core resources. Each generated request carries at least
// one certainly-invalid part (plus random junk elsewhere), so every answer must be a 4xx with the error envelope,
// and the stored data must be exactly as before the run.
import { beforeAll, describe, expect, it } from 'vitest';
import { prng, serviceForFile } from '../helpers/service.ts';
import { badRequest, expectClientError, INVALID_TEXT, NOT_STRING, type FuzzEndpoint } from './fuzz-requests.ts';

const { svc, c } = serviceForFile();
const ids: Record<string, string> = {};

const LISTS: [string, string][] = [
  ['/ip_policies', 'ip_policies'], ['/ip_policy_rules', 'ip_policy_rules'], ['/backends/tunnel_group', 'backends'],
  ['/backends/http_response', 'backends'], ['/event_subscriptions', 'event_subscriptions'],
];

async function snapshot(): Promise<unknown[]> {
  const lists = await Promise.all(LISTS.map(([path, key]) => c.listAll(path, key)));
  return [...lists, (await c.get(`/event_subscriptions/${ids.esb}/sources`)).body];
}

beforeAll(async () => {
  ids.ipp = (await c.post('/ip_policies', { description: 'p' })).body.id;
  ids.ipr = (await c.post('/ip_policy_rules', { cidr: '10.0.0.0/8', ip_policy_id: ids.ipp, action: 'allow' })).body.id;
  ids.bkdtg = (await c.post('/backends/tunnel_group', { labels: { a: 'b' } })).body.id;
  ids.bkdhr = (await c.post('/backends/http_response', { body: 'x' })).body.id;
  ids.esb = (await c.post('/event_subscriptions', { sources: [{ type: 'a.v0' }] })).body.id;
});

// Values certainly invalid for a field of each type (null is "absent", so it is never used as poison).
const INVALID = {
  ...INVALID_TEXT,
  string: () => NOT_STRING,
  cidr: () => [...NOT_STRING, '', '1.2.3.4/33', '1.2.3.4/8', '::1/200', 'x', '1.2.3', '1.2.3.4 ', '::/0/0'],
  policyRef: () => [...NOT_STRING, '', 'ipp_missing', ids.bkdtg!],
  action: () => [...NOT_STRING, '', 'Allow', 'permit'],
  labels: () => [...NOT_STRING.filter((v) => typeof v !== 'object' || Array.isArray(v)), { a: 1 }, { '': 'x' }, { a: null }, { a: ['b'] }],
  headers: () => [1, 'x', [], { 'bad name': 'x' }, { a: '\n' }, { A: '1', a: '2' }, { a: 2 }, { '': 'x' }],
  status: () => [99, 600, '200', 1.5, true, [], -1, 1e9],
  sources: () => [1, 'a.v0', {}, [{}], [{ type: 'BAD' }], ['a.v0'], [{ type: 'a.v0' }, { type: 'a.v0' }], [{ type: 'a.v0', x: 1 }]],
  destinations: () => [1, 'ed_x', ['ed_x'], [1], [ids.ipp!]],
  eventType: () => [...NOT_STRING, '', 'BAD', 'a.v', 'a.v0.v1'],
  subscriptionId: () => [...NOT_STRING, 'esb_other'],
} satisfies Record<string, () => readonly unknown[]>;

const ENDPOINTS: FuzzEndpoint[] = [
  { method: 'POST', path: () => '/ip_policies', valid: () => ({ description: 'd', metadata: 'm' }), fields: { description: INVALID.description, metadata: INVALID.metadata } },
  { method: 'PATCH', path: () => `/ip_policies/${ids.ipp}`, valid: () => ({ description: 'd', metadata: 'm' }), fields: { description: INVALID.description, metadata: INVALID.metadata } },
  {
    method: 'POST', path: () => '/ip_policy_rules', valid: () => ({ description: 'd', cidr: '1.0.0.0/8', ip_policy_id: ids.ipp, action: 'deny' }),
    fields: { description: INVALID.description, metadata: INVALID.metadata, cidr: INVALID.cidr, ip_policy_id: INVALID.policyRef, action: INVALID.action },
  },
  {
    method: 'PATCH', path: () => `/ip_policy_rules/${ids.ipr}`, valid: () => ({ description: 'd', cidr: '2.0.0.0/8' }),
    fields: { description: INVALID.description, metadata: INVALID.metadata, cidr: INVALID.cidr }, forbidden: ['action', 'ip_policy_id'],
  },
  { method: 'POST', path: () => '/backends/tunnel_group', valid: () => ({ labels: { x: 'y' } }), fields: { description: INVALID.description, metadata: INVALID.metadata, labels: INVALID.labels } },
  { method: 'PATCH', path: () => `/backends/tunnel_group/${ids.bkdtg}`, valid: () => ({ labels: { x: 'y' } }), fields: { description: INVALID.description, metadata: INVALID.metadata, labels: INVALID.labels } },
  {
    method: 'POST', path: () => '/backends/http_response', valid: () => ({ body: 'b', headers: { 'X-A': '1' }, status_code: 201 }),
    fields: { description: INVALID.description, metadata: INVALID.metadata, body: INVALID.string, headers: INVALID.headers, status_code: INVALID.status },
  },
  {
    method: 'PATCH', path: () => `/backends/http_response/${ids.bkdhr}`, valid: () => ({ body: 'b', status_code: 201 }),
    fields: { description: INVALID.description, metadata: INVALID.metadata, body: INVALID.string, headers: INVALID.headers, status_code: INVALID.status },
  },
  {
    method: 'POST', path: () => '/event_subscriptions', valid: () => ({ sources: [{ type: 'b.v0' }], destination_ids: [] }),
    fields: { description: INVALID.description, metadata: INVALID.metadata, sources: INVALID.sources, destination_ids: INVALID.destinations },
  },
  {
    method: 'PATCH', path: () => `/event_subscriptions/${ids.esb}`, valid: () => ({ sources: [{ type: 'b.v0' }] }),
    fields: { description: INVALID.description, metadata: INVALID.metadata, sources: INVALID.sources, destination_ids: INVALID.destinations },
  },
  { method: 'POST', path: () => `/event_subscriptions/${ids.esb}/sources`, valid: () => ({ type: 'c.v0' }), fields: { type: INVALID.eventType, subscription_id: INVALID.subscriptionId } },
  { method: 'PATCH', path: () => `/event_subscriptions/${ids.esb}/sources/a.v0`, valid: () => ({}), fields: { subscription_id: INVALID.subscriptionId, type: INVALID.eventType } },
];

describe('fuzzing the core write endpoints', () => {
  it('always a 4xx with the error body, and stored data unchanged', async () => {
    const before = await snapshot();
    const rng = prng(Number(process.env.FUZZ_SEED ?? 20240601));
    for (const ep of ENDPOINTS) {
      for (let i = 0; i < 120; i++) {
        const req = badRequest(rng, ep);
        const r = await c.raw(ep.method, ep.path(), { body: req.body, headers: { 'content-type': req.contentType } });
        expectClientError(r, `${ep.method} ${ep.path()} ${req.contentType} ${req.body.slice(0, 200)}`);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('huge and deeply nested bodies are refused cleanly', async () => {
    const before = await snapshot();
    const deep = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
    const bodies = [
      JSON.stringify({ description: 'x'.repeat(2 * 1024 * 1024) }),
      `{"labels":${deep}}`,
      `{"description":${deep}}`,
      JSON.stringify({ sources: Array.from({ length: 20000 }, () => ({ type: 'a.v0' })) }),
      '['.repeat(100000),
    ];
    for (const ep of ENDPOINTS) {
      for (const body of bodies) {
        const r = await c.raw(ep.method, ep.path(), { body, headers: { 'content-type': 'application/json' } });
        expectClientError(r, `${ep.method} ${ep.path()} ${body.slice(0, 40)}`);
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});
