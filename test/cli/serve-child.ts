// `edgeops serve` as a child process, for the tests of the command itself: its URL once the banner says it
// listens, its output so far, and its exit code.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, cleanEnv } from './run.ts';

export interface ServeChild {
  child: ChildProcessWithoutNullStreams;
  /** The URL from "listening on URL ... Press Ctrl-C to stop"; rejects if the process exits first. */
  url: Promise<string>;
  exited: Promise<number | null>;
  output(): string;
  errors(): string;
}

/** `edgeops serve ARGS` with a clean environment. */
export function serve(args: string[]): ServeChild {
  const child = spawn(process.execPath, [join(ROOT, 'bin/edgeops.js'), 'serve', ...args], { cwd: ROOT, env: cleanEnv(), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)[\s\S]*Press Ctrl-C to stop/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    child.on('close', () => reject(new Error(`serve exited early: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, url, exited, output: () => stdout, errors: () => stderr };
}
