// A PATCH body may repeat the path id; any other `id` is a 400 naming the field, whatever its JSON value, and a
// value nested deep enough to overflow a recursive JSON.stringify must not turn into a 500.
import { describe, expect, it } from 'vitest';
import { expectError, serviceForFile } from '../helpers/service.ts';

const { svc, c } = serviceForFile();

const DEPTH = 200_000;

describe('PATCH body id', () => {
  it('a deeply nested id is a 400 ERR_FIELD_TYPE and the service stays up', async () => {
    const p = await c.post('/ip_policies', { description: 'keep' });
    const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
    for (const path of [`/ip_policies/${p.body.id}`, `/edges/tcp/${(await c.post('/edges/tcp', {})).body.id}`]) {
      const r = await c.raw('PATCH', path, { body: `{"id":${deep},"description":"changed"}`, headers: { 'content-type': 'application/json' } });
      expectError(r, 400, 'ERR_FIELD_TYPE', 'id: must be a string, got an array');
    }
    const nestedObject = `${'{"a":'.repeat(DEPTH / 2)}1${'}'.repeat(DEPTH / 2)}`;
    const r = await c.raw('PATCH', `/ip_policies/${p.body.id}`, { body: `{"id":${nestedObject}}`, headers: { 'content-type': 'application/json' } });
    expectError(r, 400, 'ERR_FIELD_TYPE', 'id: must be a string, got object');
    expect((await c.get(`/ip_policies/${p.body.id}`)).body.description).toBe('keep');
  });

  it('other non-string ids are 400 ERR_FIELD_TYPE; the path id is accepted; another string id is ERR_ID_MISMATCH', async () => {
    const p = await c.post('/ip_policies', {});
    for (const [id, shown] of [[7, 'number'], [true, 'boolean'], [{ id: p.body.id }, 'object']] as const) {
      expectError(await c.patch(`/ip_policies/${p.body.id}`, { id, description: 'x' }), 400, 'ERR_FIELD_TYPE', `got ${shown}`);
    }
    const other = await c.patch(`/ip_policies/${p.body.id}`, { id: `ipp_${'x'.repeat(5000)}` });
    expectError(other, 400, 'ERR_ID_MISMATCH', 'differs from the id in the path');
    expect(other.body.msg.length).toBeLessThan(200);
    const same = await c.patch(`/ip_policies/${p.body.id}`, { id: p.body.id, description: 'ok' });
    expect(same.status).toBe(200);
    expect(same.body.description).toBe('ok');
  });

  it('"id": null is absent, as null is for every other field', async () => {
    const p = await c.post('/ip_policies', { description: 'before' });
    const r = await c.patch(`/ip_policies/${p.body.id}`, { id: null, description: 'after' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ ...p.body, description: 'after' });
    const edge = await c.post('/edges/tcp', {});
    const e = await c.patch(`/edges/tcp/${edge.body.id}`, { id: null, metadata: 'm' });
    expect(e.status, e.text).toBe(200);
    expect(e.body.metadata).toBe('m');
  });
});
