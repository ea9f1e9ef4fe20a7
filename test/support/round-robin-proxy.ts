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
// Used by the multi-instance tests (test/scale/) and the service-scale benchmark.
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

export async function startRoundRobinProxy(upstreams: string[], opts: RoundRobinOptions = {}): Promise<RoundRobinProxy> {
  if (upstreams.length === 0) throw new Error('startRoundRobinProxy: no upstreams');
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

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
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
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, forwardable(upstreamRes.headers));
      upstreamRes.pipe(res);
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
    close: () => (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      agent.destroy();
    })),
  };
}
