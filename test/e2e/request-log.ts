// The service's request log, for ordering tests: a proxy in front of the test service that passes requests on
// one at a time and, after each write (POST, PATCH, PUT, DELETE) has been answered by the service and before
// the client sees the answer, calls `afterWrite`, which can read the service's state at exactly that point.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

export interface RequestLog {
  url: string;
  /** Every write, in the order the service applied it. */
  writes: LoggedRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startRequestLog(target: string, afterWrite: (write: LoggedRequest) => Promise<void>): Promise<RequestLog> {
  const writes: LoggedRequest[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((req, res) => {
    const run = async (): Promise<void> => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'service-version', 'content-type', 'idempotency-key']) {
        const v = req.headers[name];
        if (typeof v === 'string') headers[name] = v;
      }
      const method = req.method ?? 'GET';
      const answer = await request(`${target}${req.url ?? '/'}`, { method: method as 'GET', headers, body: body.length > 0 ? body : undefined });
      const text = await answer.body.text();
      if (method !== 'GET') {
        const write = { method, path: req.url ?? '/', status: answer.statusCode };
        writes.push(write);
        await afterWrite(write);
      }
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(answer.headers)) if (typeof v === 'string' && k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
      res.writeHead(answer.statusCode, out).end(text);
    };
    // One request at a time: the state read after a write is the state that write left.
    queue = queue.then(run).catch((err: unknown) => {
      res.writeHead(502).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    writes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
