// The service a command talks to: the one named by --api-url/--api-key, or with --local the embedded service,
// started in this process on a SQLite file under .edgeops/ next to the manifests. The service code is reached
// only by the lazy import() below (design: The import wall): runs against a remote service never load it.
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createApi } from '../client/http.ts';
import { connectRemote, LOCAL_API_KEY, outageOptions, type Connection } from '../operations/connection.ts';
import { ConfigError } from '../errors.ts';
import { loadService } from './service-module.ts';
import type { Settings } from './settings.ts';

export { keyMaterial, LOCAL_API_KEY, type Connection } from '../operations/connection.ts';

/** Notices of the run (an outage, a slow answer) go to stderr. */
const sayOnStderr = (text: string): void => void process.stderr.write(text);

/** The directory of the first PATH (itself when it is a directory): where `.edgeops/local.db` lives. */
function localDir(paths: string[]): string {
  const first = resolve(paths[0] ?? '.');
  try {
    return statSync(first).isDirectory() ? first : dirname(first);
  } catch {
    return dirname(first);
  }
}

interface ConnectOptions {
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
  const service = await startService({ host: '127.0.0.1', port: 0, apiKeys: [LOCAL_API_KEY], db: dbFile, quiet: true });
  const api = createApi({ url: service.url, apiKey: LOCAL_API_KEY, concurrency, ...outageOptions(settings, sayOnStderr) });
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
  return settings.local ? connectLocal(paths, settings, opts) : connectRemote(settings, sayOnStderr);
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
