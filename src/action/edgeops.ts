// The Action runs edgeops in its own process: the same operations as the CLI (src/operations), with the same
// settings, connection, redaction and error lines, and views of its own. What a run prints is kept as the
// CLI would print it (`stdout`: the Markdown plan or drift report, or apply's progress; `stderr`: notices and
// the error lines), so a failure's comment and summary quote it, and goes to the job log line by line.
import type { Api } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { connectRemote } from '../operations/connection.ts';
import { redactorFor } from '../operations/redactor.ts';
import { resolveSettings, type Settings } from '../operations/settings.ts';
import { loadDesired } from '../pipeline.ts';
import { errorText, failureToJson, type JsonFailure, type JsonProblem } from '../render/error-text.ts';
import { EdgeopsError } from '../errors.ts';
import type { Session } from './session.ts';

export interface EdgeopsRun {
  /** The CLI's exit code for the same run: 0, 2 (plan: changes; drift: drifted) or 1. */
  code: number;
  stdout: string;
  stderr: string;
  /** A failure's manifest problems and plan errors, each with its file, line and column. */
  problems: JsonProblem[];
  /** The failure as the CLI's JSON reports carry it (redacted), when the run failed. */
  failure?: JsonFailure;
}

/** Where a run writes: `out` is its report, `err` its notices; both pass through the run's redactor. */
export interface RunOutput {
  out(text: string): void;
  err(text: string): void;
}

/**
 * The command line of the same run, for the log (`$ edgeops plan infra --adopt ...`): the paths, and --adopt
 * when the input asks for it (without it, edgeops.yaml's `adopt` still applies).
 */
export function commandLine(s: Session, command: string, extra: string[] = []): string {
  return ['edgeops', command, ...s.inputs.paths, ...(s.inputs.adopt ? ['--adopt'] : []), ...extra].join(' ');
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

/**
 * Runs `work` as `$ LINE` would run: its report reaches the log when `echo` is set, its notices always (on
 * stderr); what it throws becomes the CLI's error lines and exit code (src/render/error-text.ts).
 */
export async function runEdgeops(s: Session, line: string, echo: boolean, work: (o: RunOutput) => Promise<number>): Promise<EdgeopsRun> {
  s.runner.info(`$ ${line}`);
  const run: EdgeopsRun = { code: 0, stdout: '', stderr: '', problems: [] };
  const log = lineWriter((text) => s.runner.info(text));
  const errLog = lineWriter((text) => void process.stderr.write(`${s.runner.scrub(text)}\n`));
  const output: RunOutput = {
    out(text) {
      const clean = s.redact(text);
      run.stdout += clean;
      if (echo) log.push(clean);
    },
    err(text) {
      const clean = s.redact(text);
      run.stderr += clean;
      errLog.push(clean);
    },
  };
  try {
    run.code = await work(output);
  } catch (err) {
    const failed = errorText(err);
    output.err(failed.text);
    if (failed.internal && s.edgeopsEnv.EDGEOPS_DEBUG && err instanceof Error && err.stack) output.err(`${err.stack}\n`);
    run.code = failed.exitCode;
    const json = failureToJson(err);
    run.failure = { code: json.code, message: s.redact(json.message), problems: json.problems.map((p) => ({ ...p, message: s.redact(p.message) })) };
    if (err instanceof EdgeopsError) run.problems = run.failure.problems;
  } finally {
    log.end();
    errLog.end();
  }
  return run;
}

/** The API keys of the run: redacted from everything it prints, with or without manifests. */
const apiKeys = (s: Session): string[] => (s.edgeopsEnv.EDGEOPS_API_KEY ? [s.edgeopsEnv.EDGEOPS_API_KEY] : []);

/** The manifests of the run; from here on their secret values are redacted too. Every run plans from them. */
export async function loadManifests(s: Session): Promise<DesiredState> {
  const desired = await loadDesired(s.inputs.paths, s.edgeopsEnv, { wholeStacks: s.inputs.command });
  s.redact = redactorFor(desired, apiKeys(s));
  return desired;
}

/** The settings of the run, as the CLI resolves them from the same flags, environment and edgeops.yaml. */
export function runSettings(s: Session, desired: DesiredState): Settings {
  return resolveSettings({ color: false, adopt: s.inputs.adopt ? true : undefined }, s.edgeopsEnv, desired.config, false);
}

/** Runs `fn` with the service the settings name, and always closes the connection. */
export async function withService<T>(settings: Settings, o: RunOutput, fn: (api: Api) => Promise<T>): Promise<T> {
  const conn = connectRemote(settings, (text) => o.err(text));
  try {
    return await fn(conn.api);
  } finally {
    await conn.close();
  }
}
