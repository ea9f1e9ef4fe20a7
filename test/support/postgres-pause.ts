// Stops and starts again a throwaway cluster of test/support/postgres-cluster.ts, so a test can take the database
// away from a running service and give it back (the outage tests). The cluster's own module is left as it is:
// this reads what it needs from the running server itself. postmaster.opts names the server binary (so pg_ctl
// comes from the same bin dir) and the exact options it was started with, which `pg_ctl start` is given again:
// the same socket dir, so the same URL reaches it. As root, pg_ctl runs as the `postgres` user, as there.
//
// While paused, the cluster's watchdog (which exits once it sees the server stopped) is gone: stop() and the
// process exit handler still stop a resumed cluster.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { PostgresCluster } from './postgres-cluster.ts';

const execFileAsync = promisify(execFile);

export interface PausableCluster {
  /** Stops the server (fast mode: sessions are ended, the socket goes away). Resolves once it is down. */
  pause(): Promise<void>;
  /** Starts it again with the options it had; resolves once it accepts connections. */
  resume(): Promise<void>;
}

/** The socket dir of a `postgresql://postgres@/postgres?host=DIR` URL (WHATWG URL refuses a user without a host). */
export function socketDirOf(url: string): string {
  const m = /[?&]host=([^&]+)/.exec(url);
  if (!m) throw new Error(`postgres-pause: no host= socket dir in ${url}`);
  return decodeURIComponent(m[1]!);
}

/** The double-quoted words of postmaster.opts: the binary, then each argument. */
function words(opts: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (let m = re.exec(opts); m; m = re.exec(opts)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!);
  return out;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function pausable(cluster: PostgresCluster): PausableCluster {
  const dir = socketDirOf(cluster.url);
  const data = join(dir, 'data');
  const optsFile = join(data, 'postmaster.opts');
  if (!existsSync(optsFile)) throw new Error(`postgres-pause: ${optsFile} is missing: is the cluster running?`);
  const [server, ...args] = words(readFileSync(optsFile, 'utf8').trim());
  const bin = dirname(server!);
  // Everything but -D DATA, which pg_ctl passes itself.
  const serverArgs = args.filter((a, i) => a !== '-D' && args[i - 1] !== '-D');
  const isRoot = process.getuid?.() === 0;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')));
  const pgCtl = async (...a: string[]): Promise<void> => {
    const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...a]] : [join(bin, 'pg_ctl'), a];
    try {
      await execFileAsync(file, argv, { cwd: '/', env, timeout: 60_000 });
    } catch (err) {
      const e = err as Error & { stdout?: string; stderr?: string };
      throw new Error(`postgres-pause: pg_ctl ${a.at(-1)} failed: ${e.message.split('\n')[0]}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  };
  return {
    pause: () => pgCtl('-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'),
    resume: () => pgCtl('-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', serverArgs.map(shellQuote).join(' '), 'start'),
  };
}
