// A recording HTTP proxy in front of a test service: counts every request edgeops sends, and can rewrite JSON
// answers (to play a service that changes a value edgeops does not normalize, i.e. force a perpetual diff).
// With no target it answers 401 to everything and only counts (a service that must never be called).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface Hit {
  method: string;
  path: string;
}

/** May be async: the answer waits for it (a test can change the service's state before the client reads on). */
export type Rewrite = (hit: Hit, body: unknown) => unknown;

export interface RecordingProxy {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startProxy(target?: string, rewrite?: Rewrite): Promise<RecordingProxy> {
  const hits: Hit[] = [];
  const server = createServer(async (req, res) => {
    const hit = { method: req.method ?? 'GET', path: req.url ?? '/' };
    hits.push(hit);
    const body = await readBody(req);
    if (!target) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error_code":"ERR_TEST","msg":"no service behind this test server"}');
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'service-version', 'content-type', 'idempotency-key']) {
      const v = req.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const upstream = await request(`${target}${hit.path}`, {
      method: hit.method as 'GET',
      headers,
      body: body.length > 0 ? body : undefined,
    });
    const text = await upstream.body.text();
    let out = text;
    const type = String(upstream.headers['content-type'] ?? '');
    if (rewrite && type.includes('json') && text !== '') out = JSON.stringify(await rewrite(hit, JSON.parse(text)));
    const pass: Record<string, string> = {};
    for (const [k, v] of Object.entries(upstream.headers)) {
      if (typeof v === 'string' && !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) pass[k] = v;
    }
    res.writeHead(upstream.statusCode, pass).end(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
