// The in-process entry of the service: `edgeops serve`, `--local` and the tests all start it through here.
// Requests Node's HTTP parser refuses before any handler runs also get the service's error envelope.
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorEnvelope } from '../contract/protocol.ts';
import { Accounts, accountsFile, accountFlag, apiKeyFlag, type AccountKey } from './accounts.ts';
import { accountOfRequest, createApp } from './app.ts';
import { ServiceError } from './errors.ts';
import { checkExposure } from './exposure.ts';
import { createFaultInjector, parseFaultSpec, type FaultSpec } from './faults.ts';
import { newOperationId } from './ids.ts';
import { RESOURCES } from './routes.ts';
import { unreachedAccountWarnings } from './unreached-accounts.ts';
import type { Durability, Store } from './store.ts';
import { openStore } from './stores/open.ts';

export { migrateStore } from './stores/open.ts';

export interface ServiceOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Accepted bearer keys of the default account. No key configured at all: any non-empty bearer token is accepted. */
  apiKeys?: string[];
  /** More accounts: `NAME=KEY` each (a name may repeat, for several keys). */
  accounts?: string[];
  /** A YAML file of account name -> list of keys (plain or `sha256:<hex>`). */
  accountsFile?: string;
  /** With no key configured, listen on a non-loopback host anyway (exposure.ts); refused otherwise. */
  allowAnyKey?: boolean;
  /**
   * Where the data lives: a postgres:// or postgresql:// URL (several instances may share it), else an SQLite
   * file; omitted = in-memory SQLite.
   */
  db?: string;
  /** PostgreSQL connections this instance keeps at most (default 10). */
  poolSize?: number;
  /** Requests per rolling 60 s (or rateLimitWindowMs) per key; undefined = off. */
  rateLimit?: number;
  /** The rate limit's rolling window in ms; default 60 000 (shorter ones keep rate-limit tests fast). */
  rateLimitWindowMs?: number;
  /**
   * Fault injection: a FaultSpec object (fault-spec.ts), or its `--faults` text form. Undefined (the default)
   * = none. Typed `unknown` by the shared contract; checked here (FaultSpecError names the bad value).
   */
  faults?: unknown;
  quiet?: boolean;
  /** One line per request on stderr (method, path, status, ms), as `edgeops serve` logs; off unless asked. */
  logRequests?: boolean;
  /** Serve repeated GETs from bytes until the next write (read-cache.ts); default on. Off: every GET is read. */
  readCache?: boolean;
  /**
   * 'full' (the default): a write is answered only once it would survive a power loss (SQLite
   * synchronous=FULL, PostgreSQL synchronous_commit=on). 'relaxed': faster; an answered write may be lost
   * (never corrupted) on power loss, so only for tests and benchmarks.
   */
  durability?: Durability;
}

export interface RunningService {
  /** e.g. http://127.0.0.1:43123, no trailing slash. */
  url: string;
  /** 'sqlite (node:sqlite)', 'sqlite (better-sqlite3)' or 'postgres'. */
  backend: string;
  /** The accounts that have keys, with their number of keys; none: any bearer token acts for the default account. */
  accounts: string[];
  /** Said at start: each account holding documents that no configured key reaches (unreached-accounts.ts). */
  warnings: string[];
  /**
   * Stops accepting connections, lets requests in flight finish for up to graceMs (default 0: cut them off),
   * then closes every connection and the store.
   */
  close(opts?: { graceMs?: number }): Promise<void>;
}

export async function startService(opts: ServiceOptions = {}): Promise<RunningService> {
  if (opts.rateLimit !== undefined && (!Number.isInteger(opts.rateLimit) || opts.rateLimit < 1)) {
    throw new RangeError(`rateLimit must be a positive integer, got ${opts.rateLimit}`);
  }
  if (opts.rateLimitWindowMs !== undefined && (!Number.isInteger(opts.rateLimitWindowMs) || opts.rateLimitWindowMs < 1)) {
    throw new RangeError(`rateLimitWindowMs must be a positive integer, got ${opts.rateLimitWindowMs}`);
  }
  const faults = opts.faults === undefined
    ? undefined
    : createFaultInjector(typeof opts.faults === 'string' ? parseFaultSpec(opts.faults) : (opts.faults as FaultSpec));
  const accounts = new Accounts([
    ...(opts.apiKeys ?? []).map(apiKeyFlag),
    ...(opts.accounts ?? []).map(accountFlag),
    ...(opts.accountsFile === undefined ? [] : accountsFile(opts.accountsFile)),
  ] satisfies AccountKey[]);
  const host = opts.host ?? '127.0.0.1';
  await checkExposure(accounts.open, host, opts.allowAnyKey ?? false);
  const log = (line: string) => {
    if (!opts.quiet) process.stderr.write(`edgeops serve: ${line}\n`);
  };
  const store: Store = await openStore(opts.db, { durability: opts.durability, poolSize: opts.poolSize, log });
  let warnings: string[];
  try {
    warnings = await unreachedAccountWarnings(store, accounts);
  } catch (err) {
    await store.close();
    throw err;
  }
  const app = createApp({
    store, resources: RESOURCES, accounts, rateLimit: opts.rateLimit,
    rateLimitWindowMs: opts.rateLimitWindowMs, faults, log, readCache: opts.readCache,
  });
  const server = createServer({ keepAliveTimeout: 5_000 }, opts.logRequests && !opts.quiet ? logged(app, log) : app);
  // Once close() starts, every response not yet under way ends its connection (Connection: close), so no
  // client sends another request on a connection the drain is about to close. Ahead of the app's listener:
  // a response must know before its head is written.
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  const methods = [...new Set(RESOURCES.flatMap((r) => r.routes.map((route) => route.method)))];
  server.on('clientError', (err: ClientError, socket: Duplex) => answerClientError(err, socket, methods));
  // Node hands CONNECT to this event instead of the app, and without a listener closes the connection unanswered.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => writeEnvelope(socket, notServed(req.method ?? 'CONNECT', methods)));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    backend: store.backend,
    accounts: accounts.summary(),
    warnings,
    close: (closeOpts = {}) => {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      closing ??= drain(server, closeOpts.graceMs ?? 0).then(() => store.close());
      return closing;
    },
  };
}

/** How long close() still waits, after the cutoff, for connections the HTTP server no longer tracks. */
const HANDED_OFF_WAIT_MS = 1_000;

/**
 * Stops listening (new connections are refused), lets the requests in flight finish for up to graceMs, then cuts
 * off whatever is still open. Connections are closed as soon as they are idle (their responses were told to end
 * them), so a client sending request after request on one connection neither keeps the service up until the
 * cutoff nor has a request cut there. Resolves once every connection is closed, and at the latest HANDED_OFF_WAIT_MS after the cutoff: a
 * socket the HTTP server handed off (a refused CONNECT whose client keeps its half of the connection open) is
 * one closeAllConnections() cannot reach, and must not hold the stop up forever.
 */
function drain(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    const done = (): void => {
      for (const timer of timers) clearTimeout(timer);
      resolve();
    };
    server.close(() => done());
    if (graceMs <= 0) {
      server.closeAllConnections();
    } else {
      server.closeIdleConnections();
      // A connection whose request finishes after close() stays open, idle, under keep-alive: close those too.
      timers.push(setInterval(() => server.closeIdleConnections(), 50));
    }
    timers.push(setTimeout(() => {
      server.closeAllConnections();
      timers.push(setTimeout(done, HANDED_OFF_WAIT_MS));
    }, Math.max(graceMs, 0)));
  });
}

/** The app, logging each request when its answer is sent (or when the client left before it was). */
function logged(app: RequestListener, log: (line: string) => void): RequestListener {
  return (req, res) => {
    const started = performance.now();
    const line = (status: string) => `${req.method} ${req.url} ${status} ${Math.round(performance.now() - started)}ms account=${accountOfRequest(req) ?? '-'}`;
    res.once('finish', () => log(line(String(res.statusCode))));
    res.once('close', () => {
      if (!res.writableFinished) log(line('(client gone)'));
    });
    return app(req, res);
  };
}

/** What Node's HTTP parser reports in 'clientError' (llhttp's HPE_* codes, ERR_HTTP_REQUEST_TIMEOUT, ECONNRESET). */
type ClientError = Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number };

/**
 * A request the HTTP parser refused (an unknown method such as BREW, malformed framing, headers or chunked
 * body, a request too slow to arrive) is answered with the error envelope instead of Node's bare 400, and the
 * connection is closed: after a parse error the rest of its bytes cannot be trusted. As in Node's own handler,
 * nothing is written once a response on the connection has started (it would interleave with it).
 */
function answerClientError(err: ClientError, socket: Duplex, methods: readonly string[]): void {
  // Node keeps the response in flight on the connection here (what its own clientError default checks too).
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  writeEnvelope(socket, clientErrorOf(err, methods));
}

/** The error envelope written straight to the socket, which is then closed. */
function writeEnvelope(socket: Duplex, error: ServiceError): void {
  const operationId = newOperationId();
  const body = JSON.stringify(errorEnvelope(error.code, error.status, error.message, operationId));
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Service-Operation-Id': operationId,
    ...error.headers, Connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  // Destroyed once written: a client keeping its half open must not keep the process from stopping.
  socket.end(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${head}\r\n${body}`, () => socket.destroy());
}

function clientErrorOf(err: ClientError, methods: readonly string[]): ServiceError {
  if (err.code === 'HPE_INVALID_METHOD') return notServed(methodOf(err) ?? 'the request method', methods);
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ServiceError('ERR_REQUEST_MALFORMED', 'the request did not arrive in time');
  if (err.code === 'HPE_HEADER_OVERFLOW') return new ServiceError('ERR_REQUEST_MALFORMED', 'the request headers are too large');
  return new ServiceError('ERR_REQUEST_MALFORMED', `the request could not be parsed (${err.code ?? 'malformed'})`);
}

function notServed(method: string, methods: readonly string[]): ServiceError {
  const allow = methods.join(', ');
  return new ServiceError('ERR_METHOD_NOT_ALLOWED', `${method} is not a method this service serves; allowed: ${allow}`, { Allow: allow });
}

/** The refused method token: from the start of the line the parser stopped in, if it looks like one. */
function methodOf(err: ClientError): string | undefined {
  const raw = err.rawPacket?.toString('latin1') ?? '';
  const stop = Math.min(Math.max((err.bytesParsed ?? 0) - 1, 0), raw.length);
  const start = raw.lastIndexOf('\n', stop) + 1;
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,32}(?= )/.exec(raw.slice(start))?.[0];
}
