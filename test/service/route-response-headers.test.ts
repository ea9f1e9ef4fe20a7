// Conformance of PUT/GET/DELETE /edges/https/{edge_id}/routes/{id}/response_headers over real HTTP: the
// module as returned (add names lower-cased, remove as sent, defaults {} and []), whole replacement, both PUT
// body forms, GET of an unset module (404), idempotent DELETE, header name/value validation, and the route's
// response_headers field following the module.
import { describe, expect, it } from 'vitest';
import { expectError, serviceForFile } from '../helpers/service.ts';
import { edgeSnapshot, ok, type Body } from './edge-fixtures.ts';

const { svc, c } = serviceForFile();

async function newRoute(): Promise<{ edge: string; route: Body; path: string }> {
  const edge = ok(await c.post('/edges/https', {}), 201).id as string;
  const route = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/' }), 201);
  return { edge, route, path: `/edges/https/${edge}/routes/${route.id}/response_headers` };
}

describe('response_headers module', () => {
  it('PUT returns the module, lower-casing add names; GET and the route agree', async () => {
    const { edge, route, path } = await newRoute();
    const module = ok(await c.put(path, { add: { 'X-Frame-Options': 'DENY', 'Strict-Transport-Security': 'max-age=63072000' }, remove: ['Server', 'x-powered-by'] }));
    expect(module).toStrictEqual({
      enabled: true,
      add: { 'x-frame-options': 'DENY', 'strict-transport-security': 'max-age=63072000' },
      remove: ['Server', 'x-powered-by'],
    });
    expect(ok(await c.get(path))).toStrictEqual(module);
    expect(ok(await c.get(`/edges/https/${edge}/routes/${route.id}`))).toStrictEqual({ ...route, response_headers: module });
    expect(ok(await c.get(`/edges/https/${edge}`)).routes).toStrictEqual([{ ...route, response_headers: module }]);
  });

  it('unsent add is {} and unsent remove is []', async () => {
    const { path } = await newRoute();
    expect(ok(await c.put(path, {}))).toStrictEqual({ enabled: true, add: {}, remove: [] });
    expect(ok(await c.put(path, { enabled: false, remove: ['a'] }))).toStrictEqual({ enabled: false, add: {}, remove: ['a'] });
  });

  it('PUT replaces the whole module', async () => {
    const { path } = await newRoute();
    ok(await c.put(path, { enabled: false, add: { a: '1' }, remove: ['b'] }));
    expect(ok(await c.put(path, { add: { c: '3' } }))).toStrictEqual({ enabled: true, add: { c: '3' }, remove: [] });
  });

  it('accepts the {edge_id, id, module} form of the official TypeScript client', async () => {
    const { edge, route, path } = await newRoute();
    expect(ok(await c.put(path, { edge_id: edge, id: route.id, module: { add: { A: 'b' } } }))).toStrictEqual({ enabled: true, add: { a: 'b' }, remove: [] });
    expectError(await c.put(path, { edge_id: edge, id: 'edghtsrt_other', module: {} }), 400, 'ERR_ID_MISMATCH', 'id');
    expectError(await c.put(path, { id: route.id, module: { add: { 'a b': 'c' } } }), 400, 'ERR_HEADER_NAME_INVALID', 'response_headers.add["a b"]');
  });

  it('GET of an unset module is a 404; DELETE is a 204, also when unset', async () => {
    const { edge, route, path } = await newRoute();
    expectError(await c.get(path), 404, 'ERR_MODULE_NOT_SET', 'response_headers');
    expect((await c.del(path)).status).toBe(204);
    ok(await c.put(path, { add: { a: 'b' } }));
    const del = await c.del(path);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await c.get(path), 404, 'ERR_MODULE_NOT_SET');
    expect(ok(await c.get(`/edges/https/${edge}/routes/${route.id}`))).toStrictEqual(route);
  });

  it('an unknown edge or route is a 404', async () => {
    const { edge } = await newRoute();
    expectError(await c.put(`/edges/https/${edge}/routes/edghtsrt_missing/response_headers`, {}), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    expectError(await c.get('/edges/https/edghts_missing/routes/edghtsrt_missing/response_headers'), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
    const other = await newRoute();
    expectError(await c.get(`/edges/https/${edge}/routes/${other.route.id}/response_headers`), 404, 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND');
  });

  it('keeps a header named like an Object.prototype key', async () => {
    const { path } = await newRoute();
    const module = ok(await c.put(path, JSON.parse('{"add": {"__proto__": "x", "Constructor": "y"}}')));
    expect(JSON.stringify(module.add)).toBe('{"__proto__":"x","constructor":"y"}');
  });
});

describe('response_headers validation', () => {
  it.each([
    [{ add: { 'Bad Name': 'v' } }, 'ERR_HEADER_NAME_INVALID', 'response_headers.add["Bad Name"]'],
    [{ add: { 'x:y': 'v' } }, 'ERR_HEADER_NAME_INVALID', 'response_headers.add["x:y"]'],
    [{ add: { 'é': 'v' } }, 'ERR_HEADER_NAME_INVALID', 'response_headers.add'],
    [{ add: { '': 'v' } }, 'ERR_HEADER_NAME_INVALID', 'response_headers.add'],
    [{ add: { 'X-A': 'v', 'x-a': 'w' } }, 'ERR_HEADER_DUPLICATE', 'x-a'],
    [{ add: { a: 'line\r\nInjected: 1' } }, 'ERR_HEADER_VALUE_INVALID', 'response_headers.add.a'],
    [{ add: { a: 'nul\u0000' } }, 'ERR_HEADER_VALUE_INVALID', 'response_headers.add.a'],
    [{ add: { a: 5 } }, 'ERR_FIELD_TYPE', 'response_headers.add.a'],
    [{ add: ['a'] }, 'ERR_FIELD_TYPE', 'response_headers.add'],
    [{ remove: 'Server' }, 'ERR_FIELD_TYPE', 'response_headers.remove'],
    [{ remove: [1] }, 'ERR_FIELD_TYPE', 'response_headers.remove[0]'],
    [{ remove: ['ok', 'not ok'] }, 'ERR_HEADER_NAME_INVALID', 'response_headers.remove[1]'],
    [{ remove: ['Server', 'server'] }, 'ERR_HEADER_DUPLICATE', 'response_headers.remove[1]'],
    [{ enabled: 'true' }, 'ERR_FIELD_TYPE', 'response_headers.enabled'],
    [{ add: {}, extra: 1 }, 'ERR_UNKNOWN_FIELD', 'response_headers.extra'],
  ])('PUT %j is a 400 %s naming %s, and changes nothing', async (body, code, field) => {
    const { path } = await newRoute();
    ok(await c.put(path, { add: { keep: 'me' } }));
    const before = await edgeSnapshot(c);
    expectError(await c.put(path, body), 400, code, field);
    expect(await edgeSnapshot(c)).toStrictEqual(before);
  });

  it('allows a tab inside a value and every token character in a name', async () => {
    const { path } = await newRoute();
    const name = "!#$%&'*+-.^_`|~09AZaz";
    expect(ok(await c.put(path, { add: { [name]: 'a\tb' } })).add).toStrictEqual({ [name.toLowerCase()]: 'a\tb' });
  });

  it('the same rules apply to response_headers sent with a route create or PATCH', async () => {
    const edge = ok(await c.post('/edges/https', {}), 201).id as string;
    expectError(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/', response_headers: { add: { 'A': '1', 'a': '2' } } }), 400, 'ERR_HEADER_DUPLICATE');
    const route = ok(await c.post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/' }), 201);
    expectError(await c.patch(`/edges/https/${edge}/routes/${route.id}`, { response_headers: { remove: ['a b'] } }), 400, 'ERR_HEADER_NAME_INVALID', 'response_headers.remove[0]');
    const patched = ok(await c.patch(`/edges/https/${edge}/routes/${route.id}`, { response_headers: { add: { 'X-Y': 'z' } } }));
    expect(patched.response_headers).toStrictEqual({ enabled: true, add: { 'x-y': 'z' }, remove: [] });
  });
});
