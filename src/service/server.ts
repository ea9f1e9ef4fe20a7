// The in-process entry of the service: `edgeops serve`, `--local` and the tests all start it through here.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
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
  /** Requests per rolling 60 s per key; undefined = off. */
  rateLimit?: number;
  /** Fault injection settings: accepted and ignored until fault injection lands (hook points are in app.ts). */
  faults?: unknown;
  quiet?: boolean;
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
  const store = new Store(opts.dbFile);
  const log = (line: string) => {
    if (!opts.quiet) process.stderr.write(`edgeops serve: ${line}\n`);
  };
  const server = createServer({ keepAliveTimeout: 5_000 }, createApp({
    store, resources: RESOURCES, apiKeys: opts.apiKeys ?? [], rateLimit: opts.rateLimit, log,
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
