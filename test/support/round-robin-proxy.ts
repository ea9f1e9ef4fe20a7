// A round-robin HTTP proxy in front of N service instances, as a load balancer without health checks would be:
// each request goes to the next upstream in turn, bodies are streamed both ways, headers are passed through
// (hop-by-hop ones dropped, Host rewritten to the upstream's). When the upstream cannot be reached or drops the
// connection before answering (refused, reset: an instance killed), the proxy answers 502 with the service's
// error shape `{"error_code":"ERR_PROXY_UPSTREAM","status_code":502,"msg":"..."}`, which the reconciler's client
// retries. The proxy never retries a request itself: a POST that reached a dying instance may have committed,
// and only the client can tell (by its landed check). A failure after the answer started cuts the client's
// connection (the client sees a reset, as it would behind a real proxy).
//
// By default the rotation is strict: a dead upstream keeps getting every Nth request (each answered 502). With
// `ejectMs`, an upstream whose connection failed is left out of the rotation that long, then tried again (a
// passive health check, as nginx's default max_fails=1 fail_timeout=10s does); the failed request itself is
// still answered 502, never sent elsewhere.
//
// The one proxy of the tests and the benchmarks: besides the multi-instance tests (test/scale/) and the
// service-scale benchmark, it records what a client sends (startProxy: every request, and JSON answers rewritten
// to play a service that changes a value), logs the service's writes in the order it applied them (startRequestLog:
// one request at a time, a hook after each write), and with no upstream answers 401 to everything (a service that
// must never be called).
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy handled it, reported once its answer is finished (or cut off). */
export interface ProxyExchange {
  /** Index into the upstream list. */
  upstream: number;
  method: string;
  /** Path and query as the client sent it. */
  path: string;
  /** The status the client was answered with (502 when the upstream failed before answering); 0: cut off mid-answer. */
  status: number;
  /** The upstream failure (an errno such as ECONNREFUSED), when there was one. */
  error?: string;
  /** performance.now() when the request arrived and when its answer ended. */
  start: number;
  end: number;
}

export interface RoundRobinProxy {
  /** e.g. http://127.0.0.1:40123, no trailing slash. */
  url: string;
  /** Requests sent to each upstream so far (live counters, one per upstream). */
  hits: number[];
  /** Every request as it arrived, in order (a test may empty it). */
  requests: Hit[];
  close(): Promise<void>;
}

export interface RoundRobinOptions {
  /** Called for every finished exchange (tests use it to count writes or to time requests). */
  onExchange?: (exchange: ProxyExchange) => void;
  /**
   * Leave an upstream out of the rotation for this long after a request to it failed before an answer (refused,
   * reset); 0 (the default): strict round robin. When every upstream is out, the rotation goes on over all.
   */
  ejectMs?: number;
  /**
   * Asked as each request arrives: a promise holds the request back (its body unread) until it settles, then it
   * is forwarded as usual. Tests use it to keep one client at a chosen point while another catches up.
   */
  hold?: (method: string, path: string) => Promise<unknown> | undefined;
  /**
   * Asked with each request's whole body: an answer the proxy gives itself, never forwarding the request (a
   * gateway that timed out before the upstream saw it); undefined forwards it. Set, it buffers every body.
   */
  answer?: (method: string, path: string, body: string) => { status: number; body: string } | undefined;
  /**
   * Rewrites a JSON answer before the client reads it (it may be async: the answer waits). The answer is then
   * read whole and sent with its new length.
   */
  rewrite?: Rewrite;
  /**
   * Called after each write (any method but GET) has been answered by the upstream and before the client reads
   * the answer; requests then go through one at a time, so the state it reads is the state that write left.
   */
  afterWrite?: (write: LoggedRequest) => Promise<void>;
}

/** A request as it arrived. */
export interface Hit {
  method: string;
  path: string;
}

export type Rewrite = (hit: Hit, body: unknown) => unknown;

export interface LoggedRequest extends Hit {
  status: number;
}

/** Hop-by-hop headers (RFC 9110 7.6.1) and the ones the proxy sets itself: never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);

function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  // Headers named in Connection are hop-by-hop too.
  const named = new Set(String(headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean));
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

function upstreamError(res: ServerResponse, upstream: string, err: NodeJS.ErrnoException): void {
  const body = JSON.stringify({
    error_code: 'ERR_PROXY_UPSTREAM',
    status_code: 502,
    msg: `the upstream ${upstream} failed before answering (${err.code ?? err.message})`,
  });
  res.writeHead(502, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const NO_SERVICE = '{"error_code":"ERR_TEST","msg":"no service behind this test server"}';

/** Answers 401 to everything once the request is read: no upstream (`upstreams` empty). */
function refuse(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => res.writeHead(401, { 'content-type': 'application/json' }).end(NO_SERVICE));
}

export async function startRoundRobinProxy(upstreams: string[], opts: RoundRobinOptions = {}): Promise<RoundRobinProxy> {
  const targets = upstreams.map((u) => {
    const url = new URL(u);
    if (url.protocol !== 'http:') throw new Error(`startRoundRobinProxy: only http:// upstreams, got ${u}`);
    return { url, host: url.host, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) };
  });
  const hits = upstreams.map(() => 0);
  const ejectedUntil = upstreams.map(() => 0);
  const ejectMs = opts.ejectMs ?? 0;
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });
  let next = 0;
  /** The next upstream in turn, skipping ejected ones unless all are. */
  const pick = (): number => {
    const now = performance.now();
    for (let k = 0; k < targets.length; k++) {
      const i = (next + k) % targets.length;
      if (ejectedUntil[i]! <= now) {
        next = (i + 1) % targets.length;
        return i;
      }
    }
    const i = next;
    next = (next + 1) % targets.length;
    return i;
  };

  const requests: Hit[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/' });
    if (targets.length === 0) return refuse(req, res);
    if (opts.afterWrite) {
      queue = queue.then(() => new Promise<void>((done) => {
        res.on('close', () => done());
        forward(req, res);
      }));
      return;
    }
    const held = opts.hold?.(req.method ?? 'GET', req.url ?? '/');
    const go = opts.answer ? () => void answerOrForward(req, res) : () => forward(req, res);
    if (held === undefined) go();
    else void held.then(go, go);
  };

  const answerOrForward = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const own = opts.answer!(req.method ?? 'GET', req.url ?? '/', body.toString('utf8'));
    if (!own) return forward(req, res, body);
    res.writeHead(own.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(own.body) });
    res.end(own.body);
  };

  /** `body`: the request's body when already read (answer), else it is streamed. */
  const forward = (req: IncomingMessage, res: ServerResponse, body?: Buffer): void => {
    const index = pick();
    hits[index]! += 1;
    const target = targets[index]!;
    const start = performance.now();
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    let reported = false;
    const report = (status: number, error?: string): void => {
      if (reported) return;
      reported = true;
      opts.onExchange?.({ upstream: index, method, path, status, ...(error !== undefined ? { error } : {}), start, end: performance.now() });
    };

    const headers = forwardable(req.headers);
    headers.host = target.host;
    const outgoing = httpRequest({ agent, hostname: target.hostname, port: target.port, method, path, headers });
    let answered = false;
    outgoing.on('response', (upstreamRes) => {
      answered = true;
      const status = upstreamRes.statusCode ?? 502;
      const json = String(upstreamRes.headers['content-type'] ?? '').includes('json');
      const afterWrite = method !== 'GET' ? opts.afterWrite : undefined;
      if ((opts.rewrite && json) || afterWrite) {
        // Read whole: a hook runs before the client reads, or the body changes (and with it its length).
        const chunks: Buffer[] = [];
        upstreamRes.on('data', (chunk: Buffer) => chunks.push(chunk));
        upstreamRes.on('end', () => {
          void (async () => {
            let body = Buffer.concat(chunks).toString('utf8');
            await afterWrite?.({ method, path, status });
            if (opts.rewrite && json && body !== '') body = JSON.stringify(await opts.rewrite({ method, path }, JSON.parse(body)));
            const headers = forwardable(upstreamRes.headers);
            delete headers['content-length'];
            res.writeHead(status, upstreamRes.statusMessage, { ...headers, 'content-length': Buffer.byteLength(body) }).end(body);
          })().catch((err: unknown) => res.headersSent ? res.destroy() : res.writeHead(502).end(String(err)));
        });
      } else {
        res.writeHead(status, upstreamRes.statusMessage, forwardable(upstreamRes.headers));
        upstreamRes.pipe(res);
      }
      upstreamRes.on('error', () => res.destroy());
      // The upstream died mid-answer: the client must not take a truncated body for a whole one.
      upstreamRes.on('aborted', () => res.destroy());
      res.on('finish', () => report(upstreamRes.statusCode ?? 0));
      res.on('close', () => {
        if (!res.writableFinished) {
          report(0, 'cut off');
          upstreamRes.destroy();
        }
      });
    });
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) {
        res.destroy();
        report(0, err.code ?? err.message);
        return;
      }
      if (res.headersSent || res.destroyed) {
        res.destroy();
        report(0, err.code ?? err.message);
        return;
      }
      if (ejectMs > 0) ejectedUntil[index] = performance.now() + ejectMs;
      // Drain whatever of the request body is left, so the client reads the 502 instead of a reset.
      req.resume();
      upstreamError(res, upstreams[index]!, err);
      report(502, err.code ?? err.message);
    });
    // A client that leaves before the answer: stop the upstream request too.
    req.on('aborted', () => outgoing.destroy());
    res.on('close', () => {
      if (!answered && !res.writableFinished) outgoing.destroy();
    });
    if (body) outgoing.end(body);
    else req.pipe(outgoing);
  };

  const server = createServer({ keepAliveTimeout: 5_000 }, handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    requests,
    close: () => (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      agent.destroy();
    })),
  };
}

/** A proxy that records every request to `target` (none: it answers 401 to all), rewriting JSON answers if asked. */
export function startProxy(target?: string, rewrite?: Rewrite): Promise<RoundRobinProxy> {
  return startRoundRobinProxy(target === undefined ? [] : [target], rewrite ? { rewrite } : {});
}

export interface RequestLog extends RoundRobinProxy {
  /** Every write, in the order the service applied it. */
  writes: LoggedRequest[];
}

/** The service's writes in the order it applied them, one request at a time, `afterWrite` called after each. */
export async function startRequestLog(target: string, afterWrite: (write: LoggedRequest) => Promise<void>): Promise<RequestLog> {
  const writes: LoggedRequest[] = [];
  const proxy = await startRoundRobinProxy([target], {
    afterWrite: async (write) => {
      writes.push(write);
      await afterWrite(write);
    },
  });
  return { ...proxy, writes };
}
