// Fault injection, observed over HTTP against the real service: injected 5xx and 429 change nothing, "commit
// then drop" commits and answers nothing, latency delays only the faulted methods, a seed reproduces a run,
// and the --faults grammar rejects every malformed spec with a message naming the bad part.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { api, expectError, startTestService, type TestService } from '../helpers/service.ts';
import { startService } from '../../src/service/server.ts';
import { createFaultInjector, FaultSpecError, parseFaultSpec, type FaultSpec } from '../../src/service/faults.ts';

const running: TestService[] = [];
async function service(faults: FaultSpec | string): Promise<TestService> {
  const svc = await startTestService({ faults });
  running.push(svc);
  return svc;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** One request on its own connection; a dropped connection is the outcome 'drop' rather than an exception. */
async function outcome(svc: TestService, method: string, path: string, body?: unknown): Promise<string> {
  try {
    const res = await request(`${svc.url}${path}`, {
      method: method as 'GET',
      headers: { authorization: `Bearer ${svc.apiKey}`, 'service-version': '2', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      reset: true,
    });
    const text = await res.body.text();
    return res.statusCode >= 400 ? `${res.statusCode} ${JSON.parse(text).error_code}` : String(res.statusCode);
  } catch (err) {
    expect((err as { code?: string }).code, String(err)).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
    return 'drop';
  }
}

describe('injected 5xx', () => {
  it('answers the configured statuses with the error envelope before the handler runs, so nothing changes', async () => {
    const svc = await service({ errorRate: 1, statuses: [500, 502, 503, 504], methods: ['POST', 'PATCH', 'PUT', 'DELETE'], seed: 1 });
    const c = api(svc);
    // GET is not a faulted method here.
    expect((await c.get('/ip_policies')).status).toBe(200);

    const seen = new Map<number, string>();
    for (let i = 0; i < 40; i++) {
      const r = await c.post('/ip_policies', { description: `try ${i}` });
      seen.set(r.status, r.body.error_code);
      expect(r.body.msg).toContain('injected fault');
      expectError(r, r.status, r.body.error_code);
    }
    expect(Object.fromEntries(seen)).toEqual({
      500: 'ERR_FAULT_INTERNAL', 502: 'ERR_FAULT_BAD_GATEWAY', 503: 'ERR_FAULT_UNAVAILABLE', 504: 'ERR_FAULT_GATEWAY_TIMEOUT',
    });
    expect(await c.listAll('/ip_policies', 'ip_policies')).toEqual([]);
  });

  it('leaves an existing resource unchanged on PATCH, PUT and DELETE', async () => {
    // Every write but the setup POSTs faults (per-method overrides).
    const svc = await service('error=1,POST.error=0,GET.error=0');
    const c = api(svc);
    const backend = await c.post('/backends/http_response', { body: 'ok', status_code: 200 });
    expect(backend.status).toBe(201);
    const edge = await c.post('/edges/tcp', { description: 'before', metadata: 'm' });
    expect(edge.status).toBe(201);
    const before = (await c.get(`/edges/tcp/${edge.body.id}`)).body;

    expect((await c.patch(`/edges/tcp/${edge.body.id}`, { description: 'after' })).status).toBeGreaterThanOrEqual(500);
    expect((await c.put(`/edges/tcp/${edge.body.id}/backend`, { backend_id: backend.body.id })).status).toBeGreaterThanOrEqual(500);
    expect((await c.del(`/edges/tcp/${edge.body.id}`)).status).toBeGreaterThanOrEqual(500);
    expect((await c.del(`/backends/http_response/${backend.body.id}`)).status).toBeGreaterThanOrEqual(500);

    expect((await c.get(`/edges/tcp/${edge.body.id}`)).body).toEqual(before);
    expect((await c.get(`/backends/http_response/${backend.body.id}`)).status).toBe(200);
  });
});

describe('injected 429', () => {
  it('answers ERR_RATE_LIMITED with the configured Retry-After and creates nothing', async () => {
    const svc = await service({ rate429: 1, retryAfterSeconds: 3, methods: ['POST'] });
    const c = api(svc);
    const r = await c.post('/ip_policies', { description: 'x' });
    expectError(r, 429, 'ERR_RATE_LIMITED', 'injected fault');
    expect(r.headers['retry-after']).toBe('3');
    expect(await c.listAll('/ip_policies', 'ip_policies')).toEqual([]);
  });
});

describe('commit then drop', () => {
  it('a dropped POST got no response but really created the resource', async () => {
    const svc = await service({ dropRate: 1, methods: ['POST'] });
    expect(await outcome(svc, 'POST', '/ip_policies', { description: 'landed' })).toBe('drop');
    const items = await api(svc).listAll('/ip_policies', 'ip_policies');
    expect(items).toEqual([expect.objectContaining({ description: 'landed' })]);
  });

  it('a dropped PATCH landed; a request the handler refuses is answered normally, not dropped', async () => {
    const svc = await service({ dropRate: 1, methods: ['PATCH'] });
    const c = api(svc);
    const p = await c.post('/ip_policies', { description: 'old' });
    expect(await outcome(svc, 'PATCH', `/ip_policies/${p.body.id}`, { description: 'new' })).toBe('drop');
    expect((await c.get(`/ip_policies/${p.body.id}`)).body.description).toBe('new');
    // Nothing committed, so nothing to drop: the client gets its 400.
    expectError(await c.patch(`/ip_policies/${p.body.id}`, { bogus: 1 }), 400, 'ERR_UNKNOWN_FIELD');
  });
});

describe('latency', () => {
  it('delays the faulted method only', async () => {
    const svc = await service({ byMethod: { GET: { latencyMs: 400 } } });
    const c = api(svc);
    const order: string[] = [];
    const started = performance.now();
    const slow = c.get('/ip_policies').then((r) => order.push(`GET ${r.status}`));
    const fast = c.post('/ip_policies', {}).then((r) => order.push(`POST ${r.status}`));
    await Promise.all([slow, fast]);
    expect(order).toEqual(['POST 201', 'GET 200']);
    // A lower bound only (a timer never fires early by more than a millisecond or so).
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });
});

describe('seed', () => {
  const spec = 'error=0.25,status=500|503,rate429=0.2,retryAfter=0,drop=0.2,seed=';
  async function run(seed: number): Promise<string[]> {
    const svc = await service(`${spec}${seed}`);
    const out: string[] = [];
    for (let i = 0; i < 40; i++) out.push(await outcome(svc, 'GET', '/ip_policies'));
    return out;
  }

  it('the same seed and requests give the same faults; another seed other faults', async () => {
    const a = await run(42);
    expect(await run(42)).toEqual(a);
    expect(new Set(a)).toEqual(new Set(['200', '500 ERR_FAULT_INTERNAL', '503 ERR_FAULT_UNAVAILABLE', '429 ERR_RATE_LIMITED', 'drop']));
    expect(await run(43)).not.toEqual(a);
  });
});

describe('off by default', () => {
  it('no spec, or a spec that injects nothing, makes no injector at all', () => {
    expect(createFaultInjector({})).toBeUndefined();
    expect(createFaultInjector({ errorRate: 0, latencyMs: 0, seed: 3, methods: ['GET'] })).toBeUndefined();
    expect(createFaultInjector({ latencyMs: 10 })).toBeDefined();
  });
});

describe('parseFaultSpec', () => {
  it('reads every key, lists, and per-method overrides', () => {
    expect(parseFaultSpec('error=0.2,status=500|502|503,rate429=0.05,retryAfter=1,latency=10,drop=0.05,methods=POST|PATCH|PUT|DELETE,seed=42')).toEqual({
      errorRate: 0.2, statuses: [500, 502, 503], rate429: 0.05, retryAfterSeconds: 1, latencyMs: 10, dropRate: 0.05,
      methods: ['POST', 'PATCH', 'PUT', 'DELETE'], seed: 42,
    });
    expect(parseFaultSpec(' drop=0.5 , get.latency=5, GET.error=.5,DELETE.status=504 ')).toEqual({
      dropRate: 0.5, byMethod: { GET: { latencyMs: 5, errorRate: 0.5 }, DELETE: { statuses: [504] } },
    });
  });

  it.each([
    ['', 'empty fault spec'],
    ['error', 'is not KEY=VALUE'],
    ['error=1.5', 'errorRate must be a probability from 0 to 1, got 1.5'],
    ['error=2', 'error: "2" is not a probability from 0 to 1'],
    ['error=-0.1', 'error: "-0.1" is not a probability'],
    ['drop=half', 'drop: "half" is not a probability'],
    ['error=0.6,drop=0.5', 'GET: error + rate429 + drop is 1.1, more than 1'],
    ['POST.rate429=0.7,error=0.4', 'POST: error + rate429 + drop is 1.1'],
    ['status=404', 'statuses: 404 is not one of 500, 502, 503, 504'],
    ['status=500|', 'status: "" is not a whole number'],
    ['latency=1.5', 'latency: "1.5" is not a whole number'],
    ['latency=70000', 'latencyMs must be an integer from 0 to 60000'],
    ['retryAfter=5000', 'retryAfterSeconds must be an integer from 0 to 3600'],
    ['methods=GET|HEAD', 'methods: "HEAD" is not one of GET, POST, PATCH, PUT, DELETE'],
    ['OPTIONS.error=0.1', 'OPTIONS.error: "OPTIONS" is not one of'],
    ['POST.methods=GET', 'POST.methods: unknown key'],
    ['POST.seed=1', 'methods and seed take no METHOD. prefix'],
    ['seed=99999999999', 'seed: "99999999999" is not a whole number'],
    ['seed=4294967296', 'seed must be an integer from 0 to 4294967295'],
    ['error=0.1,error=0.2', 'error is given twice'],
    ['bogus=1', 'bogus: unknown key; expected error, status, rate429, retryAfter, latency, drop, methods, seed'],
  ])('%j -> FaultSpecError %j', (text, message) => {
    expect(() => parseFaultSpec(text)).toThrow(FaultSpecError);
    expect(() => parseFaultSpec(text)).toThrow(message);
  });

  it('startService checks a spec given as an object or as text before it listens', async () => {
    await expect(startService({ faults: { errorRate: 1.5 } })).rejects.toThrow('errorRate must be a probability from 0 to 1, got 1.5');
    await expect(startService({ faults: { byMethod: { HEAD: {} } } })).rejects.toThrow('byMethod: HEAD is not one of');
    await expect(startService({ faults: 'drop=2' })).rejects.toThrow(FaultSpecError);
    await expect(startService({ faults: 42 })).rejects.toThrow('faults must be an object');
  });
});
