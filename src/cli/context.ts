// What a command may touch of the process: streams, environment and the redactor every output goes through.
// Commands never call process.exit; they return an exit code or throw (src/main.ts maps errors to codes).
import type { DesiredState } from '../manifest/document.ts';
import { kindByName } from '../kinds/index.ts';
import { createRedactor, secretValues, type Redactor } from '../render/redact.ts';

export interface CliContext {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Set once the manifests are loaded; main.ts passes error messages through it too. */
  redact: Redactor;
  out(text: string): void;
  err(text: string): void;
}

export function createContext(proc: NodeJS.Process = process): CliContext {
  const ctx: CliContext = {
    env: proc.env,
    stdin: proc.stdin,
    stdout: proc.stdout,
    stderr: proc.stderr,
    redact: (text) => text,
    out: (text) => void proc.stdout.write(ctx.redact(text)),
    err: (text) => void proc.stderr.write(ctx.redact(text)),
  };
  return ctx;
}

/** From now on, every output of this run hides the desired state's secret values. */
export function learnSecrets(ctx: CliContext, desired: DesiredState): void {
  ctx.redact = createRedactor(secretValues(desired, (kind) => kindByName(kind)?.secrets ?? []));
}
