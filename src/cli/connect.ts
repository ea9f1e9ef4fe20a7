// The service a command talks to: the one named by --api-url/--api-key, or with --local the embedded service,
// started in this process on a SQLite file under .edgeops/ next to the manifests. The service code is reached
// only by the lazy import() below (the import wall of DESIGN 9.6): runs against a remote service never load it.
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
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

const ignoreText = (dir: string): string => (existsSync(join(dir, '.gitignore')) ? readFileSync(join(dir, '.gitignore'), 'utf8') : '');

/**
 * Whether `.edgeops/` in `dir` needs ignoring: `dir` is inside a git work tree (a `.git` in it or above it)
 * and no .gitignore from `dir` up to the work tree's root ignores it already.
 */
function needsIgnoring(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    const pattern = at === dir ? /^\/?\.edgeops\/?\s*$/m : /^(\*\*\/)?\.edgeops\/?\s*$/m;
    if (pattern.test(ignoreText(at))) return false;
    if (existsSync(join(at, '.git'))) return true;
    if (dirname(at) === at) return false;
  }
}

/**
 * A freshly made `.edgeops/` inside a git work tree is added to the .gitignore beside it (made if absent), so
 * `git add -A` does not commit the local database; if that file cannot be written, the user is told how.
 */
function ignoreLocalDir(parent: string, say: (line: string) => void): void {
  if (!needsIgnoring(parent)) return;
  const file = join(parent, '.gitignore');
  const current = ignoreText(parent);
  try {
    appendFileSync(file, `${current === '' || current.endsWith('\n') ? '' : '\n'}# edgeops --local: the embedded service's database\n.edgeops/\n`);
    say(`created .edgeops/ for the local database and added it to ${file}`);
  } catch {
    say(`created .edgeops/ for the local database; keep it out of git: echo .edgeops/ >> ${file}`);
  }
}

async function connectLocal(paths: string[], concurrency: number): Promise<Connection> {
  const parent = localDir(paths);
  const dir = join(parent, '.edgeops');
  const made = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  if (made) ignoreLocalDir(parent, (line) => process.stderr.write(`edgeops: ${line}\n`));
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
