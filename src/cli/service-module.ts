// The embedded service, for `serve` and `--local`, imported lazily so the reconciler commands never load it.
// Its SQLite store uses node:sqlite where the running Node has it (22.13 and later), else better-sqlite3, an
// optional peer dependency with a native build that Node 20 users install beside edgeops. Before the service
// loads for an SQLite database, the driver is loaded and opened once, so a missing one is a clear error (exit
// 1) saying what to do. A PostgreSQL database needs neither.
import { EdgeopsError } from '../errors.ts';

/** Neither node:sqlite nor a working better-sqlite3 is available. */
class SqliteUnavailableError extends EdgeopsError {
  constructor(message: string) {
    super('E_SQLITE_UNAVAILABLE', message);
  }
}

/** The commands the errors print, run as printed by test/build/packed-install.test.ts. */
const INSTALL = 'install better-sqlite3 beside edgeops: `npm install -g better-sqlite3` for a global edgeops, `npm install better-sqlite3` in a project';
const REBUILD = 'build it for this Node: `npm rebuild -g better-sqlite3` for a global edgeops, `npm rebuild better-sqlite3` in a project';

async function checkSqlite(what: string): Promise<void> {
  const { betterSqliteForced, sqliteDriver } = await import('../service/stores/sqlite-driver.ts');
  const why = betterSqliteForced() ? 'EDGEOPS_SQLITE_DRIVER=better-sqlite3 asks for better-sqlite3' : `Node ${process.version} has no node:sqlite`;
  const instead = betterSqliteForced() ? 'unset EDGEOPS_SQLITE_DRIVER' : 'run edgeops on Node 22.13 or later (SQLite is built in)';
  let driver;
  try {
    driver = await sqliteDriver();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw err;
    throw new SqliteUnavailableError(`${what} needs SQLite: ${why} and better-sqlite3 is not installed; ${instead}, or ${INSTALL}`);
  }
  try {
    driver.open(':memory:').close();
  } catch (err) {
    const cause = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new SqliteUnavailableError(`${what} needs SQLite: ${why} and better-sqlite3 is installed but its native module does not load (${cause}); ${instead}, or ${REBUILD}`);
  }
}

/** The service module, once the store `db` names can be opened; `what` names the command for the error. */
export async function loadService(what: string, db?: string): Promise<typeof import('../service/server.ts')> {
  const { isPostgresUrl } = await import('../service/stores/open.ts');
  if (!isPostgresUrl(db)) await checkSqlite(what);
  return import('../service/server.ts');
}
