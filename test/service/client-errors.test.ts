// Requests Node's HTTP parser refuses before the app sees them (an unknown method, malformed headers) get the
// service's error envelope and operation id, then the connection closes; the service keeps serving.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expectError, serviceForFile, type ApiResponse } from '../helpers/service.ts';

const { svc, c } = serviceForFile();

/** Writes `request` on a fresh connection and returns everything read until the server closes it. */
function rawExchange(request: string): Promise<string> {
  const url = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(url.port), url.hostname, () => sock.write(request));
    let data = '';
    sock.on('data', (d) => (data += d.toString('latin1')));
    sock.on('close', () => resolve(data));
    sock.on('error', reject);
  });
}

/** A raw HTTP/1.1 response as an ApiResponse (lower-cased header names, JSON body). */
function parseResponse(raw: string): ApiResponse {
  const [head = '', text = ''] = raw.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  expect(Number(headers['content-length'])).toBe(Buffer.byteLength(text));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(text), text };
}

const auth = () => `Authorization: Bearer ${svc.apiKey}\r\nService-Version: 2\r\n`;

describe('requests the HTTP parser refuses', () => {
  it('an unknown method (curl -X BREW) is a 405 ERR_METHOD_NOT_ALLOWED envelope naming it, with Allow', async () => {
    const raw = await rawExchange(`BREW /ip_policies HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`);
    expect(raw.startsWith('HTTP/1.1 405 Method Not Allowed\r\n'), raw).toBe(true);
    const r = parseResponse(raw);
    expectError(r, 405, 'ERR_METHOD_NOT_ALLOWED', 'BREW is not a method this service serves');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers.connection).toBe('close');
    expect(String(r.headers.allow).split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
  });

  it('also through an HTTP client, and after a request served on the same connection', async () => {
    expectError(await c.raw('BREW', '/ip_policies'), 405, 'ERR_METHOD_NOT_ALLOWED', 'BREW');
    // Pipelined after a served request: the refused one is still named.
    const url = new URL(svc.url);
    const two = await new Promise<string>((resolve, reject) => {
      const sock = connect(Number(url.port), url.hostname, () => sock.write(`GET /ip_policies HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`));
      let data = '';
      sock.on('data', (d) => {
        data += d.toString('latin1');
        if (data.includes('"ip_policies"') && !data.includes('BREW')) sock.write(`BREW / HTTP/1.1\r\nHost: x\r\n\r\n`);
      });
      sock.on('close', () => resolve(data));
      sock.on('error', reject);
    });
    expect(two).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*HTTP\/1\.1 405 Method Not Allowed[\s\S]*"msg":"BREW is not a method/);
  });

  it('CONNECT (which Node hands past the app) is the same 405 envelope with Allow, and the service keeps serving', async () => {
    const raw = await rawExchange(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n${auth()}\r\n`);
    expect(raw.startsWith('HTTP/1.1 405 Method Not Allowed\r\n'), raw).toBe(true);
    const r = parseResponse(raw);
    expectError(r, 405, 'ERR_METHOD_NOT_ALLOWED', 'CONNECT is not a method this service serves');
    expect(r.headers.connection).toBe('close');
    expect(String(r.headers.allow).split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
    // Methods the parser knows and the routes do not serve reach the router: 405 with the path's Allow.
    for (const method of ['TRACE', 'PROPFIND']) {
      const other = await c.raw(method, '/ip_policies');
      expectError(other, 405, 'ERR_METHOD_NOT_ALLOWED', `${method} is not allowed on /ip_policies`);
      expect(String(other.headers.allow).split(', ').sort()).toEqual(['GET', 'POST']);
    }
    expect((await c.get('/ip_policies')).status).toBe(200);
  });

  it('a malformed header is a 400 envelope (ERR_REQUEST_MALFORMED) and changes nothing', async () => {
    const before = (await c.get('/ip_policies')).body;
    const raw = await rawExchange(`POST /ip_policies HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n${auth()}Content-Length: 2\r\n\r\n{}`);
    const r = parseResponse(raw);
    expectError(r, 400, 'ERR_REQUEST_MALFORMED', 'the request could not be parsed (HPE_INVALID_HEADER_TOKEN)');
    const chunked = parseResponse(await rawExchange(`POST /ip_policies HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`));
    expectError(chunked, 400, 'ERR_REQUEST_MALFORMED');
    expect((await c.get('/ip_policies')).body).toEqual(before);
  });
});
