// A throwaway PostgreSQL cluster for the benchmarks, with production durability: fsync, synchronous_commit and
// full_page_writes on (PostgreSQL's defaults), so a create answered by the service has reached the disk, as with
// SQLite's synchronous=FULL. The tests' cluster (test/support/postgres-cluster.ts) turns all three off and takes
// no server options, hence this starter. Same commands otherwise: initdb + pg_ctl from Debian's package
// (/usr/lib/postgresql/<version>/bin), as the `postgres` user when running as root, listening on a unix socket in
// its own temp dir only (no TCP port). The data dir lives under the OS temp dir, on the same file system as the
// benchmarks' SQLite files. Stopped and removed by stop() or on exit; no server install here (the tests do that).
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

export interface BenchPostgres {
  /** `postgresql://postgres@/postgres?host=<socket dir>`; add `&schema=NAME` for a private schema. */
  url: string;
  /** e.g. `PostgreSQL 15.x` */
  version: string;
  /** The server settings that matter for the comparison, as the server reports them. */
  settings: Record<string, string>;
  stop(): Promise<void>;
}

function serverBin(): string {
  const versions = existsSync(PG_ROOT) ? readdirSync(PG_ROOT).filter((v) => /^\d+(\.\d+)?$/.test(v)) : [];
  const bin = versions
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join(PG_ROOT, v, 'bin'))
    .find((b) => existsSync(join(b, 'initdb')) && existsSync(join(b, 'pg_ctl')) && existsSync(join(b, 'psql')));
  if (!bin) throw new Error(`no PostgreSQL server under ${PG_ROOT}/<version>/bin (initdb, pg_ctl, psql); install Debian's postgresql package (npm test does it as root)`);
  return bin;
}

export async function startDurablePostgres(log: (m: string) => void = () => {}): Promise<BenchPostgres> {
  const bin = serverBin();
  const isRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-bench-pg-'));
  const data = join(dir, 'data');
  const serverLog = join(dir, 'server.log');
  if (isRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const argv = (tool: string, ...args: string[]): [string, string[]] =>
    isRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  // No PG* variables: PGPORT would move the socket, PGDATA confuse pg_ctl.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')));
  const execOpts = { cwd: '/', env, timeout: 60_000 };
  const stopArgv = argv('pg_ctl', '-D', data, '-m', 'fast', '-w', 'stop');

  const stopSync = () => {
    if (existsSync(join(data, 'postmaster.pid'))) {
      try {
        execFileSync(...stopArgv, { ...execOpts, stdio: 'ignore' });
      } catch {
        // removing the dir below still ends it: a postmaster whose lock file is gone shuts itself down
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopSync);

  const run = async (tool: string, ...args: string[]): Promise<string> => {
    try {
      return (await execFileAsync(...argv(tool, ...args), execOpts)).stdout;
    } catch (err) {
      const e = err as Error & { stdout?: string; stderr?: string };
      let tail = '';
      try {
        tail = readFileSync(serverLog, 'utf8').trimEnd().split('\n').slice(-20).join('\n');
      } catch {
        // no log yet
      }
      throw new Error(`bench postgres: ${tool} failed: ${e.message.split('\n')[0]}\n${e.stdout ?? ''}${e.stderr ?? ''}\n${tail}`);
    }
  };

  const started = performance.now();
  try {
    // No -N: initdb syncs its files, as a real installation does.
    await run('initdb', '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C');
    const opts = `-c listen_addresses='' -k '${dir}' -c fsync=on -c synchronous_commit=on -c full_page_writes=on -c max_connections=100`;
    await run('pg_ctl', '-D', data, '-l', serverLog, '-w', '-t', '30', '-o', opts, 'start');
  } catch (err) {
    process.off('exit', stopSync);
    stopSync();
    throw err;
  }
  const psql = (sql: string) => run('psql', '-h', dir, '-U', 'postgres', '-d', 'postgres', '-XAtq', '-c', sql);
  const version = (await psql('SHOW server_version')).trim();
  const settings: Record<string, string> = {};
  for (const line of (await psql(`SELECT name || '=' || setting FROM pg_settings WHERE name IN ('fsync','synchronous_commit','full_page_writes','wal_sync_method','shared_buffers','max_connections') ORDER BY name`)).trim().split('\n')) {
    const [k, v] = line.split('=');
    settings[k!] = v!;
  }
  log(`postgres ${version} ready in ${Math.round(performance.now() - started)} ms (${Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(' ')})`);
  if (settings.fsync !== 'on' || settings.synchronous_commit !== 'on') throw new Error(`bench postgres: durability is off (${JSON.stringify(settings)})`);

  let stopping: Promise<void> | undefined;
  return {
    url: `postgresql://postgres@/postgres?host=${dir.split('/').map(encodeURIComponent).join('/')}`,
    version,
    settings,
    stop: () =>
      (stopping ??= (async () => {
        process.off('exit', stopSync);
        try {
          if (existsSync(join(data, 'postmaster.pid'))) await run('pg_ctl', '-D', data, '-m', 'fast', '-w', 'stop');
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      })()),
  };
}
