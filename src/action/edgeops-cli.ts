// The action drives edgeops through its documented CLI (DESIGN 2) as a child process, so it depends on the
// command line contract and the JSON plan format only, never on the engine's internals.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { ActionInputs } from './inputs.ts';

// The Action's bundle (scripts/build.ts) carries the CLI beside its entry; from the sources it is the bin.
declare const EDGEOPS_ACTION_BUNDLE: boolean | undefined;
const BIN = typeof EDGEOPS_ACTION_BUNDLE === 'boolean'
  ? resolve(import.meta.dirname, 'edgeops.mjs')
  : resolve(import.meta.dirname, '../../bin/edgeops.js');

export interface CliRun {
  /** The exit code; 1 when the process died from a signal. */
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Called with each piece of stdout as it arrives (apply streams its progress to the log). */
  onStdout?: (chunk: string) => void;
  /** Called with each piece of stderr as it arrives. */
  onStderr?: (chunk: string) => void;
}

/**
 * The child's environment: the runner's, without the action's inputs and the GitHub token (edgeops needs
 * neither), plus EDGEOPS_* from the inputs. The API key travels in the environment, never on the command
 * line, where any process listing would show it.
 */
export function edgeopsEnv(base: NodeJS.ProcessEnv, inputs: ActionInputs): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (key.startsWith('INPUT_') || key === 'GITHUB_TOKEN' || key === 'FORCE_COLOR') continue;
    env[key] = value;
  }
  if (inputs.apiUrl) env.EDGEOPS_API_URL = inputs.apiUrl;
  if (inputs.apiKey) env.EDGEOPS_API_KEY = inputs.apiKey;
  if (inputs.stack) env.EDGEOPS_STACK = inputs.stack;
  env.NO_COLOR = '1';
  return env;
}

/**
 * The arguments every command takes from the inputs: the paths, and --adopt when the input asks for it (without
 * it, edgeops.yaml's `adopt` still applies: an `export --all` directory adopts on its own).
 */
export function commonArgs(inputs: ActionInputs): string[] {
  return [...inputs.paths, ...(inputs.adopt ? ['--adopt'] : [])];
}

export function runEdgeops(args: string[], opts: CliOptions): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      opts.onStdout?.(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      opts.onStderr?.(chunk);
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}
