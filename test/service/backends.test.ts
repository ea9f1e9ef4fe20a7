// /backends/tunnel_group and /backends/http_response over real HTTP.
import { describe, expect, it } from 'vitest';
import { api, expectError, serviceForFile, TIMESTAMP } from '../helpers/service.ts';

const { svc, c } = serviceForFile();

describe('/backends/tunnel_group', () => {
  it('create, get, list, update, delete with exact shapes', async () => {
    const r = await c.post('/backends/tunnel_group', { description: 'web', metadata: '{}', labels: { app: 'web', dc: 'eu-1' } });
    expect(r.status, r.text).toBe(201);
    const id = r.body.id as string;
    expect(id).toMatch(/^bkdtg_[0-9A-Za-z]{27}$/);
    expect(r.body).toEqual({
      id, uri: `${svc.url}/backends/tunnel_group/${id}`, created_at: expect.stringMatching(TIMESTAMP),
      description: 'web', metadata: '{}', labels: { app: 'web', dc: 'eu-1' }, tunnels: [],
    });
    expect((await c.get(`/backends/tunnel_group/${id}`)).body).toEqual(r.body);
    const list = await c.get('/backends/tunnel_group');
    expect(Object.keys(list.body).sort()).toEqual(['backends', 'next_page_uri', 'uri']);
    expect(list.body.backends).toContainEqual(r.body);
    // labels are replaced whole; other fields unchanged.
    const upd = await c.patch(`/backends/tunnel_group/${id}`, { labels: { app: 'api' } });
    expect(upd.body).toEqual({ ...r.body, labels: { app: 'api' } });
    expect((await c.del(`/backends/tunnel_group/${id}`)).status).toBe(204);
    expectError(await c.get(`/backends/tunnel_group/${id}`), 404, 'ERR_TUNNEL_GROUP_BACKEND_NOT_FOUND');
  });

  it('labels default to {}; must be a map of strings with non-empty keys', async () => {
    const r = await c.post('/backends/tunnel_group', {});
    expect(r.body.labels).toEqual({});
    expect(r.body.tunnels).toEqual([]);
    expectError(await c.post('/backends/tunnel_group', { labels: ['a'] }), 400, 'ERR_FIELD_TYPE', 'labels');
    expectError(await c.post('/backends/tunnel_group', { labels: { a: 1 } }), 400, 'ERR_FIELD_TYPE', 'labels.a');
    expectError(await c.post('/backends/tunnel_group', { labels: { '': 'x' } }), 400, 'ERR_MAP_KEY_INVALID', 'labels');
    expectError(await c.post('/backends/tunnel_group', { tunnels: [] }), 400, 'ERR_UNKNOWN_FIELD', 'tunnels');
    expectError(await c.post('/backends/tunnel_group', { description: 'd'.repeat(256) }), 400, 'ERR_DESCRIPTION_TOO_LONG');
  });
});

describe('/backends/http_response', () => {
  it('create, get, list, update, delete with exact shapes; header names lower-cased', async () => {
    const r = await c.post('/backends/http_response', { description: 'maint', body: 'down for maintenance', headers: { 'Content-Type': 'text/plain', 'X-Reason': 'maint' }, status_code: 503 });
    expect(r.status, r.text).toBe(201);
    const id = r.body.id as string;
    expect(id).toMatch(/^bkdhr_[0-9A-Za-z]{27}$/);
    expect(r.body).toEqual({
      id, uri: `${svc.url}/backends/http_response/${id}`, created_at: expect.stringMatching(TIMESTAMP), description: 'maint',
      body: 'down for maintenance', headers: { 'content-type': 'text/plain', 'x-reason': 'maint' }, status_code: 503,
    });
    expect((await c.get(`/backends/http_response/${id}`)).body).toEqual(r.body);
    expect((await c.get('/backends/http_response')).body.backends).toContainEqual(r.body);
    const upd = await c.patch(`/backends/http_response/${id}`, { status_code: 200, headers: {} });
    expect(upd.body).toEqual({ ...r.body, status_code: 200, headers: null });
    expect((await c.del(`/backends/http_response/${id}`)).status).toBe(204);
    expectError(await c.del(`/backends/http_response/${id}`), 404, 'ERR_HTTP_RESPONSE_BACKEND_NOT_FOUND');
  });

  it('defaults: body "", headers null, status_code 200', async () => {
    const r = await c.post('/backends/http_response', {});
    expect(r.body).toMatchObject({ body: '', headers: null, status_code: 200 });
  });

  it('status_code must be an integer from 100 to 599', async () => {
    for (const status_code of [100, 599]) expect((await c.post('/backends/http_response', { status_code })).status).toBe(201);
    for (const status_code of [99, 600, 0, -200, 1000]) {
      expectError(await c.post('/backends/http_response', { status_code }), 400, 'ERR_STATUS_CODE_INVALID', 'status_code');
    }
    for (const status_code of ['200', 200.5, true, [200]]) {
      expectError(await c.post('/backends/http_response', { status_code }), 400, 'ERR_FIELD_TYPE', 'status_code');
    }
  });

  it('header names must be tokens, values free of control characters, no case duplicates', async () => {
    expectError(await c.post('/backends/http_response', { headers: { 'Bad Name': 'x' } }), 400, 'ERR_HEADER_NAME_INVALID', 'headers');
    expectError(await c.post('/backends/http_response', { headers: { 'x:y': 'x' } }), 400, 'ERR_HEADER_NAME_INVALID');
    expectError(await c.post('/backends/http_response', { headers: { 'x-a': 'a\r\nSet-Cookie: x' } }), 400, 'ERR_HEADER_VALUE_INVALID', 'headers["x-a"]');
    expectError(await c.post('/backends/http_response', { headers: { 'X-A': '1', 'x-a': '2' } }), 400, 'ERR_HEADER_DUPLICATE');
    expectError(await c.post('/backends/http_response', { headers: { 'x-a': 1 } }), 400, 'ERR_FIELD_TYPE', 'headers["x-a"]');
    expectError(await c.post('/backends/http_response', { body: 5 }), 400, 'ERR_FIELD_TYPE', 'body');
  });
});
