// The few calls the SQLite store makes, over whichever SQLite the running Node offers: node:sqlite (built in
// from Node 22.13) or, on older Node, better-sqlite3, an optional peer dependency that Node 20 users install
// beside edgeops. Both are synchronous; the store serializes its transactions itself, so the driver needs no
// transaction helper of its own.
export interface SqliteStatement {
  run(...params: unknown[]): { lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

type SqliteOpen = (file: string) => SqliteDatabase;

/** The driver's name and its open(); the error says what to install when neither loads. */
interface SqliteDriver {
  name: 'node:sqlite' | 'better-sqlite3';
  open: SqliteOpen;
}

let loaded: Promise<SqliteDriver> | undefined;

/** node:sqlite where the running Node has it unflagged, else better-sqlite3. Loaded once. */
export function sqliteDriver(): Promise<SqliteDriver> {
  loaded ??= loadDriver();
  return loaded;
}

/** EDGEOPS_SQLITE_DRIVER=better-sqlite3: better-sqlite3 even where node:sqlite exists (the drivers' tests). */
export function betterSqliteForced(): boolean {
  return process.env.EDGEOPS_SQLITE_DRIVER === 'better-sqlite3';
}

async function loadDriver(): Promise<SqliteDriver> {
  const builtin = await nodeSqlite();
  if (builtin) return builtin;
  const Database = await betterSqlite();
  return { name: 'better-sqlite3', open: (file) => new Database(file) as unknown as SqliteDatabase };
}

/**
 * better-sqlite3 as Node resolves it from here: a project's node_modules, or for a global edgeops the global
 * node_modules that `npm install -g better-sqlite3` fills (Node's lookup reaches it from this package's folder).
 */
async function betterSqlite(): Promise<typeof import('better-sqlite3')> {
  return (await import('better-sqlite3')).default;
}

async function nodeSqlite(): Promise<SqliteDriver | undefined> {
  if (betterSqliteForced()) return undefined;
  let mod: { DatabaseSync: new (file: string) => SqliteDatabase };
  // Node 22 marks node:sqlite experimental and says so on stderr once it loads; the store uses only its stable
  // core (open, exec, prepare, run/get/all), so that one warning is not passed on. Node 24 prints none.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String((warning as Error)?.message ?? warning).includes('SQLite')) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    // A variable specifier: the bundler must leave it to run time, where Node 20 has no such module.
    const name = 'node:sqlite';
    mod = (await import(name)) as typeof mod;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
  return { name: 'node:sqlite', open: (file) => new mod.DatabaseSync(file) };
}
