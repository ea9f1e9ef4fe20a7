// A throwaway PostgreSQL cluster for the tests and the benchmarks: initdb into a temp dir, start it listening on a
// unix socket in that dir only (no TCP port to collide on). The tests' has durability off; `durable` (the
// service-scale benchmark's) keeps PostgreSQL's defaults, fsync, synchronous_commit and full_page_writes on, so a
// create the service answered has reached the disk, as with SQLite's synchronous=FULL. The server binaries come from Debian's package
// (/usr/lib/postgresql/<version>/bin), installed with apt-get when missing and running as root. As root the
// server runs as the `postgres` user (PostgreSQL refuses root). The cluster is stopped and its dir removed by
// stop(), on process exit, on SIGINT/SIGTERM, and by a detached watchdog when the process dies by SIGKILL.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test cluster's URL, provided by test/global-setup.ts: `postgresql://postgres@/postgres?host=<socket dir>`. */
    pgUrl: string;
  }
}

export interface PostgresCluster {
  url: string;
  /** e.g. `15.8`: the server's version, as it reports it. */
  version: string;
  /** The server settings a comparison depends on (durability, memory, connections), as the server reports them. */
  settings: Record<string, string>;
  /** Stops the server and removes its dir; a second call does nothing more. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  log?: (line: string) => void;
  /** PostgreSQL's own durability (fsync, synchronous_commit, full_page_writes on) instead of none. */
  durable?: boolean;
}

const execFileAsync = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

/** The highest-version bin dir under /usr/lib/postgresql holding initdb and pg_ctl, or undefined. */
function findServerBin(): string | undefined {
  const versions = existsSync(PG_ROOT) ? readdirSync(PG_ROOT).filter((v) => /^\d+(\.\d+)?$/.test(v)) : [];
  return versions
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join(PG_ROOT, v, 'bin'))
    .find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')) && existsSync(join(bin, 'psql')));
}

async function installServer(log: (line: string) => void): Promise<void> {
  log(`postgres-cluster: no PostgreSQL server under ${PG_ROOT}, installing Debian package postgresql`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    await execFileAsync('apt-get', ['update'], { env, maxBuffer: 64 << 20 });
    await execFileAsync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { env, maxBuffer: 64 << 20 });
  } catch (err) {
    const e = err as Error & { stderr?: string };
    throw new Error(`postgres-cluster: installing the PostgreSQL server with apt-get failed: ${e.message}\n${e.stderr ?? ''}`);
  }
}

/** The server's environment: no PG* variables (PGPORT would move the socket, PGDATA etc. confuse pg_ctl). */
function serverEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')));
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

export async function startPostgresCluster(opts: ClusterOptions = {}): Promise<PostgresCluster> {
  const log = opts.log ?? (() => {});
  const durable = opts.durable ?? false;
  // A durable cluster stops as a real one does (a checkpoint first); the tests' needs no checkpoint.
  const stopMode = durable ? 'fast' : 'immediate';
  const isRoot = process.getuid?.() === 0;
  let bin = findServerBin();
  if (!bin) {
    if (!isRoot) {
      throw new Error(
        `postgres-cluster: no PostgreSQL server found (${PG_ROOT}/<version>/bin/initdb and pg_ctl). ` +
          `Install it, e.g. \`sudo apt-get install postgresql\`, or set EDGEOPS_TEST_PG to the URL of a server to use.`,
      );
    }
    await installServer(log);
    bin = findServerBin();
    if (!bin) throw new Error(`postgres-cluster: apt-get installed postgresql but ${PG_ROOT}/<version>/bin has no initdb and pg_ctl`);
  }

  const dir = mkdtempSync(join(tmpdir(), 'edgeops-pg-'));
  const data = join(dir, 'data');
  const serverLog = join(dir, 'server.log');
  if (isRoot) chownSync(dir, ...postgresIds());
  /** argv running a server binary: through runuser as postgres when root, directly otherwise. */
  const argv = (tool: string, ...args: string[]): [string, string[]] =>
    isRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  const stopArgv = argv('pg_ctl', '-D', data, '-m', stopMode, '-w', 'stop');
  const execOpts = { cwd: '/', env: serverEnv(), timeout: 60_000 };

  /** Synchronous stop and removal, for the exit and signal handlers. */
  const stopSync = (): void => {
    if (existsSync(join(data, 'postmaster.pid'))) {
      try {
        execFileSync(...stopArgv, { ...execOpts, stdio: 'ignore' });
      } catch {
        // Removing the dir below still ends it: a postmaster whose lock file is gone shuts itself down.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const onExit = (): void => stopSync();
  const onSignal = (signal: NodeJS.Signals): void => {
    unregister();
    stopSync();
    // Another listener (vitest's own) decides how to exit; alone, exit as the signal would have.
    if (process.listenerCount(signal) === 0) process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  const unregister = (): void => {
    process.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  startWatchdog(dir, stopArgv);

  const run = async (tool: string, ...args: string[]): Promise<string> => {
    try {
      return (await execFileAsync(...argv(tool, ...args), execOpts)).stdout;
    } catch (err) {
      const e = err as Error & { stdout?: string; stderr?: string };
      const output = `${e.stdout ?? ''}${e.stderr ?? ''}`.trim();
      throw new Error(`postgres-cluster: ${tool} failed: ${e.message.split('\n')[0]}\n${output}\n--- ${serverLog} (tail) ---\n${tail(serverLog)}`);
    }
  };

  const started = performance.now();
  let initialized = started;
  try {
    // -N: the tests' cluster skips initdb's syncs too; a durable one syncs its files, as an installation does.
    await run('initdb', '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', ...(durable ? [] : ['-N']));
    initialized = performance.now();
    const durability = durable ? 'fsync=on -c synchronous_commit=on -c full_page_writes=on' : 'fsync=off -c synchronous_commit=off -c full_page_writes=off';
    const serverOpts = `-c listen_addresses='' -k '${dir}' -c ${durability} -c max_connections=${durable ? 100 : 300}`;
    await run('pg_ctl', '-D', data, '-l', serverLog, '-w', '-t', '30', '-o', serverOpts, 'start');
  } catch (err) {
    unregister();
    stopSync();
    throw err;
  }
  const url = `postgresql://postgres@/postgres?host=${dir.split('/').map(encodeURIComponent).join('/')}`;
  const ms = (from: number, to: number): number => Math.round(to - from);
  const psql = (sql: string): Promise<string> => run('psql', '-h', dir, '-U', 'postgres', '-d', 'postgres', '-XAtq', '-c', sql);
  const version = (await psql('SHOW server_version')).trim();
  const settings: Record<string, string> = {};
  const names = "'fsync','synchronous_commit','full_page_writes','wal_sync_method','shared_buffers','max_connections'";
  for (const line of (await psql(`SELECT name || '=' || setting FROM pg_settings WHERE name IN (${names}) ORDER BY name`)).trim().split('\n')) {
    const [name, value] = line.split('=');
    settings[name!] = value!;
  }
  log(`postgres-cluster: ${bin} ready in ${ms(started, performance.now())} ms (initdb ${ms(started, initialized)} ms) at ${url}, ${Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(' ')}`);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      unregister();
      try {
        if (existsSync(join(data, 'postmaster.pid'))) await run('pg_ctl', '-D', data, '-m', stopMode, '-w', 'stop');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    })());
  return { url, version, settings, stop };
}

/** uid and gid of the `postgres` user, who owns the cluster when the tests run as root. */
function postgresIds(): [number, number] {
  try {
    const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return [id('-u'), id('-g')];
  } catch {
    throw new Error("postgres-cluster: running as root needs the `postgres` user (created by Debian's postgresql package)");
  }
}

/**
 * A detached `node -e` process outliving a SIGKILLed parent: every 500 ms, while the parent lives it waits; once the
 * parent is gone it stops the cluster (immediate) and removes the dir. It exits by itself when the dir is gone or
 * the cluster has stopped (postmaster.pid seen, then gone).
 */
function startWatchdog(dir: string, stopArgv: [string, string[]]): void {
  const script = `
    const { existsSync, rmSync } = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const [parent, dir, stop] = [Number(process.argv[1]), process.argv[2], JSON.parse(process.argv[3])];
    const pidFile = dir + '/data/postmaster.pid';
    let seen = false;
    setInterval(() => {
      if (!existsSync(dir) || (seen && !existsSync(pidFile))) process.exit(0);
      seen ||= existsSync(pidFile);
      try { process.kill(parent, 0); return; } catch (e) { if (e.code === 'EPERM') return; }
      try { execFileSync(stop[0], stop[1], { cwd: '/', stdio: 'ignore', timeout: 30000 }); } catch {}
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }, 500);`;
  spawn(process.execPath, ['-e', script, String(process.pid), dir, JSON.stringify(stopArgv)], {
    detached: true,
    stdio: 'ignore',
    cwd: '/',
    env: { ...serverEnv(), NODE_OPTIONS: '' },
  }).unref();
}
