// Runs the real bin (`node bin/edgeops.js ...`) as a child process, as a user would, and copies example
// directories to temporary places so --local databases and generated certificates never land in the repo.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/edgeops.js');

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string;
}

/**
 * The parent's environment without any EDGEOPS_* or NO_COLOR, so each test states exactly what it sets (undefined
 * unsets), and with the test run's compile cache (test/global-setup.ts) as NODE_COMPILE_CACHE.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('EDGEOPS_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
  if (process.env.EDGEOPS_TEST_COMPILE_CACHE) env.NODE_COMPILE_CACHE = process.env.EDGEOPS_TEST_COMPILE_CACHE;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

function runNode(script: string, args: string[], opts: RunOptions): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: opts.cwd ?? ROOT, env: cleanEnv(opts.env), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

export function edgeops(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return runNode(BIN, args, opts);
}

/** A temporary copy of examples/<name>; `dispose` removes it. */
export function copyExample(name: string): { dir: string; dispose(): void } {
  const base = mkdtempSync(join(tmpdir(), `edgeops-${name}-`));
  const dir = join(base, name);
  cpSync(join(ROOT, 'examples', name), dir, { recursive: true, filter: (src) => !/[/\\](\.edgeops|certs)$/.test(src) });
  // The examples' shared policy directory, where their edgeops.yaml finds it (`policies: [../policies]`).
  cpSync(join(ROOT, 'examples', 'policies'), join(base, 'policies'), { recursive: true });
  return { dir, dispose: () => rmSync(base, { recursive: true, force: true }) };
}

/** Writes certs/*.pem for a copied example with the example generator, as the README tells users to. */
export async function makeCerts(dir: string): Promise<void> {
  const result = await runNode(join(ROOT, 'examples/make-certs.mjs'), [dir], {});
  if (result.code !== 0) throw new Error(`make-certs failed: ${result.stderr}`);
}

/** Everything a run printed, for assertions that look at both streams. */
export const output = (r: RunResult): string => `${r.stdout}\n${r.stderr}`;
