// The request each hook sends, recorded by a plain in-memory Api (the end-to-end behaviour against the real
// service is in roundtrip.test.ts).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import { kindByName } from '../../src/kinds/index.ts';
import type { Api, FetchContext, LiveItem, Obj, ResourceKind } from '../../src/kinds/resource-kind.ts';

interface Call {
  method: string;
  path: string;
  body?: Obj;
}

/** Records calls; answers GETs and lists from `pages`, POST/PUT with `{id: 'new_1', ...body}`. */
function recorder(pages: Record<string, Obj> = {}, failDeletes = new Set<string>()) {
  const calls: Call[] = [];
  const api: Api = {
    get: async (path) => (calls.push({ method: 'GET', path }), pages[path] ?? {}),
    post: async (path, body) => (calls.push({ method: 'POST', path, body }), { id: 'new_1', ...body }),
    patch: async (path, body) => (calls.push({ method: 'PATCH', path, body }), body),
    put: async (path, body) => (calls.push({ method: 'PUT', path, body }), body),
    delete: async (path) => {
      calls.push({ method: 'DELETE', path });
      if (failDeletes.has(path)) {
        throw new ApiError({ status: 404, errorCode: 'ERR_X_NOT_FOUND', message: 'gone', operation: `DELETE ${path}` });
      }
    },
    list: async (path, key) => (calls.push({ method: 'LIST', path }), (pages[path]?.[key] as Obj[]) ?? []),
  };
  const ctx: FetchContext = { api, listOnce: (path, key) => api.list(path, key) };
  return { api, ctx, calls };
}

const k = (name: string): ResourceKind => kindByName(name)!;
const live = (id: string, raw: Obj): LiveItem => ({ id, raw: { id, ...raw } });

describe('standard CRUD hooks', () => {
  it('create POSTs the body to the collection and returns the new id', async () => {
    const { api, calls } = recorder();
    const item = await k('IPPolicy').create(api, { description: 'x' });
    expect(calls).toEqual([{ method: 'POST', path: '/ip_policies', body: { description: 'x' } }]);
    expect(item.id).toBe('new_1');
  });

  it('update PATCHes changed fields and clears fields no longer desired', async () => {
    const { api, calls } = recorder();
    const rule = live('ipr_1', { description: 'old', cidr: '10.0.0.0/8', action: 'allow', ip_policy: { id: 'ipp_1' } });
    await k('IPPolicyRule').update(api, rule, { cidr: '10.1.0.0/16' }, { cidr: '10.1.0.0/16', action: 'allow', ip_policy_id: 'ipp_1' });
    expect(calls).toEqual([{ method: 'PATCH', path: '/ip_policy_rules/ipr_1', body: { cidr: '10.1.0.0/16', description: '' } }]);
  });

  it('update never sends immutable or write-only fields, nor an empty PATCH', async () => {
    const { api, calls } = recorder();
    const cert = live('cert_1', { certificate_pem: 'A' });
    await k('TLSCertificate').update(api, cert, { certificate_pem: 'B' }, { certificate_pem: 'B', private_key_pem: 'K' });
    expect(calls).toEqual([]);
  });

  it('update of an edge leaves modules to module hooks and clears removed hostports', async () => {
    const { api, calls } = recorder();
    const edge = live('edgtcp_1', { hostports: ['a:1'], backend: { enabled: true, backend: { id: 'bkdtg_1' } } });
    await k('TCPEdge').update(api, edge, { description: 'd' }, { description: 'd' });
    expect(calls).toEqual([{ method: 'PATCH', path: '/edges/tcp/edgtcp_1', body: { description: 'd', hostports: [] } }]);
  });

  it('module hooks PUT and DELETE the module endpoint', async () => {
    const { api, calls } = recorder();
    const edge = live('edgtls_1', {});
    await k('TLSEdge').putModule!(api, edge, 'mutual_tls', { enabled: true, certificate_authority_ids: ['ca_1'] });
    await k('TLSEdge').deleteModule!(api, edge, 'policy');
    expect(calls).toEqual([
      { method: 'PUT', path: '/edges/tls/edgtls_1/mutual_tls', body: { enabled: true, certificate_authority_ids: ['ca_1'] } },
      { method: 'DELETE', path: '/edges/tls/edgtls_1/policy' },
    ]);
  });

  it('delete treats an already deleted resource as done', async () => {
    const { api, calls } = recorder({}, new Set(['/backends/tunnel_group/bkdtg_1']));
    await k('TunnelGroupBackend').delete(api, live('bkdtg_1', {}));
    expect(calls).toEqual([{ method: 'DELETE', path: '/backends/tunnel_group/bkdtg_1' }]);
  });

  it('fetch lists the collection under its list key', async () => {
    const { ctx } = recorder({ '/backends/http_response': { backends: [{ id: 'bkdhr_1', body: 'x' }] } });
    expect(await k('HTTPResponseBackend').fetch(ctx)).toEqual([{ id: 'bkdhr_1', raw: { id: 'bkdhr_1', body: 'x' } }]);
  });
});

const EDGES: Record<string, Obj> = {
  '/edges/https': {
    https_edges: [
      {
        id: 'edghts_1',
        routes: [
          { id: 'edghtsrt_1', edge_id: 'edghts_1', match: '/', response_headers: null },
          { id: 'edghtsrt_2', match: '/a', response_headers: { enabled: true, add: { 'x-a': '1' }, remove: [] } },
        ],
      },
      { id: 'edghts_2', routes: [] },
    ],
  },
};

describe('HTTPS edge routes', () => {
  it('are fetched from the HTTPS edges list, each with its edge_id', async () => {
    const { ctx } = recorder(EDGES);
    const routes = await k('HTTPSEdgeRoute').fetch(ctx);
    expect(routes.map((r) => [r.id, r.raw.edge_id])).toEqual([
      ['edghtsrt_1', 'edghts_1'],
      ['edghtsrt_2', 'edghts_1'],
    ]);
  });

  it('are created under their edge without edge_id in the body, and updated and deleted there', async () => {
    const { api, calls } = recorder();
    const item = await k('HTTPSEdgeRoute').create(api, { edge_id: 'edghts_1', match_type: 'exact_path', match: '/' });
    expect(item.raw.edge_id).toBe('edghts_1');
    await k('HTTPSEdgeRoute').update(api, item, { match: '/x' }, { edge_id: 'edghts_1', match_type: 'exact_path', match: '/x' });
    await k('HTTPSEdgeRoute').deleteModule!(api, item, 'backend');
    await k('HTTPSEdgeRoute').delete(api, item);
    expect(calls).toEqual([
      { method: 'POST', path: '/edges/https/edghts_1/routes', body: { match_type: 'exact_path', match: '/' } },
      { method: 'PATCH', path: '/edges/https/edghts_1/routes/new_1', body: { match: '/x' } },
      { method: 'DELETE', path: '/edges/https/edghts_1/routes/new_1/backend' },
      { method: 'DELETE', path: '/edges/https/edghts_1/routes/new_1' },
    ]);
  });
});

describe('RouteResponseHeaders', () => {
  it('has a live item only for routes whose module is set, keyed edge/route', async () => {
    const { ctx } = recorder(EDGES);
    const items = await k('RouteResponseHeaders').fetch(ctx);
    expect(items).toEqual([
      {
        id: 'edghts_1/edghtsrt_2',
        raw: { enabled: true, add: { 'x-a': '1' }, remove: [], edge_id: 'edghts_1', route_id: 'edghtsrt_2' },
      },
    ]);
  });

  it('create and update PUT the whole module; delete DELETEs it', async () => {
    const { api, calls } = recorder();
    const kind = k('RouteResponseHeaders');
    const body = { edge_id: 'edghts_1', route_id: 'edghtsrt_1', enabled: true, add: { 'x-a': '1' }, remove: [] };
    const item = await kind.create(api, body);
    expect(item.id).toBe('edghts_1/edghtsrt_1');
    await kind.update(api, item, { remove: ['server'] }, { ...body, remove: ['server'] });
    await kind.delete(api, item);
    const path = '/edges/https/edghts_1/routes/edghtsrt_1/response_headers';
    expect(calls).toEqual([
      { method: 'PUT', path, body: { enabled: true, add: { 'x-a': '1' }, remove: [] } },
      { method: 'PUT', path, body: { enabled: true, add: { 'x-a': '1' }, remove: ['server'] } },
      { method: 'DELETE', path },
    ]);
  });
});

describe('EventSources', () => {
  const SUBS: Record<string, Obj> = {
    '/event_subscriptions': {
      event_subscriptions: [
        { id: 'esb_1', sources: [{ type: 'b.v0', uri: 'u' }, { type: 'a.v0', uri: 'u' }] },
        { id: 'esb_2', sources: [] },
      ],
    },
    '/event_subscriptions/esb_1/sources': { sources: [{ type: 'a.v0' }, { type: 'b.v0' }], uri: 'u' },
  };

  it('has a live item per subscription with sources, its types as a sorted set', async () => {
    const { ctx } = recorder(SUBS);
    expect(await k('EventSources').fetch(ctx)).toEqual([
      { id: 'esb_1', raw: { subscription_id: 'esb_1', types: ['a.v0', 'b.v0'] } },
    ]);
  });

  it('update POSTs each missing type and DELETEs each extra one, from the current set', async () => {
    const { api, calls } = recorder(SUBS);
    const item = live('esb_1', { subscription_id: 'esb_1', types: ['a.v0', 'b.v0'] });
    await k('EventSources').update(api, item, { types: ['b.v0', 'c.v0'] }, { subscription_id: 'esb_1', types: ['b.v0', 'c.v0'] });
    expect(calls).toEqual([
      { method: 'GET', path: '/event_subscriptions/esb_1/sources' },
      { method: 'POST', path: '/event_subscriptions/esb_1/sources', body: { type: 'c.v0' } },
      { method: 'DELETE', path: '/event_subscriptions/esb_1/sources/a.v0' },
    ]);
  });

  /**
   * Sources of esb_1 in memory behind an Api that, like the real client's retryPostIf views, repeats a POST
   * that failed ambiguously only when the view's check says it did not land. `script` says what each POST
   * attempt of a type meets: `ok`; `drop` (lands, the answer is lost); `fail` (502, nothing lands); `late`
   * (times out, and lands just after the check looked); `taken` (someone else added the type just before).
   */
  function sourcesService(script: Record<string, ('ok' | 'drop' | 'fail' | 'late' | 'taken')[]>) {
    const PATH = '/event_subscriptions/esb_1/sources';
    const types = new Set<string>();
    const calls: string[] = [];
    let late: string | undefined;
    const fail = (status: number, errorCode: string, operation: string) => new ApiError({ status, errorCode, message: errorCode, operation });
    const typeOf = (path: string) => decodeURIComponent(path.slice(PATH.length + 1));
    const base: Api = {
      get: async (path): Promise<Obj> => {
        calls.push(`GET ${path}`);
        if (path === PATH) return { sources: [...types].map((type) => ({ type })) };
        const type = typeOf(path);
        const found = types.has(type);
        if (late === type) (types.add(type), (late = undefined));
        if (!found) throw fail(404, 'ERR_EVENT_SOURCE_NOT_FOUND', `GET ${path}`);
        return { type };
      },
      post: async (path, body) => {
        const type = String(body.type);
        const step = script[type]?.shift() ?? 'ok';
        if (step === 'taken') types.add(type);
        const outcome = types.has(type) ? '409' : { ok: '201', drop: 'reset', fail: '502', late: 'timeout' }[step as 'ok'];
        calls.push(`POST ${type} ${outcome}`);
        if (outcome === '409') throw fail(409, 'ERR_EVENT_SOURCE_EXISTS', `POST ${path}`);
        if (outcome === '502') throw fail(502, 'ERR_BAD_GATEWAY', `POST ${path}`);
        if (outcome === 'timeout') {
          late = type;
          throw fail(0, 'UND_ERR_HEADERS_TIMEOUT', `POST ${path}`);
        }
        types.add(type);
        if (outcome === 'reset') throw fail(0, 'ECONNRESET', `POST ${path}`);
        return { type };
      },
      patch: async () => ({}),
      put: async () => ({}),
      delete: async (path) => void types.delete(typeOf(path)),
      list: async () => [],
    };
    type View = Api & { retryPostIf(check: () => Promise<boolean>): View };
    const viewOf = (check?: () => Promise<boolean>): View => ({
      ...base,
      async post(path, body) {
        for (;;) {
          try {
            return await base.post(path, body);
          } catch (e) {
            if (!(e instanceof ApiError) || !(e.status === 0 || e.status >= 500) || !check || !(await check())) throw e;
          }
        }
      },
      retryPostIf: (c) => viewOf(c),
    });
    return { api: viewOf(), types, calls };
  }

  it('retries a failed POST once a GET shows it did not land, and counts a dropped one that landed as done', async () => {
    const svc = sourcesService({ 'a.v0': ['fail', 'ok'], 'b.v0': ['drop'] });
    await k('EventSources').create(svc.api, { subscription_id: 'esb_1', types: ['a.v0', 'b.v0'] });
    expect([...svc.types].sort()).toEqual(['a.v0', 'b.v0']);
    expect(svc.calls).toEqual([
      'GET /event_subscriptions/esb_1/sources',
      'POST a.v0 502', 'GET /event_subscriptions/esb_1/sources/a.v0', 'POST a.v0 201',
      'POST b.v0 reset', 'GET /event_subscriptions/esb_1/sources/b.v0',
    ]);
  });

  it('counts a 409 to a retried POST as done once a GET shows the source', async () => {
    const svc = sourcesService({ 'a.v0': ['late', 'ok'] });
    await k('EventSources').update(svc.api, live('esb_1', {}), {}, { subscription_id: 'esb_1', types: ['a.v0'] });
    expect([...svc.types]).toEqual(['a.v0']);
    expect(svc.calls).toEqual([
      'GET /event_subscriptions/esb_1/sources',
      'POST a.v0 timeout', 'GET /event_subscriptions/esb_1/sources/a.v0', 'POST a.v0 409', 'GET /event_subscriptions/esb_1/sources/a.v0',
    ]);
  });

  it('lets a 409 to a first POST through: another writer added the type, which is not ours to hide', async () => {
    const svc = sourcesService({ 'a.v0': ['taken'] });
    const failure = k('EventSources').create(svc.api, { subscription_id: 'esb_1', types: ['a.v0'] });
    await expect(failure).rejects.toMatchObject({ status: 409, errorCode: 'ERR_EVENT_SOURCE_EXISTS' });
    expect(svc.calls).toEqual(['GET /event_subscriptions/esb_1/sources', 'POST a.v0 409']);
  });

  it('delete DELETEs every type', async () => {
    const { api, calls } = recorder();
    await k('EventSources').delete(api, live('esb_1', { subscription_id: 'esb_1', types: ['a.v0', 'b.v0'] }));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'DELETE /event_subscriptions/esb_1/sources/a.v0',
      'DELETE /event_subscriptions/esb_1/sources/b.v0',
    ]);
  });
});
