// How the benchmarks start edgeops as a user does: `node ENTRY ARGS...`, timed from spawn to exit. ENTRY is
// bin/edgeops.js unless EDGEOPS_BENCH_CLI names another entry (the one place to change when the bin moves).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const CLI_ENTRY = process.env.EDGEOPS_BENCH_CLI ?? `${repoRoot}bin/edgeops.js`;

export interface ProcessRun {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args...` to its exit; the time covers the whole process, start-up included. */
export function timeProcess(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: opts.cwd ?? repoRoot, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-8000)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code, stdout, stderr }));
  });
}

/** `edgeops ARGS...` as a user runs it; `nodeArgs` go to node ahead of the entry (a measuring `--import`). */
export function timeEdgeops(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; nodeArgs?: string[] } = {}): Promise<ProcessRun> {
  return timeProcess(process.execPath, [...(opts.nodeArgs ?? []), CLI_ENTRY, ...args], opts);
}

/** Fails with the process's own words when it did not exit as expected. */
export function expectExit(run: ProcessRun, codes: number[], what: string): ProcessRun {
  if (!codes.includes(run.code ?? -1)) throw new Error(`${what} exited ${run.code}: ${run.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  return run;
}
