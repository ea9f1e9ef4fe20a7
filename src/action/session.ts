// Everything one run of the action works with: inputs, the event, the runner, and edgeops as a child process
// whose output reaches the log line by line through the runner's scrubber.
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_STACK, resolveStack } from '../cli/settings.ts';
import { readProjectConfig } from '../manifest/discover.ts';
import { edgeopsEnv, runEdgeops, type CliRun } from './edgeops-cli.ts';
import { ActionInputError, type ActionInputs, type GitHubContext } from './inputs.ts';
import type { Runner } from './runner.ts';

export interface Session {
  env: NodeJS.ProcessEnv;
  inputs: ActionInputs;
  github: GitHubContext;
  runner: Runner;
  /** Where edgeops runs and the paths are relative to. */
  cwd: string;
  /** Where the plan files go (RUNNER_TEMP on a runner). */
  tempDir: string;
  /** Runs `edgeops ARGS`; stderr always goes to the log, stdout too when `echo` is set. */
  edgeops(args: string[], opts?: { echo?: boolean }): Promise<CliRun>;
}

/** Splits a stream into whole lines, so a secret is never cut in two between chunks before it is scrubbed. */
function lineWriter(write: (line: string) => void): { push(chunk: string): void; end(): void } {
  let pending = '';
  return {
    push(chunk) {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) write(line);
    },
    end() {
      if (pending !== '') write(pending);
      pending = '';
    },
  };
}

export function createSession(env: NodeJS.ProcessEnv, inputs: ActionInputs, github: GitHubContext, runner: Runner): Session {
  const cwd = resolve(inputs.workingDirectory ?? '.');
  // A JavaScript action has no step working-directory for the runner to check: a missing one would surface as
  // `spawn node ENOENT`.
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ActionInputError(`input working-directory: ${inputs.workingDirectory} is not a directory (relative to ${process.cwd()})`);
  }
  const childEnv = edgeopsEnv(env, inputs);
  return {
    env,
    inputs,
    github,
    runner,
    cwd,
    tempDir: env.RUNNER_TEMP || tmpdir(),
    async edgeops(args, opts = {}) {
      runner.info(`$ edgeops ${args.join(' ')}`);
      const out = lineWriter((line) => runner.info(line));
      const err = lineWriter((line) => void process.stderr.write(`${runner.scrub(line)}\n`));
      const run = await runEdgeops(args, {
        env: childEnv,
        cwd,
        onStdout: opts.echo ? (chunk) => out.push(chunk) : undefined,
        onStderr: (chunk) => err.push(chunk),
      });
      out.end();
      err.end();
      return run;
    },
  };
}

/**
 * The stack of this run, for reports of a command that failed before it could print one (an invalid manifest,
 * a refused key): resolved exactly as the CLI resolves it (the `stack` input, which reaches the CLI as
 * --stack would, > EDGEOPS_STACK > edgeops.yaml's stack > "default"), by the CLI's own settings code, so a
 * failure lands in the same pull-request comment as the plans of that stack.
 */
export function runStack(s: Session): string {
  try {
    return resolveStack(s.inputs.stack, s.env, readProjectConfig(s.inputs.paths, s.cwd).config);
  } catch {
    // An invalid stack name: the CLI failed on it too, and no comment can carry it; the default stack's can.
    return DEFAULT_STACK;
  }
}
