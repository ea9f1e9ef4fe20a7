// /ip_policies and /ip_policy_rules over real HTTP: shapes, validation, immutable fields, referential integrity.
import { describe, expect, it } from 'vitest';
import { expectError, ID_SUFFIX, serviceForFile, TIMESTAMP } from '../helpers/service.ts';

const { svc, c } = serviceForFile();

async function newPolicy(body: Record<string, unknown> = {}): Promise<string> {
  const r = await c.post('/ip_policies', body);
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
}

describe('/ip_policies', () => {
  it('create, get, list, update, delete with exact shapes', async () => {
    const r = await c.post('/ip_policies', { description: 'office', metadata: '{"team":"net"}' });
    expect(r.status).toBe(201);
    expect(r.headers['content-type']).toBe('application/json');
    const id = r.body.id as string;
    expect(id).toMatch(/^ipp_/);
    expect(id).toMatch(ID_SUFFIX);
    expect(id).toHaveLength(4 + 27);
    expect(r.body).toEqual({ id, uri: `${svc.url}/ip_policies/${id}`, created_at: expect.stringMatching(TIMESTAMP), description: 'office', metadata: '{"team":"net"}' });

    const got = await c.get(`/ip_policies/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);

    const list = await c.get('/ip_policies');
    expect(list.status).toBe(200);
    expect(Object.keys(list.body).sort()).toEqual(['ip_policies', 'next_page_uri', 'uri']);
    expect(list.body.uri).toBe(`${svc.url}/ip_policies`);
    expect(list.body.next_page_uri).toBeNull();
    expect(list.body.ip_policies).toContainEqual(r.body);

    const upd = await c.patch(`/ip_policies/${id}`, { description: 'office v2' });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ ...r.body, description: 'office v2' });
    // Omitted = unchanged; an empty string clears (and an empty field is left out of the response).
    const cleared = await c.patch(`/ip_policies/${id}`, { metadata: '' });
    expect(cleared.body).toEqual({ id, uri: r.body.uri, created_at: r.body.created_at, description: 'office v2' });
    // The official TypeScript client repeats the id in a PATCH body.
    expect((await c.patch(`/ip_policies/${id}`, { id, description: 'again' })).body.description).toBe('again');
    expectError(await c.patch(`/ip_policies/${id}`, { id: 'ipp_other' }), 400, 'ERR_ID_MISMATCH');

    const del = await c.del(`/ip_policies/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await c.get(`/ip_policies/${id}`), 404, 'ERR_IP_POLICY_NOT_FOUND');
    expectError(await c.del(`/ip_policies/${id}`), 404, 'ERR_IP_POLICY_NOT_FOUND');
  });

  it('empty description and metadata are left out; null is treated as absent', async () => {
    const r = await c.post('/ip_policies', { description: '', metadata: null });
    expect(Object.keys(r.body).sort()).toEqual(['created_at', 'id', 'uri']);
  });

  it('description up to 255 bytes and metadata up to 4096 bytes, counted in UTF-8', async () => {
    expect((await c.post('/ip_policies', { description: 'd'.repeat(255), metadata: 'm'.repeat(4096) })).status).toBe(201);
    expectError(await c.post('/ip_policies', { description: 'd'.repeat(256) }), 400, 'ERR_DESCRIPTION_TOO_LONG', 'description');
    // 128 two-byte characters = 256 bytes.
    expectError(await c.post('/ip_policies', { description: 'é'.repeat(128) }), 400, 'ERR_DESCRIPTION_TOO_LONG');
    expectError(await c.post('/ip_policies', { metadata: 'm'.repeat(4097) }), 400, 'ERR_METADATA_TOO_LONG', 'metadata');
    const id = await newPolicy();
    expectError(await c.patch(`/ip_policies/${id}`, { description: 'd'.repeat(256) }), 400, 'ERR_DESCRIPTION_TOO_LONG');
  });

  it('unknown fields and wrong types are 400s naming the field', async () => {
    expectError(await c.post('/ip_policies', { descripton: 'typo' }), 400, 'ERR_UNKNOWN_FIELD', 'descripton');
    expectError(await c.post('/ip_policies', { action: 'allow' }), 400, 'ERR_UNKNOWN_FIELD', 'action');
    expectError(await c.post('/ip_policies', { description: 5 }), 400, 'ERR_FIELD_TYPE', 'description');
    expectError(await c.post('/ip_policies', { metadata: { a: 1 } }), 400, 'ERR_FIELD_TYPE', 'metadata');
  });
});

describe('/ip_policy_rules', () => {
  it('create, get, list, update, delete with exact shapes', async () => {
    const policy = await newPolicy();
    const r = await c.post('/ip_policy_rules', { description: 'lan', metadata: 'm', cidr: '10.0.0.0/8', ip_policy_id: policy, action: 'allow' });
    expect(r.status, r.text).toBe(201);
    const id = r.body.id as string;
    expect(id).toMatch(/^ipr_[0-9A-Za-z]{27}$/);
    expect(r.body).toEqual({
      id, uri: `${svc.url}/ip_policy_rules/${id}`, created_at: expect.stringMatching(TIMESTAMP), description: 'lan', metadata: 'm',
      cidr: '10.0.0.0/8', ip_policy: { id: policy, uri: `${svc.url}/ip_policies/${policy}` }, action: 'allow',
    });
    expect((await c.get(`/ip_policy_rules/${id}`)).body).toEqual(r.body);
    const list = await c.get('/ip_policy_rules');
    expect(list.body.ip_policy_rules).toContainEqual(r.body);

    const upd = await c.patch(`/ip_policy_rules/${id}`, { cidr: '2001:db8::/32', description: 'v6' });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ ...r.body, cidr: '2001:db8::/32', description: 'v6' });
    expect((await c.del(`/ip_policy_rules/${id}`)).status).toBe(204);
    expectError(await c.get(`/ip_policy_rules/${id}`), 404, 'ERR_IP_POLICY_RULE_NOT_FOUND');
  });

  it('action and ip_policy_id cannot be changed by PATCH', async () => {
    const policy = await newPolicy();
    const rule = (await c.post('/ip_policy_rules', { cidr: '1.2.3.4', ip_policy_id: policy, action: 'deny' })).body;
    expectError(await c.patch(`/ip_policy_rules/${rule.id}`, { action: 'allow' }), 400, 'ERR_FIELD_NOT_UPDATABLE', 'action');
    expectError(await c.patch(`/ip_policy_rules/${rule.id}`, { ip_policy_id: policy }), 400, 'ERR_FIELD_NOT_UPDATABLE', 'ip_policy_id');
    expect((await c.get(`/ip_policy_rules/${rule.id}`)).body).toEqual(rule);
  });

  it('required fields and the action enum', async () => {
    const policy = await newPolicy();
    expectError(await c.post('/ip_policy_rules', { ip_policy_id: policy, action: 'allow' }), 400, 'ERR_FIELD_REQUIRED', 'cidr');
    expectError(await c.post('/ip_policy_rules', { cidr: '1.2.3.4', action: 'allow' }), 400, 'ERR_FIELD_REQUIRED', 'ip_policy_id');
    expectError(await c.post('/ip_policy_rules', { cidr: '1.2.3.4', ip_policy_id: policy }), 400, 'ERR_FIELD_REQUIRED', 'action');
    for (const action of ['ALLOW', 'block', '']) {
      expectError(await c.post('/ip_policy_rules', { cidr: '1.2.3.4', ip_policy_id: policy, action }), 400, 'ERR_ACTION_INVALID', 'action');
    }
    expectError(await c.post('/ip_policy_rules', { cidr: '1.2.3.4', ip_policy_id: policy, action: true }), 400, 'ERR_FIELD_TYPE', 'action');
  });

  it('CIDR: v4 and v6 ranges and bare addresses accepted as sent; malformed ones and host bits refused', async () => {
    const policy = await newPolicy();
    for (const cidr of ['0.0.0.0/0', '192.168.1.0/24', '192.168.1.7', '192.168.1.7/32', '::/0', '2001:db8::/48', '::1', 'fe80::/10', '::ffff:10.0.0.0/104', '2001:db8::1/128']) {
      const r = await c.post('/ip_policy_rules', { cidr, ip_policy_id: policy, action: 'allow' });
      expect(r.status, `${cidr}: ${r.text}`).toBe(201);
      expect(r.body.cidr).toBe(cidr);
    }
    for (const cidr of ['', '10.0.0.0/33', '10.0.0/8', '300.1.1.1', '10.0.0.0/', '10.0.0.0/8/8', 'a.b.c.d', '2001:db8::/129', '2001:db8:::/32', 'fe80::1%eth0', '10.0.0.0/08', ' 10.0.0.0/8', '10.0.0.0/-1']) {
      expectError(await c.post('/ip_policy_rules', { cidr, ip_policy_id: policy, action: 'allow' }), 400, 'ERR_CIDR_INVALID', 'cidr');
    }
    for (const cidr of ['10.0.0.1/8', '192.168.1.128/24', '2001:db8::1/32', '::1/64']) {
      expectError(await c.post('/ip_policy_rules', { cidr, ip_policy_id: policy, action: 'allow' }), 400, 'ERR_CIDR_HOST_BITS_SET', 'cidr');
    }
    const rule = (await c.post('/ip_policy_rules', { cidr: '10.0.0.0/8', ip_policy_id: policy, action: 'allow' })).body;
    expectError(await c.patch(`/ip_policy_rules/${rule.id}`, { cidr: '10.0.0.1/8' }), 400, 'ERR_CIDR_HOST_BITS_SET');
    expectError(await c.patch(`/ip_policy_rules/${rule.id}`, { cidr: 10 }), 400, 'ERR_FIELD_TYPE', 'cidr');
  });

  it('ip_policy_id must name an existing IP policy', async () => {
    expectError(await c.post('/ip_policy_rules', { cidr: '1.2.3.4', ip_policy_id: 'ipp_missing', action: 'allow' }), 400, 'ERR_REFERENCE_NOT_FOUND', 'ip_policy_id');
    const backend = (await c.post('/backends/tunnel_group', {})).body.id as string;
    expectError(await c.post('/ip_policy_rules', { cidr: '1.2.3.4', ip_policy_id: backend, action: 'allow' }), 400, 'ERR_REFERENCE_WRONG_KIND', 'ip_policy_id');
  });

  it('deleting a policy that still has rules is a 409 naming them; after the rules go, it deletes', async () => {
    const policy = await newPolicy();
    const a = (await c.post('/ip_policy_rules', { cidr: '1.1.1.1', ip_policy_id: policy, action: 'allow' })).body.id as string;
    const b = (await c.post('/ip_policy_rules', { cidr: '2.2.2.2', ip_policy_id: policy, action: 'deny' })).body.id as string;
    const r = await c.del(`/ip_policies/${policy}`);
    expectError(r, 409, 'ERR_RESOURCE_IN_USE');
    expect(r.body.msg).toContain(a);
    expect(r.body.msg).toContain(b);
    expect((await c.get(`/ip_policies/${policy}`)).status).toBe(200);
    await c.del(`/ip_policy_rules/${a}`);
    expectError(await c.del(`/ip_policies/${policy}`), 409, 'ERR_RESOURCE_IN_USE', b);
    await c.del(`/ip_policy_rules/${b}`);
    expect((await c.del(`/ip_policies/${policy}`)).status).toBe(204);
  });
});

describe('policies and backends used by edges', () => {
  it('deleting an IP policy or backend an edge uses is a 409 naming the edge; free again once the edge is gone', async () => {
    const policy = await newPolicy();
    const backend = (await c.post('/backends/http_response', { body: 'x' })).body.id as string;
    const edge = await c.post('/edges/tcp', { backend: { backend_id: backend }, ip_restriction: { ip_policy_ids: [policy] } });
    expect(edge.status, edge.text).toBe(201);
    expectError(await c.del(`/ip_policies/${policy}`), 409, 'ERR_RESOURCE_IN_USE', edge.body.id);
    expectError(await c.del(`/backends/http_response/${backend}`), 409, 'ERR_RESOURCE_IN_USE', edge.body.id);
    expect((await c.del(`/edges/tcp/${edge.body.id}`)).status).toBe(204);
    expect((await c.del(`/ip_policies/${policy}`)).status).toBe(204);
    expect((await c.del(`/backends/http_response/${backend}`)).status).toBe(204);
  });
});
