// What a command may touch of the process: streams, environment and the redactor every output goes through.
// Commands never call process.exit; they return an exit code or throw (src/cli/main.ts maps errors to codes).
import { createRedactor, type Redactor } from '../render/redact.ts';

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

/** The API keys of this run, by context: redacted from every output, with or without manifests. */
const apiKeysOf = new WeakMap<CliContext, string[]>();

/** Every API key the run was given: EDGEOPS_API_KEY and each `--api-key` value (`serve` takes several). */
function apiKeysIn(env: NodeJS.ProcessEnv, argv: readonly string[]): string[] {
  const keys = env.EDGEOPS_API_KEY ? [env.EDGEOPS_API_KEY] : [];
  argv.forEach((arg, i) => {
    if (arg === '--api-key' && argv[i + 1] !== undefined) keys.push(argv[i + 1]!);
    else if (arg.startsWith('--api-key=')) keys.push(arg.slice('--api-key='.length));
  });
  return keys;
}

export function createContext(proc: NodeJS.Process = process): CliContext {
  const apiKeys = apiKeysIn(proc.env, proc.argv.slice(2));
  const ctx: CliContext = {
    env: proc.env,
    // Made when a command asks for it (a prompt): Node builds stdin's stream on first use, and with it the
    // stream and file-handle modules, which a run that never reads stdin does not need.
    get stdin() {
      return proc.stdin;
    },
    stdout: proc.stdout,
    stderr: proc.stderr,
    // From the start, before any manifest is read: API keys and any PEM private key block (render/redact.ts).
    redact: createRedactor(apiKeys),
    out: (text) => void proc.stdout.write(ctx.redact(text)),
    err: (text) => void proc.stderr.write(ctx.redact(text)),
  };
  apiKeysOf.set(ctx, apiKeys);
  return ctx;
}

/** The API keys this run was started with (redacted from every output). */
export function runApiKeys(ctx: CliContext): string[] {
  return apiKeysOf.get(ctx) ?? apiKeysIn(ctx.env, []);
}
