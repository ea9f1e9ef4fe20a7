// Everything one run of the action works with: inputs, the event, the runner, the environment the operations
// resolve their settings from, and the redactor every text they print passes through (src/action/edgeops.ts).
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_STACK, resolveStack } from '../operations/settings.ts';
import { readProjectConfig } from '../manifest/discover.ts';
import { createRedactor, type Redactor } from '../render/redact.ts';
import { ActionInputError, type ActionInputs, type GitHubContext } from './inputs.ts';
import type { Runner } from './runner.ts';

export interface Session {
  env: NodeJS.ProcessEnv;
  /** The environment of the operations: the runner's, with EDGEOPS_* from the inputs. */
  edgeopsEnv: NodeJS.ProcessEnv;
  inputs: ActionInputs;
  github: GitHubContext;
  runner: Runner;
  /** Where edgeops runs and the paths are relative to. */
  cwd: string;
  /** Where the plan files go (RUNNER_TEMP on a runner). */
  tempDir: string;
  /** The API key from the start; the manifests' secret values too once they are read. */
  redact: Redactor;
}

/**
 * The environment the operations resolve their settings from: the runner's, with EDGEOPS_* from the inputs
 * (so an input wins over a variable of the workflow, as a flag would) and without colour.
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

export function createSession(env: NodeJS.ProcessEnv, inputs: ActionInputs, github: GitHubContext, runner: Runner): Session {
  const cwd = resolve(inputs.workingDirectory ?? '.');
  // A JavaScript action has no step working-directory for the runner to check: say so before anything runs.
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ActionInputError(`input working-directory: ${inputs.workingDirectory} is not a directory (relative to ${process.cwd()})`);
  }
  // The paths, the snapshot and the positions of manifest problems read as they would in a shell in that
  // directory; the action's process runs nothing else.
  process.chdir(cwd);
  const opEnv = edgeopsEnv(env, inputs);
  return {
    env,
    edgeopsEnv: opEnv,
    inputs,
    github,
    runner,
    cwd,
    tempDir: env.RUNNER_TEMP || tmpdir(),
    redact: createRedactor(opEnv.EDGEOPS_API_KEY ? [opEnv.EDGEOPS_API_KEY] : []),
  };
}

/**
 * The stack of this run, for reports of a command that failed before it could print one (an invalid manifest,
 * a refused key): resolved exactly as a run resolves it (the `stack` input, which counts as --stack would,
 * > EDGEOPS_STACK > edgeops.yaml's stack > "default"), by the shared settings code, so a failure lands in the
 * same pull-request comment as the plans of that stack.
 */
export function runStack(s: Session): string {
  try {
    return resolveStack(s.inputs.stack, s.env, readProjectConfig(s.inputs.paths, s.cwd).config);
  } catch {
    // An invalid stack name: the run failed on it too, and no comment can carry it; the default stack's can.
    return DEFAULT_STACK;
  }
}
