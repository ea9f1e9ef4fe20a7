// The in-process entry of the service: `edgeops serve`, `--local` and the tests all start it through here.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import { createFaultInjector, parseFaultSpec, type FaultSpec } from './faults.ts';
import { RESOURCES } from './routes.ts';
import { Store } from './store.ts';

export interface ServiceOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Accepted bearer keys. None configured: any non-empty bearer token is accepted. */
  apiKeys?: string[];
  /** SQLite file; omitted = in-memory. */
  dbFile?: string;
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
  /** Serve repeated GETs from bytes until the next write (read-cache.ts); default on. Off: every GET is read. */
  readCache?: boolean;
}

export interface RunningService {
  /** e.g. http://127.0.0.1:43123, no trailing slash. */
  url: string;
  close(): Promise<void>;
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
  const store = new Store(opts.dbFile);
  const log = (line: string) => {
    if (!opts.quiet) process.stderr.write(`edgeops serve: ${line}\n`);
  };
  const server = createServer({ keepAliveTimeout: 5_000 }, createApp({
    store, resources: RESOURCES, apiKeys: opts.apiKeys ?? [], rateLimit: opts.rateLimit,
    rateLimitWindowMs: opts.rateLimitWindowMs, faults, log, readCache: opts.readCache,
  }));
  const host = opts.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    store.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
