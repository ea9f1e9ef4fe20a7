// Lists: newest first by insertion order, limit 1..100 (default 100), before_id cursor, absolute next_page_uri.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, serviceForFile } from '../helpers/service.ts';

const { svc, c } = serviceForFile();
const created: string[] = [];

beforeAll(async () => {
  // 250 items, many within the same second (and millisecond): order must still be exact.
  for (let i = 0; i < 250; i++) {
    const r = await c.post('/backends/tunnel_group', { description: `n${i}` });
    created.push(r.body.id as string);
  }
});

describe('pagination', () => {
  it('default page: 100 newest, with an absolute next_page_uri', async () => {
    const r = await c.get('/backends/tunnel_group');
    const ids = r.body.backends.map((b: { id: string }) => b.id);
    expect(ids).toEqual(created.slice().reverse().slice(0, 100));
    expect(r.body.uri).toBe(`${svc.url}/backends/tunnel_group`);
    expect(r.body.next_page_uri).toBe(`${svc.url}/backends/tunnel_group?before_id=${ids[99]}&limit=100`);
  });

  it('walking next_page_uri visits every item once, newest first, for several page sizes', async () => {
    for (const limit of [1, 7, 50, 100]) {
      const seen: string[] = [];
      let next: string | null = `/backends/tunnel_group?limit=${limit}`;
      let pages = 0;
      while (next) {
        const r = await c.get(next);
        expect(r.status).toBe(200);
        expect(r.body.backends.length).toBeLessThanOrEqual(limit);
        seen.push(...r.body.backends.map((b: { id: string }) => b.id));
        next = r.body.next_page_uri;
        pages++;
      }
      expect(seen).toEqual(created.slice().reverse());
      expect(pages).toBe(Math.ceil(250 / limit));
    }
  });

  it('next_page_uri is null exactly when no more items exist', async () => {
    const last = await c.get(`/backends/tunnel_group?before_id=${created[50]}&limit=50`);
    expect(last.body.backends).toHaveLength(50);
    expect(last.body.next_page_uri).toBeNull();
    const empty = await c.get(`/backends/tunnel_group?before_id=${created[0]}`);
    expect(empty.body).toEqual({ backends: [], uri: `${svc.url}/backends/tunnel_group`, next_page_uri: null });
  });

  it('before_id keeps working after that item is deleted', async () => {
    const fresh = (await c.post('/backends/tunnel_group', {})).body.id as string;
    const older = (await c.post('/backends/tunnel_group', {})).body.id as string;
    await c.del(`/backends/tunnel_group/${older}`);
    const r = await c.get(`/backends/tunnel_group?before_id=${older}&limit=1`);
    expect(r.body.backends.map((b: { id: string }) => b.id)).toEqual([fresh]);
    await c.del(`/backends/tunnel_group/${fresh}`);
  });

  it('limit must be an integer from 1 to 100', async () => {
    for (const limit of ['0', '101', '-1', 'abc', '1.5', '', '1e2', '0100']) {
      expectError(await c.get(`/backends/tunnel_group?limit=${limit}`), 400, 'ERR_LIMIT_INVALID', 'limit');
    }
    expect((await c.get('/backends/tunnel_group?limit=100')).body.backends).toHaveLength(100);
  });

  it('before_id must be an id of this list', async () => {
    expectError(await c.get('/backends/tunnel_group?before_id=bkdtg_nope'), 400, 'ERR_BEFORE_ID_INVALID', 'before_id');
    const policy = (await c.post('/ip_policies', {})).body.id as string;
    expectError(await c.get(`/backends/tunnel_group?before_id=${policy}`), 400, 'ERR_BEFORE_ID_INVALID');
  });

  it('beforeId (the official TypeScript client\'s spelling) is before_id; giving both is a repeat', async () => {
    const camel = await c.get(`/backends/tunnel_group?beforeId=${created[100]}&limit=3`);
    const snake = await c.get(`/backends/tunnel_group?before_id=${created[100]}&limit=3`);
    expect(camel.body.backends.map((b: { id: string }) => b.id)).toEqual(created.slice(97, 100).reverse());
    expect(camel.body).toEqual(snake.body);
    expectError(await c.get('/backends/tunnel_group?beforeId=bkdtg_nope'), 400, 'ERR_BEFORE_ID_INVALID', 'before_id');
    expectError(await c.get(`/backends/tunnel_group?before_id=${created[1]}&beforeId=${created[2]}`), 400, 'ERR_QUERY_REPEATED_PARAM', 'beforeId');
    expectError(await c.get('/backends/tunnel_group?beforeid=x'), 400, 'ERR_QUERY_UNKNOWN_PARAM', 'beforeid');
    expectError(await c.get('/backends/tunnel_group?Before_Id=x'), 400, 'ERR_QUERY_UNKNOWN_PARAM');
  });

  it('unknown and repeated query parameters are 400s', async () => {
    expectError(await c.get('/backends/tunnel_group?page=2'), 400, 'ERR_QUERY_UNKNOWN_PARAM', 'page');
    expectError(await c.get('/backends/tunnel_group?limit=1&limit=2'), 400, 'ERR_QUERY_REPEATED_PARAM', 'limit');
  });

  it('lists of other kinds are independent', async () => {
    const r = await c.get('/backends/http_response');
    expect(r.body).toEqual({ backends: [], uri: `${svc.url}/backends/http_response`, next_page_uri: null });
  });
});
