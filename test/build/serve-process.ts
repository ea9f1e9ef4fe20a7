// `edgeops serve` as a child process on a Node binary of the test's choosing (the machine's, a fetched Node 24),
// for the tests of installs and of the SQLite drivers: its URL and storage line once the banner is out, its
// output, and its exit.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { cleanEnv, ROOT } from '../cli/run.ts';

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** The banner's storage line: 'sqlite (node:sqlite), ...' or 'sqlite (better-sqlite3), ...'. */
  storage: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `COMMAND serve ARGS`, resolved once it listens. COMMAND: a Node binary (which runs the checkout's bin), or
 * [node, bin.js], or an installed bin alone ([prefix/bin/edgeops]).
 */
export function startServe(command: string | string[], args: string[], opts: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<ServeProcess> {
  const [file, ...pre] = typeof command === 'string' ? [command, join(ROOT, 'bin/edgeops.js')] : command;
  const child = spawn(file!, [...pre, 'serve', ...args], { cwd: opts.cwd ?? ROOT, env: cleanEnv(opts.env), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    void exited.then(({ code, signal }) => reject(new Error(`serve exited (${code ?? signal}) before listening: ${stderr}${stdout}`)));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)[\s\S]*?storage: ([^\n]+)[\s\S]*Press Ctrl-C to stop/.exec(stdout);
      if (!m) return;
      resolve({
        child, url: m[1]!, storage: m[2]!, exited, stdout: () => stdout, stderr: () => stderr,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

/** The Node binary's `--version` output, trimmed. */
export function nodeVersion(node: string): Promise<string> {
  return new Promise((resolve, reject) => execFile(node, ['--version'], (err, stdout) => (err ? reject(err) : resolve(stdout.trim()))));
}

/** Whether this Node has node:sqlite without a flag (22.13 and later; 23.4 and later among the 23s). */
export function hasNodeSqlite(version = process.version): boolean {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number) as [number, number];
  return major >= 24 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
}
