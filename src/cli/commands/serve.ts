// `edgeops serve`: run the Edge Configuration Management Service until SIGINT/SIGTERM, on an SQLite file or on a
// PostgreSQL database that several instances share. The service module is loaded by a lazy import() only, so
// the reconciler commands never load it.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { ConfigError } from '../../errors.ts';
import { loadService } from '../service-module.ts';
import { integerSetting } from '../settings.ts';
import type { CliContext } from '../context.ts';

interface ServeFlags {
  host: string;
  port: string;
  apiKey: string[];
  account: string[];
  accounts?: string;
  allowAnyKey?: boolean;
  db?: string;
  poolSize?: string;
  migrateOnly?: boolean;
  rateLimit?: string;
  faults?: string;
  durability: 'full' | 'relaxed';
  quiet?: boolean;
}

/** The --faults text, checked by the service's own parser (loaded lazily like the service itself). */
async function parseFaults(text: string): Promise<object> {
  const { parseFaultSpec, FaultSpecError } = await import('../../service/faults.ts');
  try {
    return parseFaultSpec(text);
  } catch (err) {
    if (err instanceof FaultSpecError) throw new ConfigError(`--faults: ${err.message}`);
    throw err;
  }
}

/** A listen failure the user can act on, as a ConfigError (exit 1) instead of an internal error. */
function listenError(err: unknown, host: string, port: number): unknown {
  if (err instanceof Error && err.name === 'AccountsConfigError') return new ConfigError(err.message);
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') return new ConfigError(`port ${port} on ${host} is already in use; stop the process using it or pick another --port (0 picks a free one)`);
  if (code === 'EACCES') return new ConfigError(`not permitted to listen on port ${port} on ${host} (ports below 1024 need privileges); pick another --port`);
  if (code === 'EADDRNOTAVAIL') return new ConfigError(`--host ${host} is not an address of this machine`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ConfigError(`--host ${host} does not resolve to an address`);
  return err;
}

const SQLITE_HEADER = 'SQLite format 3\u0000';

/**
 * What is wrong with a --db path, said before SQLite says it less clearly: a missing directory, a directory, a
 * file that is not an SQLite database (a manifest given by mistake), or one that cannot be read or written.
 */
function dbPathProblem(file: string): string | undefined {
  const dir = dirname(resolve(file));
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
  } catch {
    return `the directory ${dir} does not exist; create it first, or pick a path in an existing directory`;
  }
  let fd: number;
  try {
    if (statSync(file).isDirectory()) return 'it is a directory; give a file name in it, e.g. --db ' + `${file.replace(/\/+$/, '')}/edge.db`;
    fd = openSync(file, 'r+');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined; // a new database is made there
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied (the database must be readable and writable)';
    return `cannot open it (${code ?? 'unknown error'})`;
  }
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    if (n === 0) return undefined; // an empty file becomes a new database
    if (head.toString('latin1', 0, n) !== SQLITE_HEADER) {
      return 'it is not an SQLite database (is it a manifest or another file?); pass a new file name, or an edgeops database';
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A database URL as it may be shown: without its password. */
function shownDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/** A database the store could not open, as a ConfigError naming where the URL came from (without its password). */
function storeError(err: unknown, file: string | undefined, postgres: boolean, source: string): unknown {
  const shown = `${source} ${file !== undefined && postgres ? shownDatabaseUrl(file) : file}`;
  if (file !== undefined && err instanceof Error && err.name === 'StoreSchemaError') return new ConfigError(`${shown}: ${err.message}`);
  // A connection PostgreSQL refused, or a server it cannot reach, explained by the store (stores/postgres-connect.ts).
  const explain = (err as { explain?: unknown } | null)?.explain;
  if (file !== undefined && postgres && typeof explain === 'function') {
    return new ConfigError(`${shown}: cannot open the PostgreSQL database: ${(explain as (source: string) => string)(source)}`);
  }
  if (file !== undefined && postgres && !(err instanceof ConfigError)) {
    const code = (err as { code?: unknown } | null)?.code;
    return new ConfigError(`${shown}: cannot open the PostgreSQL database (${typeof code === 'string' ? code : (err as Error).message.split('\n')[0]})`);
  }
  const code = (err as { code?: unknown } | null)?.code;
  if (file === undefined || typeof code !== 'string' || !code.startsWith('SQLITE_')) return err;
  const why = code === 'SQLITE_NOTADB' ? 'not an SQLite database' : code === 'SQLITE_CANTOPEN' ? 'cannot be opened' : (err as Error).message;
  return new ConfigError(`${shown}: ${why} (${code})`);
}

/** The banner's accounts line with no key configured: who can reach a service that takes any token. */
function openAccounts(host: string, allowAnyKey: boolean): string {
  const any = 'none configured: any bearer token is accepted, for the default account';
  return allowAnyKey
    ? `${any}, from anyone who can reach ${host} (--allow-any-key)`
    : `${any}, on this machine only (a non-loopback --host needs a key: --api-key, --account or --accounts)`;
}

function waitForStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export function registerServe(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('serve')
    .description('run the Edge Configuration Management Service (HTTP JSON API)')
    .addOption(new Option('--host <host>', 'address to listen on').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'port to listen on (0: any free port)').default('4010'))
    .addOption(new Option('--api-key <key>', 'accepted API key of the default account; repeat for several').argParser((v: string, prev: string[]) => [...prev, v]).default([]))
    .addOption(new Option('--account <name=key>', 'an API key of account NAME; repeat for several keys and accounts').argParser((v: string, prev: string[]) => [...prev, v]).default([]))
    .addOption(new Option('--accounts <file>', 'YAML file of account name -> list of API keys (plain, or sha256:<hex> of the key)'))
    .addOption(new Option('--allow-any-key', 'with no API key configured, accept any bearer token on a non-loopback --host too (refused otherwise)'))
    .addOption(new Option('--db <file-or-url>', 'SQLite database file, or a postgres:// URL that several instances share (omitted: in memory, lost on exit) [env EDGEOPS_DATABASE_URL]'))
    .addOption(new Option('--pool-size <n>', 'PostgreSQL connections this instance opens at most').default('10'))
    .addOption(new Option('--migrate-only', 'bring the database schema up to date, then exit'))
    .addOption(new Option('--rate-limit <n>', 'requests per 60 s per API key, then 429 (default: off)'))
    .addOption(new Option('--durability <mode>', 'full: a write is answered once it survives power loss; relaxed: faster, for tests and benchmarks (an answered write may be lost on power loss)').choices(['full', 'relaxed']).default('full'))
    .addOption(new Option('--quiet', 'do not log each request (method, path, status, ms) to stderr'))
    .addOption(new Option('--faults <spec>', 'inject faults for testing: error=P,status=500|502|503,rate429=P,retryAfter=S,latency=MS,drop=P,methods=M|M,seed=N (default: off)'))
    .addHelpText('after', `
Runs until SIGINT or SIGTERM, then stops accepting, lets requests in flight finish (up to 10 s) and exits 0.
Clients send Authorization: Bearer <key> and Service-Version: 2. GET /healthz and /readyz need neither.

Examples:
  $ edgeops serve --port 4010 --api-key dev --db ./edge.db
  $ edgeops serve --host 0.0.0.0 --api-key "$KEY_A" --api-key "$KEY_B" --rate-limit 120
  $ edgeops serve --api-key dev --db postgres://edgeops@db.internal/edgeops --pool-size 20
  $ edgeops serve --api-key dev --faults 'error=0.1,rate429=0.05,drop=0.05,latency=10,methods=POST|PATCH|PUT|DELETE,seed=42'
  $ curl -H 'Authorization: Bearer dev' -H 'Service-Version: 2' http://127.0.0.1:4010/ip_policies`)
    .action(async (flags: ServeFlags) => {
      const port = integerSetting(flags.port, '--port', 'port', 0, 65535);
      const rateLimit = flags.rateLimit === undefined ? undefined : integerSetting(flags.rateLimit, '--rate-limit', 'rate limit', 1, 1_000_000);
      const faults = flags.faults === undefined ? undefined : await parseFaults(flags.faults);
      const poolSize = integerSetting(flags.poolSize ?? '10', '--pool-size', 'pool size', 1, 1000);
      const db = flags.db ?? (process.env.EDGEOPS_DATABASE_URL || undefined);
      const source = flags.db !== undefined ? '--db' : 'EDGEOPS_DATABASE_URL';
      const { isPostgresUrl } = await import('../../service/stores/open.ts');
      const postgres = isPostgresUrl(db);
      const dbProblem = db === undefined || postgres ? undefined : dbPathProblem(db);
      if (dbProblem) throw new ConfigError(`--db ${db}: ${dbProblem}`);
      if (flags.migrateOnly) {
        if (db === undefined) throw new ConfigError('--migrate-only needs --db (or EDGEOPS_DATABASE_URL): an in-memory database has nothing to migrate');
        const { migrateStore } = await loadService('edgeops serve --migrate-only', db);
        const migrated = await migrateStore(db).catch((err: unknown) => {
          throw storeError(err, db, postgres, source);
        });
        const what = migrated.from === migrated.to ? `already at version ${migrated.to}` : `migrated from version ${migrated.from} to ${migrated.to}`;
        ctx.out(`${postgres ? shownDatabaseUrl(db) : db}: schema ${what}\n`);
        done(0);
        return;
      }
      const { startService } = await loadService('edgeops serve', db);
      const service = await startService({
        host: flags.host, port, apiKeys: flags.apiKey, accounts: flags.account, accountsFile: flags.accounts, allowAnyKey: flags.allowAnyKey, db, poolSize, rateLimit, faults, durability: flags.durability, logRequests: !flags.quiet,
      }).catch((err: unknown) => {
        throw storeError(listenError(err, flags.host, port), db, postgres, source);
      });
      ctx.out(`edgeops service listening on ${service.url}\n`);
      const where = db === undefined ? 'in memory (pass --db FILE to keep data)' : postgres ? `${shownDatabaseUrl(db)}, pool of ${poolSize}` : db;
      ctx.out(`  storage: ${service.backend}, ${where}\n`);
      ctx.out(`  accounts: ${service.accounts.length > 0 ? service.accounts.join(', ') : openAccounts(flags.host, flags.allowAnyKey ?? false)}\n`);
      for (const warning of service.warnings) ctx.err(`Warning: ${warning}\n`);
      if (rateLimit !== undefined) ctx.out(`  rate limit: ${rateLimit} requests per 60 s per key\n`);
      if (flags.faults !== undefined) ctx.out(`  faults: ${flags.faults}\n`);
      if (flags.durability === 'relaxed') ctx.out('  durability: relaxed (an answered write may be lost on power loss)\n');
      ctx.out('Press Ctrl-C to stop.\n');
      const signal = await waitForStopSignal();
      ctx.out(`${signal}: closing (requests in flight get up to 10 s)\n`);
      await service.close({ graceMs: 10_000 });
      done(0);
    });
}
