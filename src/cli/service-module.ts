// The embedded service, for `serve` and `--local`, imported lazily (DESIGN 9.6). It stores its data with
// better-sqlite3, an optional dependency with a native build: installing edgeops needs no compiler, and every
// other command works without it. Before the service loads, better-sqlite3 is loaded and opened once, so a
// missing package or a missing native build is a clear error (exit 1) saying how to install it.
import type BetterSqlite3 from 'better-sqlite3';
import { EdgeopsError } from '../errors.ts';

/** better-sqlite3 is not installed, or its native module does not load. */
export class SqliteUnavailableError extends EdgeopsError {
  constructor(message: string) {
    super('E_SQLITE_UNAVAILABLE', message);
  }
}

const INSTALL = 'install it with `npm install better-sqlite3` (for a global edgeops: `npm install -g better-sqlite3`)';

async function checkSqlite(what: string): Promise<void> {
  let Database: typeof BetterSqlite3;
  try {
    Database = (await import('better-sqlite3')).default;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw err;
    throw new SqliteUnavailableError(`${what} needs better-sqlite3, an optional dependency that is not installed: ${INSTALL}`);
  }
  try {
    new Database(':memory:').close();
  } catch (err) {
    const cause = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new SqliteUnavailableError(`${what} needs better-sqlite3, which is installed but its native module does not load (${cause}): ${INSTALL}, where its install script may run`);
  }
}

/** The service module, once better-sqlite3 is known to work; `what` names the command for the error. */
export async function loadService(what: string): Promise<typeof import('../service/server.ts')> {
  await checkSqlite(what);
  return import('../service/server.ts');
}
