// A recording proxy in front of a service child: every request edgeops sends and the answer it got, in order.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface Exchange {
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer?: unknown;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

export async function startRecorder(target: string): Promise<{ url: string; exchanges: Exchange[]; close(): Promise<void> }> {
  const exchanges: Exchange[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'service-version', 'content-type', 'accept']) {
      const v = req.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const up = await request(`${target}${req.url}`, { method: req.method as 'GET', headers, body: body || undefined });
    const text = await up.body.text();
    exchanges.push({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      body: body ? (JSON.parse(body) as unknown) : undefined,
      status: up.statusCode,
      answer: text ? (JSON.parse(text) as unknown) : undefined,
    });
    res.writeHead(up.statusCode, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
