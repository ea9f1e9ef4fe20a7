// /event_subscriptions and their /sources sub-resource over real HTTP.
import { describe, expect, it } from 'vitest';
import { expectError, serviceForFile, TIMESTAMP } from '../helpers/service.ts';

const { svc, c } = serviceForFile();

const srcUri = (esb: string, type: string) => `${svc.url}/event_subscriptions/${esb}/sources/${type}`;

describe('/event_subscriptions', () => {
  it('create, get, list, update, delete with exact shapes', async () => {
    const r = await c.post('/event_subscriptions', { description: 'audit', metadata: 'm', sources: [{ type: 'ip_policy_created.v0' }], destination_ids: [] });
    expect(r.status, r.text).toBe(201);
    const id = r.body.id as string;
    expect(id).toMatch(/^esb_[0-9A-Za-z]{27}$/);
    expect(r.body).toEqual({
      id, uri: `${svc.url}/event_subscriptions/${id}`, created_at: expect.stringMatching(TIMESTAMP), description: 'audit', metadata: 'm',
      sources: [{ type: 'ip_policy_created.v0', uri: srcUri(id, 'ip_policy_created.v0') }], destinations: [],
    });
    expect((await c.get(`/event_subscriptions/${id}`)).body).toEqual(r.body);
    const list = await c.get('/event_subscriptions');
    expect(Object.keys(list.body).sort()).toEqual(['event_subscriptions', 'next_page_uri', 'uri']);
    expect(list.body.event_subscriptions).toContainEqual(r.body);
    const upd = await c.patch(`/event_subscriptions/${id}`, { sources: [{ type: 'ip_policy_updated.v0' }, { type: 'ip_policy_created.v0' }] });
    expect(upd.body.sources).toEqual([
      { type: 'ip_policy_updated.v0', uri: srcUri(id, 'ip_policy_updated.v0') },
      { type: 'ip_policy_created.v0', uri: srcUri(id, 'ip_policy_created.v0') },
    ]);
    expect(upd.body.description).toBe('audit');
    expect((await c.del(`/event_subscriptions/${id}`)).status).toBe(204);
    expectError(await c.get(`/event_subscriptions/${id}`), 404, 'ERR_EVENT_SUBSCRIPTION_NOT_FOUND');
  });

  it('defaults to no sources; validates types, duplicates and destinations', async () => {
    expect((await c.post('/event_subscriptions', {})).body).toMatchObject({ sources: [], destinations: [] });
    for (const type of ['ip_policy_created', 'IP.v0', 'a.v', 'a.v0 ', '', 'a-b.v1']) {
      expectError(await c.post('/event_subscriptions', { sources: [{ type }] }), 400, 'ERR_EVENT_TYPE_INVALID', 'sources[0].type');
    }
    expectError(await c.post('/event_subscriptions', { sources: [{}] }), 400, 'ERR_FIELD_REQUIRED', 'sources[0].type');
    expectError(await c.post('/event_subscriptions', { sources: [{ type: 'a.v0', uri: 'x' }] }), 400, 'ERR_UNKNOWN_FIELD', 'sources[0].uri');
    expectError(await c.post('/event_subscriptions', { sources: ['a.v0'] }), 400, 'ERR_FIELD_TYPE', 'sources[0]');
    expectError(await c.post('/event_subscriptions', { sources: [{ type: 'a.v0' }, { type: 'a.v0' }] }), 400, 'ERR_EVENT_TYPE_DUPLICATE', 'sources[1]');
    expectError(await c.post('/event_subscriptions', { destination_ids: ['ed_nothere'] }), 400, 'ERR_REFERENCE_NOT_FOUND', 'destination_ids[0]');
    const policy = (await c.post('/ip_policies', {})).body.id as string;
    expectError(await c.post('/event_subscriptions', { destination_ids: [policy] }), 400, 'ERR_REFERENCE_WRONG_KIND', 'destination_ids[0]');
    expectError(await c.post('/event_subscriptions', { destination_ids: 'ed_x' }), 400, 'ERR_FIELD_TYPE', 'destination_ids');
    expectError(await c.post('/event_subscriptions', { description: 'd'.repeat(256) }), 400, 'ERR_DESCRIPTION_TOO_LONG');
    expectError(await c.post('/event_subscriptions', { metadata: 'd'.repeat(4097) }), 400, 'ERR_METADATA_TOO_LONG');
  });
});

describe('/event_subscriptions/{id}/sources', () => {
  it('create, get, list, update, delete; the subscription reflects them', async () => {
    const esb = (await c.post('/event_subscriptions', {})).body.id as string;
    const base = `/event_subscriptions/${esb}/sources`;
    const a = await c.post(base, { type: 'ip_policy_created.v0' });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ type: 'ip_policy_created.v0', uri: srcUri(esb, 'ip_policy_created.v0') });
    // The official TypeScript client repeats subscription_id in the body.
    const b = await c.post(base, { type: 'ip_policy_updated.v0', subscription_id: esb });
    expect(b.status).toBe(201);

    const list = await c.get(base);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ sources: [a.body, b.body], uri: `${svc.url}${base}` });
    expect((await c.get(`${base}/ip_policy_updated.v0`)).body).toEqual(b.body);
    const patched = await c.patch(`${base}/ip_policy_updated.v0`, {});
    expect([patched.status, patched.body]).toEqual([200, b.body]);
    expect((await c.get(`/event_subscriptions/${esb}`)).body.sources).toEqual([a.body, b.body]);

    expect((await c.del(`${base}/ip_policy_created.v0`)).status).toBe(204);
    expect((await c.get(`/event_subscriptions/${esb}`)).body.sources).toEqual([b.body]);
    expectError(await c.get(`${base}/ip_policy_created.v0`), 404, 'ERR_EVENT_SOURCE_NOT_FOUND');
    expectError(await c.del(`${base}/ip_policy_created.v0`), 404, 'ERR_EVENT_SOURCE_NOT_FOUND');
    expectError(await c.patch(`${base}/ip_policy_created.v0`, {}), 404, 'ERR_EVENT_SOURCE_NOT_FOUND');
  });

  it('errors: duplicate type 409, invalid type 400, unknown subscription 404, bad bodies 400', async () => {
    const esb = (await c.post('/event_subscriptions', { sources: [{ type: 'x.v1' }] })).body.id as string;
    const base = `/event_subscriptions/${esb}/sources`;
    expectError(await c.post(base, { type: 'x.v1' }), 409, 'ERR_EVENT_SOURCE_EXISTS', 'x.v1');
    expectError(await c.post(base, { type: 'X' }), 400, 'ERR_EVENT_TYPE_INVALID', 'type');
    expectError(await c.post(base, {}), 400, 'ERR_FIELD_REQUIRED', 'type');
    expectError(await c.post(base, { type: 'y.v1', extra: 1 }), 400, 'ERR_UNKNOWN_FIELD', 'extra');
    expectError(await c.post(base, { type: 'y.v1', subscription_id: 'esb_other' }), 400, 'ERR_ID_MISMATCH', 'subscription_id');
    expectError(await c.patch(`${base}/x.v1`, { enabled: true }), 400, 'ERR_UNKNOWN_FIELD', 'enabled');
    expectError(await c.patch(`${base}/x.v1`, { type: 'z.v1' }), 400, 'ERR_ID_MISMATCH', 'type');
    expectError(await c.get(`${base}?page=2`), 400, 'ERR_QUERY_UNKNOWN_PARAM');
    for (const path of ['/event_subscriptions/esb_missing/sources', '/event_subscriptions/esb_missing/sources/x.v1']) {
      expectError(await c.get(path), 404, 'ERR_EVENT_SUBSCRIPTION_NOT_FOUND');
    }
    expectError(await c.post('/event_subscriptions/esb_missing/sources', { type: 'x.v1' }), 404, 'ERR_EVENT_SUBSCRIPTION_NOT_FOUND');
    expect((await c.get(`/event_subscriptions/${esb}`)).body.sources.map((s: { type: string }) => s.type)).toEqual(['x.v1']);
  });
});
