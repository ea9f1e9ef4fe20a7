// The service a command talks to: the one named by --api-url/--api-key, or with --local the embedded service,
// started in this process on a SQLite file under .edgeops/ next to the manifests. The service code is reached
// only by the lazy import() below (the import wall of DESIGN 9.6): runs against a remote service never load it.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { dirname, join, resolve } from 'node:path';
import { createApi } from '../client/http.ts';
import { ConfigError } from '../errors.ts';
import type { Api } from '../kinds/resource-kind.ts';
import type { Settings } from './settings.ts';

/** The embedded service's only key. It guards nothing (the service listens on 127.0.0.1 for this run only). */
export const LOCAL_API_KEY = 'edgeops-local';

export interface Connection {
  api: Api;
  /** Where the run goes, for messages: the URL, or the local database file. */
  target: string;
  close(): Promise<void>;
}

/** The directory of the first PATH (itself when it is a directory): where `.edgeops/local.db` lives. */
export function localDir(paths: string[]): string {
  const first = resolve(paths[0] ?? '.');
  try {
    return statSync(first).isDirectory() ? first : dirname(first);
  } catch {
    return dirname(first);
  }
}

export interface ConnectOptions {
  /** Only read: with --local, a database that does not exist yet is an error, not created (export). */
  readOnly?: boolean;
}

async function connectLocal(paths: string[], concurrency: number, opts: ConnectOptions): Promise<Connection> {
  const dir = join(localDir(paths), '.edgeops');
  const dbFile = join(dir, 'local.db');
  if (opts.readOnly && !existsSync(dbFile)) {
    const shown = relative(process.cwd(), dbFile) || dbFile;
    throw new ConfigError(`--local: there is no embedded service database at ${shown} (it is made by plan or apply --local on the manifests' directory); pass that directory as PATH`);
  }
  mkdirSync(dir, { recursive: true });
  const { startService } = await import('../service/server.ts');
  const service = await startService({ host: '127.0.0.1', port: 0, apiKeys: [LOCAL_API_KEY], dbFile, quiet: true });
  const api = createApi({ url: service.url, apiKey: LOCAL_API_KEY, concurrency });
  return {
    api,
    target: dbFile,
    async close() {
      await api.close();
      await service.close();
    },
  };
}

export async function connect(settings: Settings, paths: string[], opts: ConnectOptions = {}): Promise<Connection> {
  if (settings.local) return connectLocal(paths, settings.concurrency, opts);
  if (!settings.apiUrl) {
    throw new ConfigError('no service URL: pass --api-url or set EDGEOPS_API_URL (or api_url in edgeops.yaml); or use --local for the embedded service');
  }
  if (!settings.apiKey) {
    throw new ConfigError('no API key: pass --api-key or set EDGEOPS_API_KEY; or use --local for the embedded service');
  }
  const api = createApi({ url: settings.apiUrl, apiKey: settings.apiKey, concurrency: settings.concurrency });
  return { api, target: settings.apiUrl, close: () => api.close() };
}

/** Runs `fn` with a connection and always closes it, so no socket or embedded service outlives the command. */
export async function withConnection<T>(settings: Settings, paths: string[], fn: (conn: Connection) => Promise<T>, opts: ConnectOptions = {}): Promise<T> {
  const conn = await connect(settings, paths, opts);
  try {
    return await fn(conn);
  } finally {
    await conn.close();
  }
}
