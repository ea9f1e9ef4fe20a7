// Child processes speak JSON lines on stdout: the first line says they are ready (with a URL or a result),
// later lines carry results. Stderr is kept (tail only) so a failing child explains itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const benchDir = fileURLToPath(new URL('..', import.meta.url));

// Children must not outlive the run, even when it is interrupted or a benchmark throws.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    for (const p of live) p.kill('SIGKILL');
    process.exit(130);
  });
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  /** Resolves with the next JSON line the child prints. */
  next<T = Record<string, unknown>>(timeoutMs?: number): Promise<T>;
  /** SIGTERM, then SIGKILL after a grace period; resolves when the process has exited. */
  stop(): Promise<void>;
  stderrTail(): string;
}

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir=...']. */
  nodeArgs?: string[];
}

/** Starts `node --import tsx <script> ...args` (a .ts file under bench/) and waits for nothing yet. */
export function spawnTs(script: string, args: string[], opts: SpawnOptions = {}): Child {
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', script, ...args], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(proc);
  let stderr = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (chunk: string) => {
    if (process.env.BENCH_VERBOSE) process.stderr.write(chunk);
    stderr = (stderr + chunk).slice(-8000);
  });

  const queue: Record<string, unknown>[] = [];
  const waiters: { resolve(v: Record<string, unknown>): void; reject(e: Error): void }[] = [];
  let exited: Error | undefined;
  const lines = createInterface({ input: proc.stdout! });
  lines.on('line', (line) => {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      if (process.env.BENCH_VERBOSE) process.stderr.write(`[child ${proc.pid}] ${line}\n`);
      return; // a library's stray log line, not a message
    }
    const w = waiters.shift();
    if (w) w.resolve(msg);
    else queue.push(msg);
  });
  const exitPromise = new Promise<void>((resolve) => {
    proc.on('exit', (code, signal) => {
      live.delete(proc);
      exited = new Error(`${script} exited (${signal ?? code}) before answering:\n${stderr.trim()}`);
      for (const w of waiters.splice(0)) w.reject(exited);
      resolve();
    });
  });

  return {
    proc,
    pid: proc.pid!,
    next<T>(timeoutMs = 600_000): Promise<T> {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued as T);
      if (exited) return Promise.reject(exited);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${script}: no answer within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          resolve: (v) => (clearTimeout(timer), resolve(v as T)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
      });
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exitPromise;
      clearTimeout(killer);
    },
    stderrTail: () => stderr,
  };
}

/** Resolves a script path relative to bench/. */
export function benchScript(rel: string): string {
  return `${benchDir}${rel}`;
}
