// Storage: data survives a restart on the same file; a failed request changes nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { api, expectError, startTestService, tempDbFile } from '../helpers/service.ts';
import { startService } from '../../src/service/server.ts';

const tmp = tempDbFile();
afterAll(() => tmp.cleanup());

describe('persistence', () => {
  it('every resource kind survives a restart with the same dbFile, ids and order intact', async () => {
    const first = await startTestService({ dbFile: tmp.dbFile });
    const c1 = api(first);
    const policy = (await c1.post('/ip_policies', { description: 'p' })).body;
    const rule = (await c1.post('/ip_policy_rules', { cidr: '10.0.0.0/8', ip_policy_id: policy.id, action: 'allow' })).body;
    const tg = (await c1.post('/backends/tunnel_group', { labels: { a: 'b' } })).body;
    const hr = (await c1.post('/backends/http_response', { body: 'x', headers: { A: 'b' } })).body;
    const esb = (await c1.post('/event_subscriptions', { sources: [{ type: 'a.v0' }] })).body;
    await c1.post(`/event_subscriptions/${esb.id}/sources`, { type: 'b.v0' });
    const before = await Promise.all(['/ip_policies', '/ip_policy_rules', '/backends/tunnel_group', '/backends/http_response', '/event_subscriptions'].map((p) => c1.get(p)));
    await first.close();

    const second = await startService({ port: 0, apiKeys: [first.apiKey], db: tmp.dbFile, quiet: true });
    try {
      // Same port is not guaranteed, so compare with the host part of uris rewritten.
      const c2 = api({ url: second.url, apiKey: first.apiKey });
      const after = await Promise.all(['/ip_policies', '/ip_policy_rules', '/backends/tunnel_group', '/backends/http_response', '/event_subscriptions'].map((p) => c2.get(p)));
      expect(after.map((r) => r.text.replaceAll(second.url, 'BASE'))).toEqual(before.map((r) => r.text.replaceAll(first.url, 'BASE')));
      expect((await c2.get(`/ip_policy_rules/${rule.id}`)).body.ip_policy.id).toBe(policy.id);
      expect((await c2.get(`/backends/tunnel_group/${tg.id}`)).body.labels).toEqual({ a: 'b' });
      expect((await c2.get(`/backends/http_response/${hr.id}`)).body.headers).toEqual({ a: 'b' });
      expect((await c2.get(`/event_subscriptions/${esb.id}/sources`)).body.sources.map((s: { type: string }) => s.type)).toEqual(['a.v0', 'b.v0']);
      // Referential integrity is persisted too.
      expectError(await c2.del(`/ip_policies/${policy.id}`), 409, 'ERR_RESOURCE_IN_USE');
      // New items still sort newest first after the old ones.
      const newer = (await c2.post('/ip_policies', {})).body.id;
      expect((await c2.get('/ip_policies')).body.ip_policies.map((p: { id: string }) => p.id)).toEqual([newer, policy.id]);
    } finally {
      await second.close();
    }
  });

  it('a request that fails validation part-way leaves no trace', async () => {
    const svc = await startTestService();
    try {
      const c = api(svc);
      const policy = (await c.post('/ip_policies', { description: 'keep' })).body;
      const rule = (await c.post('/ip_policy_rules', { cidr: '1.2.3.4', ip_policy_id: policy.id, action: 'allow', description: 'r' })).body;
      // Valid description but a bad cidr in the same PATCH: nothing changes.
      expectError(await c.patch(`/ip_policy_rules/${rule.id}`, { description: 'changed', cidr: 'bad' }), 400, 'ERR_CIDR_INVALID');
      expect((await c.get(`/ip_policy_rules/${rule.id}`)).body).toEqual(rule);
      expectError(await c.post('/ip_policy_rules', { cidr: '1.2.3.4', ip_policy_id: 'ipp_gone', action: 'allow' }), 400, 'ERR_REFERENCE_NOT_FOUND');
      expect((await c.get('/ip_policy_rules')).body.ip_policy_rules).toEqual([rule]);
      const esb = (await c.post('/event_subscriptions', { sources: [{ type: 'a.v0' }] })).body;
      expectError(await c.patch(`/event_subscriptions/${esb.id}`, { sources: [{ type: 'b.v0' }], destination_ids: ['ed_x'] }), 400, 'ERR_REFERENCE_NOT_FOUND');
      expect((await c.get(`/event_subscriptions/${esb.id}`)).body).toEqual(esb);
    } finally {
      await svc.close();
    }
  });

  it('without dbFile the store is in memory and starts empty each time', async () => {
    const a = await startService({ quiet: true, apiKeys: ['k'] });
    await api({ url: a.url, apiKey: 'k' }).post('/ip_policies', {});
    await a.close();
    const b = await startService({ quiet: true, apiKeys: ['k'] });
    try {
      expect((await api({ url: b.url, apiKey: 'k' }).get('/ip_policies')).body.ip_policies).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
