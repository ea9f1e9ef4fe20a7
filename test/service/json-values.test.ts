// JSON values that plain-object code gets wrong: keys named "__proto__" (kept as ordinary keys through
// validation, storage and responses) and numbers that are not finite (JSON 1e999 parses to Infinity, which
// JSON.stringify would store as null: refused with a 400 naming the field path). Bodies are sent as raw text,
// since JSON.stringify can write neither an own "__proto__" key from a literal nor Infinity.
import { describe, expect, it } from 'vitest';
import { expectError, serviceForFile, type ApiResponse } from '../helpers/service.ts';
import { edgeSnapshot, ok } from './edge-fixtures.ts';

const { c } = serviceForFile();

const send = (method: string, path: string, body: string): Promise<ApiResponse> =>
  c.raw(method, path, { body, headers: { 'content-type': 'application/json' } });

/** The own keys and values of a parsed response map, so a "__proto__" entry cannot hide as a prototype. */
function entries(value: unknown): [string, unknown][] {
  return Object.entries(value as object);
}

describe('a key named __proto__', () => {
  it('is kept in tunnel group labels on create, get, list and PATCH', async () => {
    const made = await send('POST', '/backends/tunnel_group', '{"labels":{"__proto__":"x","a":"b"}}');
    expect(made.status, made.text).toBe(201);
    expect(entries(made.body.labels)).toEqual([['__proto__', 'x'], ['a', 'b']]);
    expect(made.text).toContain('"labels":{"__proto__":"x","a":"b"}');
    const got = await c.get(`/backends/tunnel_group/${made.body.id}`);
    expect(entries(got.body.labels)).toEqual([['__proto__', 'x'], ['a', 'b']]);
    const listed = (await c.get('/backends/tunnel_group')).body.backends.find((b: { id: string }) => b.id === made.body.id);
    expect(entries(listed.labels)).toEqual([['__proto__', 'x'], ['a', 'b']]);
    const patched = await send('PATCH', `/backends/tunnel_group/${made.body.id}`, '{"labels":{"__proto__":"y"}}');
    expect(patched.status, patched.text).toBe(200);
    expect(entries(patched.body.labels)).toEqual([['__proto__', 'y']]);
    expect(entries((await c.get(`/backends/tunnel_group/${made.body.id}`)).body.labels)).toEqual([['__proto__', 'y']]);
  });

  it('is kept as a header name of an HTTP response backend', async () => {
    const made = await send('POST', '/backends/http_response', '{"headers":{"__proto__":"x","X-A":"1"}}');
    expect(made.status, made.text).toBe(201);
    expect(entries(made.body.headers)).toEqual([['__proto__', 'x'], ['x-a', '1']]);
    expect(entries((await c.get(`/backends/http_response/${made.body.id}`)).body.headers)).toEqual([['__proto__', 'x'], ['x-a', '1']]);
    expectError(await send('POST', '/backends/http_response', '{"headers":{"__proto__":"x","__PROTO__":"y"}}'), 400, 'ERR_HEADER_DUPLICATE', '"__PROTO__" given twice');
  });

  it('is kept in a policy action config and in response_headers.add', async () => {
    const policy = '{"inbound":[{"expressions":["true"],"actions":[{"type":"log","config":{"__proto__":{"a":1},"b":[{"__proto__":2}]}}]}]}';
    const edge = await send('POST', '/edges/tcp', `{"policy":${policy}}`);
    expect(edge.status, edge.text).toBe(201);
    const stored = (await c.get(`/edges/tcp/${edge.body.id}/policy`)).body.inbound[0].actions[0].config;
    expect(entries(stored)).toEqual([['__proto__', { a: 1 }], ['b', [JSON.parse('{"__proto__":2}')]]]);
    expect(entries(stored.b[0])).toEqual([['__proto__', 2]]);

    const https = ok(await c.post('/edges/https', {}), 201);
    const route = ok(await c.post(`/edges/https/${https.id}/routes`, { match_type: 'path_prefix', match: '/' }), 201);
    const put = await send('PUT', `/edges/https/${https.id}/routes/${route.id}/response_headers`, '{"add":{"__proto__":"v"}}');
    expect(put.status, put.text).toBe(200);
    expect(entries((await c.get(`/edges/https/${https.id}/routes/${route.id}/response_headers`)).body.add)).toEqual([['__proto__', 'v']]);
  });
});

describe('a number that is not finite', () => {
  it('in a policy action config is a 400 naming its path, and nothing is stored', async () => {
    const edge = ok(await c.post('/edges/tcp', {}), 201);
    const before = await edgeSnapshot(c);
    const rule = (config: string) => `{"inbound":[{"expressions":["true"],"actions":[{"type":"log","config":${config}}]}]}`;
    const cases: [string, string, string][] = [
      ['POST', '/edges/tcp', `{"policy":${rule('{"limit":1e999}')}}`],
      ['PATCH', `/edges/tcp/${edge.id}`, `{"policy":${rule('{"a":{"b":[1,-1e999]}}')}}`],
      ['PUT', `/edges/tcp/${edge.id}/policy`, rule('{"limit":1E400}')],
    ];
    const paths = ['policy.inbound[0].actions[0].config.limit', 'policy.inbound[0].actions[0].config.a.b[1]', 'policy.inbound[0].actions[0].config.limit'];
    for (const [i, [method, path, body]] of cases.entries()) {
      const r = await send(method, path, body);
      expectError(r, 400, 'ERR_FIELD_INVALID', `${paths[i]}: number out of range (not finite)`);
    }
    expect(await edgeSnapshot(c)).toEqual(before);
  });

  it('in an integer field is a 400 naming the field', async () => {
    const before = (await c.get('/backends/http_response')).body;
    expectError(await send('POST', '/backends/http_response', '{"status_code":1e999}'), 400, 'ERR_STATUS_CODE_INVALID', 'status_code: number out of range');
    expectError(await send('POST', '/backends/http_response', '{"status_code":-1e999}'), 400, 'ERR_STATUS_CODE_INVALID', 'status_code: number out of range');
    expect((await c.get('/backends/http_response')).body).toEqual(before);
  });
});
