// The service a command talks to: the one named by --api-url/--api-key, or with --local the embedded service,
// started in this process on a SQLite file under .edgeops/ next to the manifests. The service code is reached
// only by the lazy import() below (the import wall of DESIGN 9.6): runs against a remote service never load it.
import { mkdirSync, statSync } from 'node:fs';
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

async function connectLocal(paths: string[], concurrency: number): Promise<Connection> {
  const dir = join(localDir(paths), '.edgeops');
  mkdirSync(dir, { recursive: true });
  const dbFile = join(dir, 'local.db');
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

/** The first slow-request notice of a run, on stderr (the next ones would say the same). */
function onceOnStderr(): (line: string) => void {
  let said = false;
  return (line) => {
    if (said) return;
    said = true;
    process.stderr.write(`edgeops: ${line}\n`);
  };
}

export async function connect(settings: Settings, paths: string[]): Promise<Connection> {
  if (settings.local) return connectLocal(paths, settings.concurrency);
  if (!settings.apiUrl) {
    throw new ConfigError('no service URL: pass --api-url or set EDGEOPS_API_URL (or api_url in edgeops.yaml); or use --local for the embedded service');
  }
  if (!settings.apiKey) {
    throw new ConfigError('no API key: pass --api-key or set EDGEOPS_API_KEY; or use --local for the embedded service');
  }
  const api = createApi({
    url: settings.apiUrl, apiKey: settings.apiKey, concurrency: settings.concurrency, timeoutMs: settings.timeoutMs, onSlow: onceOnStderr(),
  });
  return { api, target: settings.apiUrl, close: () => api.close() };
}

/** Runs `fn` with a connection and always closes it, so no socket or embedded service outlives the command. */
export async function withConnection<T>(settings: Settings, paths: string[], fn: (conn: Connection) => Promise<T>): Promise<T> {
  const conn = await connect(settings, paths);
  try {
    return await fn(conn);
  } finally {
    await conn.close();
  }
}
