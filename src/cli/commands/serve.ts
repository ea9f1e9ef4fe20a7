// `edgeops serve`: run the Edge Configuration Management Service until SIGINT/SIGTERM. The service module is
// loaded by a lazy import() only (DESIGN 9.6), so the reconciler commands never load it.
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
  db?: string;
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
export function dbPathProblem(file: string): string | undefined {
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

/** A database the store could not open, as a ConfigError naming the path. */
function storeError(err: unknown, file: string | undefined): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (file === undefined || typeof code !== 'string' || !code.startsWith('SQLITE_')) return err;
  const why = code === 'SQLITE_NOTADB' ? 'not an SQLite database' : code === 'SQLITE_CANTOPEN' ? 'cannot be opened' : (err as Error).message;
  return new ConfigError(`--db ${file}: ${why} (${code})`);
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
    .addOption(new Option('--api-key <key>', 'accepted API key; repeat for several').argParser((v: string, prev: string[]) => [...prev, v]).default([]))
    .addOption(new Option('--db <file>', 'SQLite database file (omitted: in memory, lost on exit)'))
    .addOption(new Option('--rate-limit <n>', 'requests per 60 s per API key, then 429 (default: off)'))
    .addOption(new Option('--durability <mode>', 'full: a write is answered once it survives power loss; relaxed: faster, for tests and benchmarks (an answered write may be lost on power loss)').choices(['full', 'relaxed']).default('full'))
    .addOption(new Option('--quiet', 'do not log each request (method, path, status, ms) to stderr'))
    .addOption(new Option('--faults <spec>', 'inject faults for testing: error=P,status=500|502|503,rate429=P,retryAfter=S,latency=MS,drop=P,methods=M|M,seed=N (default: off)'))
    .addHelpText('after', `
Runs until SIGINT or SIGTERM, then closes cleanly. Clients send Authorization: Bearer <key> and Service-Version: 2.

Examples:
  $ edgeops serve --port 4010 --api-key dev --db ./edge.db
  $ edgeops serve --host 0.0.0.0 --api-key "$KEY_A" --api-key "$KEY_B" --rate-limit 120
  $ edgeops serve --api-key dev --faults 'error=0.1,rate429=0.05,drop=0.05,latency=10,methods=POST|PATCH|PUT|DELETE,seed=42'
  $ curl -H 'Authorization: Bearer dev' -H 'Service-Version: 2' http://127.0.0.1:4010/ip_policies`)
    .action(async (flags: ServeFlags) => {
      const port = integerSetting(flags.port, '--port', 'port', 0, 65535);
      const rateLimit = flags.rateLimit === undefined ? undefined : integerSetting(flags.rateLimit, '--rate-limit', 'rate limit', 1, 1_000_000);
      const faults = flags.faults === undefined ? undefined : await parseFaults(flags.faults);
      const dbProblem = flags.db === undefined ? undefined : dbPathProblem(flags.db);
      if (dbProblem) throw new ConfigError(`--db ${flags.db}: ${dbProblem}`);
      const { startService } = await loadService('edgeops serve');
      const service = await startService({
        host: flags.host, port, apiKeys: flags.apiKey, dbFile: flags.db, rateLimit, faults, durability: flags.durability, logRequests: !flags.quiet,
      }).catch((err: unknown) => {
        throw storeError(listenError(err, flags.host, port), flags.db);
      });
      ctx.out(`edgeops service listening on ${service.url}\n`);
      ctx.out(`  storage: ${flags.db ? flags.db : 'in memory (pass --db FILE to keep data)'}\n`);
      ctx.out(`  API keys: ${flags.apiKey.length > 0 ? `${flags.apiKey.length} configured` : 'none configured: any bearer token is accepted'}\n`);
      if (rateLimit !== undefined) ctx.out(`  rate limit: ${rateLimit} requests per 60 s per key\n`);
      if (flags.faults !== undefined) ctx.out(`  faults: ${flags.faults}\n`);
      if (flags.durability === 'relaxed') ctx.out('  durability: relaxed (an answered write may be lost on power loss)\n');
      ctx.out('Press Ctrl-C to stop.\n');
      const signal = await waitForStopSignal();
      ctx.out(`${signal}: closing\n`);
      await service.close();
      done(0);
    });
}
