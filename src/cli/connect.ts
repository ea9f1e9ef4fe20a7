// The service a command talks to: the one named by --api-url/--api-key, or with --local the embedded service,
// started in this process on a SQLite file under .edgeops/ next to the manifests. The service code is reached
// only by the lazy import() below (the import wall of DESIGN 9.6): runs against a remote service never load it.
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createApi, type ApiOptions } from '../client/http.ts';
import type { OutageEvent } from '../client/retry.ts';
import type { KeyMaterial } from '../operations/saved-plans.ts';
import { ConfigError } from '../errors.ts';
import type { Api } from '../kinds/resource-kind.ts';
import { loadService } from './service-module.ts';
import type { Settings } from './settings.ts';

/** The embedded service's only key. It guards nothing (the service listens on 127.0.0.1 for this run only). */
export const LOCAL_API_KEY = 'edgeops-local';

/** What a run keys its checksums and saved plans' secret fingerprints with: EDGEOPS_PLAN_KEY when set, else its API key. */
export function keyMaterial(settings: Settings, env: NodeJS.ProcessEnv): KeyMaterial | undefined {
  if (env.EDGEOPS_PLAN_KEY) return { source: 'plan-key', secret: env.EDGEOPS_PLAN_KEY };
  const apiKey = settings.local ? LOCAL_API_KEY : settings.apiKey;
  return apiKey ? { source: 'api-key', secret: apiKey } : undefined;
}

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

/** One line on stderr when the service becomes unreachable, and one when it answers again: once per outage. */
function sayOutage(e: OutageEvent): void {
  const cause = e.type === 'unreachable' ? (e.cause.status === 0 ? e.cause.errorCode : String(e.cause.status)) : '';
  process.stderr.write(e.type === 'unreachable'
    ? `service unreachable (${cause}), retrying for up to ${Math.floor(e.remainingMs / 1000)} s\n`
    : `service reachable again after ${Math.max(1, Math.round(e.downMs / 1000))} s\n`);
}

/** How long the client rides out an outage of the service, and who hears about it. */
const outageOptions = (settings: Settings): Pick<ApiOptions, 'retry' | 'onOutage'> =>
  ({ retry: { outageBudgetMs: settings.retryBudgetMs }, onOutage: sayOutage });

export interface ConnectOptions {
  /** Only read: with --local, a database that does not exist yet is an error, not created (export). */
  readOnly?: boolean;
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

async function connectLocal(paths: string[], settings: Settings, opts: ConnectOptions): Promise<Connection> {
  const { concurrency } = settings;
  const parent = localDir(paths);
  const dir = join(parent, '.edgeops');
  const dbFile = join(dir, 'local.db');
  if (opts.readOnly && !existsSync(dbFile)) {
    const shown = relative(process.cwd(), dbFile) || dbFile;
    throw new ConfigError(`--local: there is no embedded service database at ${shown} (it is made by plan or apply --local on the manifests' directory); pass that directory as PATH`);
  }
  const made = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  if (made) ignoreLocalDir(parent, (line) => process.stderr.write(`edgeops: ${line}\n`));
  const { startService } = await loadService('--local (the embedded service)');
  const service = await startService({ host: '127.0.0.1', port: 0, apiKeys: [LOCAL_API_KEY], dbFile, quiet: true });
  const api = createApi({ url: service.url, apiKey: LOCAL_API_KEY, concurrency, ...outageOptions(settings) });
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

export async function connect(settings: Settings, paths: string[], opts: ConnectOptions = {}): Promise<Connection> {
  if (settings.local) return connectLocal(paths, settings, opts);
  if (!settings.apiUrl) {
    throw new ConfigError('no service URL: pass --api-url or set EDGEOPS_API_URL (or api_url in edgeops.yaml); or use --local for the embedded service');
  }
  if (!settings.apiKey) {
    throw new ConfigError('no API key: pass --api-key or set EDGEOPS_API_KEY; or use --local for the embedded service');
  }
  const api = createApi({
    url: settings.apiUrl, apiKey: settings.apiKey, concurrency: settings.concurrency, timeoutMs: settings.timeoutMs, onSlow: onceOnStderr(),
    ...outageOptions(settings),
  });
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
