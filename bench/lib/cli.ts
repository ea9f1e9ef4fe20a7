// How the benchmarks start edgeops as a user does: `node ENTRY ARGS...`, timed from spawn to exit. ENTRY is the
// bin of an installed copy (cliEntry) unless EDGEOPS_BENCH_CLI names another entry.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

let entry: string | undefined;

/**
 * bin/edgeops.js as npm installs it: bin/, dist/ and package.json in a directory of their own, with the
 * checkout's node_modules beside them. In the checkout itself the bin first checks that dist/ is not older than
 * any source file (a walk of src/, a few milliseconds), which an installed package never does. Made once per
 * process, from the dist/ that `npm run bench` has just built, and removed at exit.
 */
export function cliEntry(): string {
  if (process.env.EDGEOPS_BENCH_CLI) return process.env.EDGEOPS_BENCH_CLI;
  if (entry) return entry;
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-bench-installed-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(repoRoot, part), join(dir, part), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  entry = join(dir, 'bin', 'edgeops.js');
  return entry;
}

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
  return timeProcess(process.execPath, [...(opts.nodeArgs ?? []), cliEntry(), ...args], opts);
}

/** Fails with the process's own words when it did not exit as expected. */
export function expectExit(run: ProcessRun, codes: number[], what: string): ProcessRun {
  if (!codes.includes(run.code ?? -1)) throw new Error(`${what} exited ${run.code}: ${run.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  return run;
}
