// The HTTP front of the service on node:http: health checks, operation id, auth, version, rate limit, routing
// (404/405), body framing (415/413/400), one store transaction per request, and the error envelope. Nothing a
// client sends can produce a 500: client faults are ServiceErrors (4xx), a database that is busy or gone is a
// 503 with Retry-After; anything else is a bug, logged and answered 500 with the same envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { keyDigest, type Accounts } from './accounts.ts';
import { bodyCheckerReady } from './bodies.ts';
import { REQUEST_BODY_MAX_BYTES } from '../contract/limits.ts';
import { errorEnvelope, SERVICE_VERSION, VERSION_HEADER } from '../contract/protocol.ts';
import { ServiceError } from './errors.ts';
import type { FaultInjector } from './faults.ts';
import { ReadCache, type CachedReply } from './read-cache.ts';
import { newOperationId } from './ids.ts';
import { itemPath, type Ctx, type KindDef, type Method, type Reply, type ResourceModule } from './resource-def.ts';
import { Router } from './router.ts';
import { StoreUnavailableError, type Store, type StoreTx, type StoredDoc } from './store.ts';
import { isPlainObject, type JsonObject } from './json-values.ts';

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT']);

interface AppOptions {
  store: Store;
  resources: readonly ResourceModule[];
  /** Accepted bearer keys and their accounts; none configured = any non-empty bearer token, default account. */
  accounts: Accounts;
  rateLimit?: number;
  /** The rolling window of rateLimit; default 60 s. */
  rateLimitWindowMs?: number;
  /** Fault injection (faults.ts); undefined = none, and no fault code runs at all. */
  faults?: FaultInjector;
  log: (line: string) => void;
  /** Default on; see read-cache.ts. */
  readCache?: boolean;
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export function createApp(opts: AppOptions): RequestListener {
  const router = new Router(opts.resources.flatMap((r) => r.routes));
  const kinds = new Map<string, KindDef>();
  const prefixes = new Map<string, KindDef>();
  for (const kind of opts.resources.flatMap((r) => r.kinds)) {
    kinds.set(kind.kind, kind);
    prefixes.set(kind.prefix, kind);
  }
  const cache = opts.readCache === false ? undefined : new ReadCache();

  /** The digest of the caller's key and the account it acts for. */
  function authenticate(header: string | undefined): { digest: Buffer; account: string } {
    if (header === undefined || header === '') throw new ServiceError('ERR_AUTH_MISSING', 'missing Authorization header; send "Authorization: Bearer <API key>"');
    const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (!m) throw new ServiceError('ERR_AUTH_NOT_BEARER', 'Authorization header must be "Bearer <API key>"');
    const digest = keyDigest(m[1]!);
    const account = opts.accounts.accountOf(digest);
    if (account === undefined) throw new ServiceError('ERR_AUTH_INVALID_KEY', 'the API key is not valid');
    return { digest, account };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, operationId: string): Promise<Reply | CachedReply> {
    const { digest, account } = authenticate(req.headers.authorization);
    (req as AccountTagged)[ACCOUNT] = account;
    const raw = req.headers[VERSION_HEADER];
    const version = Array.isArray(raw) ? raw.join(', ') : raw;
    if (version === undefined) throw new ServiceError('ERR_VERSION_MISSING', `missing Service-Version header; supported versions: ${SERVICE_VERSION}`);
    if (version.trim() !== SERVICE_VERSION) throw new ServiceError('ERR_VERSION_UNSUPPORTED', `Service-Version ${JSON.stringify(version.slice(0, 20))} is not supported; supported versions: ${SERVICE_VERSION}`);
    if (opts.rateLimit !== undefined) {
      // With no keys configured any token is admitted, so the token cannot be the bucket: one for everybody.
      // The bucket is the key's digest, so no key is ever written to the database.
      const bucket = opts.accounts.open ? '' : digest.toString('base64');
      const r = await opts.store.rateTake(bucket, opts.rateLimit, opts.rateLimitWindowMs ?? 60_000);
      if (!r.ok) {
        throw new ServiceError('ERR_RATE_LIMITED', `rate limited to ${opts.rateLimit} requests per 60 s; retry after ${r.retryAfterSeconds} s`, { 'Retry-After': String(r.retryAfterSeconds) });
      }
    }
    const url = parseTarget(req.url ?? '');
    const match = router.match(req.method ?? '', url.pathname);
    if (match.kind === 'none') throw new ServiceError('ERR_NOT_FOUND_PATH', `no endpoint at ${url.pathname.slice(0, 200)}`);
    if (match.kind === 'method') {
      throw new ServiceError('ERR_METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${url.pathname.slice(0, 200)}; allowed: ${match.allow.join(', ')}`, { Allow: match.allow.join(', ') });
    }
    const hasBody = BODY_METHODS.has(req.method!);
    const body = hasBody ? parseJsonBody(req, await readBody(req)) : {};
    if (hasBody) await bodyCheckerReady();
    // Injected 5xx/429 are answered here, before the handler: such a request changes nothing.
    const fault = opts.faults ? await opts.faults.decide(req.method!, url.pathname) : undefined;
    if (fault?.reject) throw fault.reject;
    // A client that gave up (a timeout, usually during injected latency) must not have its write land
    // unseen: it may already be checking whether the write landed, and retry it.
    if (req.socket.destroyed) throw new ServiceError('ERR_CLIENT_GONE', 'the client closed the connection');
    const run = (tx: StoreTx) => match.handler(makeCtx(req, req.method as Method, url, match.params, body, operationId, tx));
    const reply = req.method === 'GET'
      ? await cachedRead(`${account} ${baseUrlOf(req)} ${req.url}`, account, run)
      : await opts.store.write(account, run);
    // "Commit then drop": only after a successful commit (a handler error answers normally), and with no
    // response at all, so the client cannot tell whether the write landed.
    if (fault?.dropAfterCommit) res.destroy();
    return reply;
  }

  /**
   * A GET from the cache while the store's version is the one the entry was made at (no write since, on any
   * instance); otherwise run on a read snapshot, and keep a 200 stamped with that snapshot's version.
   */
  async function cachedRead(key: string, account: string, run: (tx: StoreTx) => Promise<Reply>): Promise<Reply | CachedReply> {
    if (!cache) return (await opts.store.read(account, run)).value;
    const hit = cache.get(key, await opts.store.version());
    if (hit) return hit;
    const { value: reply, version } = await opts.store.read(account, run);
    if (reply.status !== 200 || reply.headers || reply.body === undefined) return reply;
    const cached = { status: 200, payload: Buffer.from(JSON.stringify(reply.body)) };
    cache.set(key, version, cached);
    return cached;
  }

  function makeCtx(req: IncomingMessage, method: Method, url: URL, params: Record<string, string>, body: JsonObject, operationId: string, tx: StoreTx): Ctx {
    const baseUrl = baseUrlOf(req);
    const kindOf = (kind: string) => kinds.get(kind);
    const uriOf = (doc: Pick<StoredDoc<unknown>, 'id' | 'kind' | 'parentId'>) => {
      const kind = kinds.get(doc.kind);
      return `${baseUrl}${kind ? itemPath(kind, doc.id, doc.parentId) : `/${doc.id}`}`;
    };
    return {
      method, path: url.pathname, params, query: url.searchParams, body, baseUrl, tx, operationId,
      url: (path) => `${baseUrl}${path}`,
      uriOf,
      kindOf,
      ref: (id) => {
        // Prefixes are unique per kind and the contract's references name top-level kinds only, so a uri needs
        // no lookup (refs are checked on write and a referenced document cannot be deleted).
        const kind = prefixes.get(id.slice(0, id.indexOf('_')));
        return { id, uri: kind && !kind.path.includes(':') ? `${baseUrl}${itemPath(kind, id, null)}` : `${baseUrl}/${encodeURIComponent(id)}` };
      },
    };
  }

  /**
   * Health checks for load balancers and orchestrators, outside authentication and the version header:
   * /healthz says the process answers, /readyz that its store does too (503 while it does not).
   */
  async function health(path: string): Promise<Reply> {
    if (path === '/healthz') return { status: 200, body: { status: 'ok' } };
    try {
      await opts.store.ping();
    } catch (err) {
      // However the store fails to answer (a lost connection, a closed store, a driver error no backend maps,
      // SQLite's disk I/O error), the instance is not ready: 503 with Retry-After, never a 500 that reads as a
      // bug in the service. The log line (errorReply's) names the error by its name and code only.
      if (err instanceof StoreUnavailableError) throw err;
      const code = (err as { code?: unknown } | null)?.code;
      const name = err instanceof Error ? err.name : typeof err;
      throw new StoreUnavailableError('unavailable', `ping failed (${name}${typeof code === 'string' || typeof code === 'number' ? ` ${code}` : ''})`);
    }
    return { status: 200, body: { status: 'ready', store: opts.store.backend } };
  }

  return (req, res) => {
    const operationId = newOperationId();
    res.setHeader('Service-Operation-Id', operationId);
    const path = req.url?.split('?')[0];
    const work = (path === '/healthz' || path === '/readyz') && (req.method === 'GET' || req.method === 'HEAD')
      ? health(path)
      : handle(req, res, operationId);
    work.then(
      (reply) => send(res, reply),
      (err: unknown) => send(res, errorReply(err, operationId, req, opts.log)),
    ).catch((err: unknown) => opts.log(`failed to send a response: ${String(err)}`));
  };
}

const ACCOUNT = Symbol('edgeops.account');
type AccountTagged = IncomingMessage & { [ACCOUNT]?: string };

/** The account a request was authenticated for, once it was: what a request log line names instead of the key. */
export function accountOfRequest(req: IncomingMessage): string | undefined {
  return (req as AccountTagged)[ACCOUNT];
}

function parseTarget(target: string): URL {
  // Origin-form only ("/path?query"); anything else (absolute-form, "*") has no endpoint.
  if (!target.startsWith('/') || target.startsWith('//')) throw new ServiceError('ERR_NOT_FOUND_PATH', 'no endpoint at this request target');
  try {
    return new URL(target, 'http://service.invalid');
  } catch {
    throw new ServiceError('ERR_NOT_FOUND_PATH', 'no endpoint at this request target');
  }
}

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** Scheme and authority as the client addressed us, so every uri we return is usable by that client. */
function baseUrlOf(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-proto'];
  const proto = forwarded === 'https' ? 'https' : 'http';
  const host = req.headers.host;
  if (host && HOST.test(host)) return `${proto}://${host}`;
  const addr = req.socket.localAddress ?? '127.0.0.1';
  const shown = addr.includes(':') ? `[${addr}]` : addr;
  return `${proto}://${shown}:${req.socket.localPort ?? 80}`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > REQUEST_BODY_MAX_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > REQUEST_BODY_MAX_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    const unreadable = () => reject(new ServiceError('ERR_BODY_UNREADABLE', 'the request body could not be read'));
    req.on('error', unreadable);
    // A client that goes away mid-body emits neither 'end' nor always 'error'; settle anyway.
    req.on('close', () => {
      if (!req.complete) unreadable();
    });
  });
}

function tooLarge(): ServiceError {
  return new ServiceError('ERR_BODY_TOO_LARGE', `request body over ${REQUEST_BODY_MAX_BYTES} bytes`, { Connection: 'close' });
}

/** An empty body counts as {} whatever its content type; a non-empty one must be a JSON object. */
function parseJsonBody(req: IncomingMessage, raw: Buffer): JsonObject {
  if (raw.length === 0) return {};
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ServiceError('ERR_CONTENT_TYPE_UNSUPPORTED', `Content-Type must be application/json, got ${JSON.stringify(type.slice(0, 80) || 'none')}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw new ServiceError('ERR_BODY_INVALID_JSON', 'the request body is not valid UTF-8 JSON');
  }
  if (!isPlainObject(value)) throw new ServiceError('ERR_BODY_NOT_OBJECT', 'the request body must be a JSON object');
  return value;
}

function errorReply(err: unknown, operationId: string, req: IncomingMessage, log: (line: string) => void): Reply {
  let error: ServiceError;
  if (err instanceof ServiceError) {
    error = err;
  } else if (err instanceof StoreUnavailableError) {
    error = err.reason === 'busy'
      ? new ServiceError('ERR_STORE_BUSY', 'the database is busy; nothing was written; retry the request', { 'Retry-After': '1' })
      : new ServiceError('ERR_STORE_UNAVAILABLE', 'the database cannot be reached; nothing was written; retry the request', { 'Retry-After': '1' });
    log(`${operationId} ${req.method} ${req.url?.slice(0, 200)}: ${err.message}`);
  } else {
    log(`${operationId} ${req.method} ${req.url?.slice(0, 200)}: unexpected error: ${err instanceof Error ? err.stack : String(err)}`);
    error = new ServiceError('ERR_INTERNAL', 'an unexpected error occurred; it has been logged');
  }
  return {
    status: error.status,
    headers: error.headers,
    body: errorEnvelope(error.code, error.status, error.message, operationId),
  };
}

function send(res: ServerResponse, reply: Reply | CachedReply): void {
  if (res.destroyed || res.headersSent) return;
  if ('payload' in reply) {
    res.writeHead(reply.status, { 'Content-Type': 'application/json', 'Content-Length': reply.payload.length });
    res.end(reply.payload);
    return;
  }
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status);
    res.end();
    return;
  }
  const payload = JSON.stringify(reply.body);
  res.writeHead(reply.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
  res.end(payload);
}
