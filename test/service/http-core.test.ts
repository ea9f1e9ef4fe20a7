// Cross-cutting HTTP behaviour: auth, version, routing, body framing, the error envelope, absolute uris.
import { describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { api, expectError, serviceForFile } from '../helpers/service.ts';
import { startService } from '../../src/service/server.ts';

const { svc, c } = serviceForFile();

describe('authentication (checked before the version)', () => {
  it('401 ERR_AUTH_MISSING without an Authorization header', async () => {
    expectError(await c.raw('GET', '/ip_policies', { bare: true, headers: { 'service-version': '2' } }), 401, 'ERR_AUTH_MISSING');
    // Auth comes first: no key and no version is still the auth error.
    expectError(await c.raw('GET', '/ip_policies', { bare: true }), 401, 'ERR_AUTH_MISSING');
  });

  it('401 ERR_AUTH_NOT_BEARER for another scheme or a bare token', async () => {
    for (const authorization of [`Basic ${svc.apiKey}`, svc.apiKey, 'Bearer', 'Bearer a b']) {
      expectError(await c.raw('GET', '/ip_policies', { bare: true, headers: { authorization, 'service-version': '2' } }), 401, 'ERR_AUTH_NOT_BEARER');
    }
  });

  it('401 ERR_AUTH_INVALID_KEY for an unknown key, and the key is not echoed', async () => {
    const r = await api(svc, 'not-the-key-123').get('/ip_policies');
    expectError(r, 401, 'ERR_AUTH_INVALID_KEY');
    expect(r.text).not.toContain('not-the-key-123');
  });

  it('accepts the configured key case-insensitively in the scheme', async () => {
    const r = await c.raw('GET', '/ip_policies', { bare: true, headers: { authorization: `bearer ${svc.apiKey}`, 'service-version': '2' } });
    expect(r.status).toBe(200);
  });

  it('with no apiKeys configured, any non-empty bearer token is accepted', async () => {
    const open = await startService({ quiet: true });
    try {
      const r = await api({ url: open.url, apiKey: 'anything' }).get('/ip_policies');
      expect(r.status).toBe(200);
      expectError(await api({ url: open.url, apiKey: '' }).get('/ip_policies'), 401, 'ERR_AUTH_NOT_BEARER');
    } finally {
      await open.close();
    }
  });
});

describe('Service-Version', () => {
  it('400 ERR_VERSION_MISSING without it', async () => {
    expectError(await c.raw('GET', '/ip_policies', { bare: true, headers: { authorization: `Bearer ${svc.apiKey}` } }), 400, 'ERR_VERSION_MISSING');
  });
  it('400 ERR_VERSION_UNSUPPORTED for any value but 2', async () => {
    for (const v of ['1', '3', '', 'two', '2.0']) {
      expectError(await c.raw('GET', '/ip_policies', { headers: { 'service-version': v } }), 400, 'ERR_VERSION_UNSUPPORTED');
    }
  });
});

describe('routing', () => {
  it('404 ERR_NOT_FOUND_PATH for unknown paths', async () => {
    for (const path of ['/', '/nope', '/ip_policies/x/y', '/ip_policies/', '/IP_POLICIES', '/edges', '/ip_policies//x']) {
      expectError(await c.get(path), 404, 'ERR_NOT_FOUND_PATH');
    }
  });

  it('405 ERR_METHOD_NOT_ALLOWED with an Allow header', async () => {
    const r = await c.put('/ip_policies', {});
    expectError(r, 405, 'ERR_METHOD_NOT_ALLOWED');
    expect(String(r.headers.allow).split(', ').sort()).toEqual(['GET', 'POST']);
    const item = await c.raw('POST', '/ip_policies/ipp_x', { body: '{}', headers: { 'content-type': 'application/json' } });
    expectError(item, 405, 'ERR_METHOD_NOT_ALLOWED');
    expect(String(item.headers.allow).split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    for (const method of ['HEAD', 'OPTIONS']) {
      const r2 = await c.raw(method, '/ip_policies');
      expect(r2.status).toBe(405);
    }
  });

  it('404 with the per-resource code for an unknown id, on GET, PATCH and DELETE', async () => {
    expectError(await c.get('/ip_policies/ipp_doesnotexist'), 404, 'ERR_IP_POLICY_NOT_FOUND');
    expectError(await c.patch('/ip_policies/ipp_doesnotexist', {}), 404, 'ERR_IP_POLICY_NOT_FOUND');
    expectError(await c.del('/ip_policies/ipp_doesnotexist'), 404, 'ERR_IP_POLICY_NOT_FOUND');
    // An id of another kind is not found here either.
    const rule = await c.post('/backends/tunnel_group', {});
    expectError(await c.get(`/ip_policies/${rule.body.id}`), 404, 'ERR_IP_POLICY_NOT_FOUND');
  });

  it('percent-encoded and odd path segments never break routing', async () => {
    expectError(await c.get('/ip_policies/%E0%A4%A'), 404, 'ERR_NOT_FOUND_PATH');
    expectError(await c.get('/ip_policies/%2F..%2F'), 404, 'ERR_IP_POLICY_NOT_FOUND');
  });
});

describe('bodies', () => {
  it('415 for a body without application/json', async () => {
    expectError(await c.raw('POST', '/ip_policies', { body: '{}', headers: { 'content-type': 'text/plain' } }), 415, 'ERR_CONTENT_TYPE_UNSUPPORTED');
    expectError(await c.raw('POST', '/ip_policies', { body: '{}' }), 415, 'ERR_CONTENT_TYPE_UNSUPPORTED');
    expectError(await c.raw('PATCH', '/ip_policies/ipp_x', { body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'ERR_CONTENT_TYPE_UNSUPPORTED');
  });

  it('accepts application/json with a charset parameter', async () => {
    const r = await c.raw('POST', '/ip_policies', { body: '{"description":"cs"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(r.status).toBe(201);
  });

  it('an empty body counts as {}', async () => {
    const r = await c.raw('POST', '/ip_policies');
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['created_at', 'id', 'uri']);
  });

  it('400 for invalid JSON and for JSON that is not an object', async () => {
    for (const body of ['{', '{"a":1,}', 'nul', '\xff']) {
      expectError(await c.raw('POST', '/ip_policies', { body, headers: { 'content-type': 'application/json' } }), 400, 'ERR_BODY_INVALID_JSON');
    }
    expectError(await c.raw('POST', '/ip_policies', { body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), headers: { 'content-type': 'application/json' } }), 400, 'ERR_BODY_INVALID_JSON');
    for (const body of ['[]', 'null', '"x"', '1', 'true', '[{}]']) {
      expectError(await c.raw('POST', '/ip_policies', { body, headers: { 'content-type': 'application/json' } }), 400, 'ERR_BODY_NOT_OBJECT');
    }
  });

  it('413 for a body over 1 MiB; exactly 1 MiB is read', async () => {
    const big = JSON.stringify({ description: 'x'.repeat(1024 * 1024) });
    expectError(await c.raw('POST', '/ip_policies', { body: big, headers: { 'content-type': 'application/json' } }), 413, 'ERR_BODY_TOO_LARGE');
    const exact = JSON.stringify({ metadata: 'x'.repeat(1024 * 1024 - 15) });
    expect(Buffer.byteLength(exact)).toBe(1024 * 1024);
    expectError(await c.raw('POST', '/ip_policies', { body: exact, headers: { 'content-type': 'application/json' } }), 400, 'ERR_METADATA_TOO_LONG');
  });

  it('413 also when the body is chunked (no Content-Length)', async () => {
    const chunks = async function* () {
      yield '{"description":"';
      for (let i = 0; i < 20; i++) yield 'y'.repeat(64 * 1024);
      yield '"}';
    };
    const { request } = await import('undici');
    const res = await request(`${svc.url}/ip_policies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.apiKey}`, 'service-version': '2', 'content-type': 'application/json' },
      body: Readable.from(chunks()),
    });
    const body = (await res.body.json()) as { error_code: string };
    expect([res.statusCode, body.error_code]).toEqual([413, 'ERR_BODY_TOO_LARGE']);
  });

  it('a body on GET and DELETE is ignored', async () => {
    const r = await c.raw('GET', '/ip_policies', { body: 'not json', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(200);
  });
});

describe('connection edge cases', () => {
  it('a client that disconnects mid-body leaves the service healthy and the data unchanged', async () => {
    const before = await c.get('/ip_policies');
    const url = new URL(svc.url);
    await new Promise<void>((resolve, reject) => {
      const sock = connect(Number(url.port), url.hostname, () => {
        sock.write(`POST /ip_policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.apiKey}\r\nService-Version: 2\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"descr');
        setImmediate(() => { sock.destroy(); resolve(); });
      });
      sock.on('error', reject);
    });
    const after = await c.get('/ip_policies');
    expect(after.body).toEqual(before.body);
  });

  it('an absolute-form request target is not an endpoint', async () => {
    const url = new URL(svc.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const sock = connect(Number(url.port), url.hostname, () => {
        sock.write(`GET http://evil.example/ip_policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.apiKey}\r\nService-Version: 2\r\nConnection: close\r\n\r\n`);
      });
      let data = '';
      sock.on('data', (d) => (data += d.toString()));
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(raw).toContain('HTTP/1.1 404');
    expect(raw).toContain('"error_code":"ERR_NOT_FOUND_PATH"');
  });
});

describe('responses', () => {
  it('every response carries Service-Operation-Id; errors repeat it in details', async () => {
    const ok = await c.get('/ip_policies');
    expect(ok.headers['service-operation-id']).toMatch(/^op_[0-9A-Za-z]{27}$/);
    const a = await c.get('/nope');
    const b = await c.get('/nope');
    expect(a.body.details.operation_id).not.toBe(b.body.details.operation_id);
  });

  it('uris are absolute and follow the Host header the client used', async () => {
    const r = await c.raw('POST', '/ip_policies', { headers: { host: 'edge.example.test:8443', 'x-forwarded-proto': 'https' } });
    expect(r.status).toBe(201);
    expect(r.body.uri).toBe(`https://edge.example.test:8443/ip_policies/${r.body.id}`);
    const own = await c.get(`/ip_policies/${r.body.id}`);
    expect(own.body.uri).toBe(`${svc.url}/ip_policies/${r.body.id}`);
  });

  it('a junk Host header falls back to the listening address', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(svc.url);
      const sock = connect(Number(url.port), url.hostname, () => {
        sock.write(`GET /ip_policies HTTP/1.1\r\nHost: bad/host\r\nAuthorization: Bearer ${svc.apiKey}\r\nService-Version: 2\r\nConnection: close\r\n\r\n`);
      });
      let data = '';
      sock.on('data', (d) => (data += d.toString()));
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(raw).toContain('HTTP/1.1 200');
    expect(raw).toContain(`"uri":"${svc.url}/ip_policies"`);
  });
});
