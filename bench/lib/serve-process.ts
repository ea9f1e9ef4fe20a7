// `edgeops serve` as an operator runs it, in a child process: `node ENTRY serve --port 0 --db DB --api-key KEY
// --quiet [--pool-size N]` (ENTRY from bench/lib/cli.ts: the bin of an installed copy unless EDGEOPS_BENCH_CLI says otherwise).
// Ready when it prints "listening on URL"; stopped by SIGTERM (its graceful stop), SIGKILL after a grace period.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cliEntry, repoRoot } from './cli.ts';

export interface ServeProcess {
  url: string;
  pid: number;
  apiKey: string;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/** `node` picks the Node binary (default: this process's); `env` adds to the environment (e.g. a SQLite driver). */
export async function startServeProcess(opts: { db: string; apiKey: string; poolSize?: number; extra?: string[]; node?: string; env?: Record<string, string> }): Promise<ServeProcess> {
  const args = [cliEntry(), 'serve', '--port', '0', '--db', opts.db, '--api-key', opts.apiKey, '--quiet', ...(opts.extra ?? [])];
  if (opts.poolSize !== undefined) args.push('--pool-size', String(opts.poolSize));
  const proc = spawn(opts.node ?? process.execPath, args, { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (c: string) => {
    if (process.env.BENCH_VERBOSE) process.stderr.write(c);
    stderr = (stderr + c).slice(-8000);
  });
  const exited = new Promise<void>((resolve) => proc.on('exit', () => (live.delete(proc), resolve())));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`edgeops serve --db ${opts.db}: not listening within 60 s\n${stderr}`)), 60_000);
    const lines = createInterface({ input: proc.stdout! });
    lines.on('line', (line) => {
      const m = /listening on (\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`edgeops serve --db ${opts.db} exited (${proc.exitCode ?? proc.signalCode}) before listening:\n${stderr.trim()}`));
    });
  });
  return {
    url,
    pid: proc.pid!,
    apiKey: opts.apiKey,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
