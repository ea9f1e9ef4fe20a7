// Runs the action as the runner runs a JavaScript action: `node <runs.main of action.yml>`, the committed bundle
// (not the sources), as a process with the GITHUB_* environment of one event: the event payload in a file,
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as real files in a temp RUNNER_TEMP, the inputs as INPUT_* variables
// named as the runner names them, and manifests written into a temp workspace.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, expect } from 'vitest';
import { late } from '../helpers/late.ts';
import { fileTempDir } from '../helpers/temp-dirs.ts';
import { startGitHubStub, type GitHubStub } from './github-stub.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { using: string; main: string } };

/**
 * The action as a runner has it: action.yml and the committed bundle copied into a directory of their own, with
 * no node_modules anywhere above, so a run proves the action needs nothing installed. Made once per test file.
 */
let actionPath: string | undefined;
function actionDir(): string {
  if (actionPath && existsSync(actionPath)) return actionPath;
  const dir = fileTempDir('edgeops-action-path-');
  cpSync(join(ROOT, 'action.yml'), join(dir, 'action.yml'));
  cpSync(join(ROOT, dirname(ACTION.runs.main)), join(dir, dirname(ACTION.runs.main)), { recursive: true });
  return (actionPath = dir);
}

/** The runner's variable for an input: `INPUT_` and the name in upper case, spaces as `_`, `-` kept. */
export const inputVariable = (name: string): string => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
export const REPOSITORY = 'acme/infra';

export type Doc = { kind: string; name: string } & Record<string, unknown>;

export interface Workspace {
  dir: string;
  /** Replaces the manifests (one file, infra/all.yaml) and edgeops.yaml (stack). */
  write(docs: Doc[]): void;
  dispose(): void;
}

export function workspace(stack: string): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-action-ws-'));
  mkdirSync(join(dir, 'infra'));
  writeFileSync(join(dir, 'infra', 'edgeops.yaml'), `stack: ${stack}\n`);
  return {
    dir,
    write: (docs) => writeFileSync(join(dir, 'infra', 'all.yaml'), docs.map((d) => stringify(d)).join('---\n')),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The GitHub stand-in for the whole test file: started in beforeAll, closed in afterAll. */
export function gitHubForFile(): GitHubStub {
  const gh = late<GitHubStub>('the GitHub stand-in');
  beforeAll(async () => {
    gh.set(await startGitHubStub());
  });
  afterAll(async () => {
    await gh.get()?.close();
  });
  return gh.ref;
}

export interface EventSpec {
  name: string;
  payload: Record<string, unknown>;
  ref: string;
  sha: string;
}

export const pullRequest = (number: number, headSha: string): EventSpec => ({
  name: 'pull_request',
  payload: { number, pull_request: { number, head: { sha: headSha, ref: 'feature' } }, repository: { default_branch: 'main' } },
  ref: `refs/pull/${number}/merge`,
  sha: `merge${headSha}`.slice(0, 40),
});

export const push = (branch: string, sha = 'a'.repeat(40)): EventSpec => ({
  name: 'push',
  payload: { ref: `refs/heads/${branch}`, after: sha, repository: { default_branch: 'main' } },
  ref: `refs/heads/${branch}`,
  sha,
});

export const dispatch = (sha = 'd'.repeat(40)): EventSpec => ({
  name: 'workflow_dispatch', payload: { inputs: {}, ref: 'refs/heads/main', repository: { default_branch: 'main' } }, ref: 'refs/heads/main', sha,
});

export const schedule = (): EventSpec => ({ name: 'schedule', payload: { schedule: '17 6 * * *' }, ref: 'refs/heads/main', sha: 'b'.repeat(40) });

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** GITHUB_OUTPUT parsed (the last value of a name wins, as on the runner). */
  outputs: Record<string, string>;
  summary: string;
  /** Every file the run left in RUNNER_TEMP (the plan JSON), by name. */
  tempFiles: Record<string, string>;
}

/** GITHUB_OUTPUT in both documented forms: `name=value` and `name<<DELIM ... DELIM`. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      expect(end, `unterminated output ${heredoc[1]}`).toBeGreaterThan(i);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

export async function runAction(opts: {
  event: EventSpec;
  inputs: Record<string, string>;
  cwd: string;
  github?: GitHubStub;
  /** Sends `signal` to the action once its output holds `text`, as the runner does when the job is cancelled. */
  signalWhen?: { text: string; signal: NodeJS.Signals };
}): Promise<ActionRun> {
  const temp = mkdtempSync(join(tmpdir(), 'edgeops-action-run-'));
  const files = { event: join(temp, 'event.json'), output: join(temp, 'output'), summary: join(temp, 'summary.md'), runner: join(temp, 'runner-temp') };
  mkdirSync(files.runner);
  writeFileSync(files.event, JSON.stringify(opts.event.payload));
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');

  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(EDGEOPS_|GITHUB_|INPUT_|RUNNER_)/.test(k) && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
  }
  Object.assign(env, {
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: opts.event.name,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_WORKSPACE: opts.cwd,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_REF: opts.event.ref,
    GITHUB_SHA: opts.event.sha,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_API_URL: opts.github?.apiUrl ?? 'http://127.0.0.1:9',
    GITHUB_RUN_ID: '4242',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    RUNNER_TEMP: files.runner,
    GITHUB_ACTION_PATH: actionDir(),
  });
  if (opts.github) env[inputVariable('github-token')] = opts.github.token;
  for (const [name, value] of Object.entries(opts.inputs)) env[inputVariable(name)] = value;

  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, [join(actionDir(), ACTION.runs.main)], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const watch = (): void => {
      if (!opts.signalWhen || signalled || !`${stdout}${stderr}`.includes(opts.signalWhen.text)) return;
      signalled = true;
      child.kill(opts.signalWhen.signal);
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; watch(); });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; watch(); });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
  const tempFiles = Object.fromEntries(readdirSync(files.runner).map((f) => [f, readFileSync(join(files.runner, f), 'utf8')]));
  const run: ActionRun = {
    ...result,
    outputs: parseOutputs(readFileSync(files.output, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
    tempFiles,
  };
  rmSync(temp, { recursive: true, force: true });
  return run;
}

/**
 * The secret appears nowhere: not in the log (except the one `::add-mask::` line, which the runner consumes
 * and never shows), the outputs, the job summary, the files left behind, or anything sent to GitHub.
 */
export function expectSecretAbsent(run: ActionRun, secret: string, github?: GitHubStub): void {
  const log = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n');
  const places: Record<string, string> = {
    stdout: log,
    stderr: run.stderr,
    outputs: JSON.stringify(run.outputs),
    summary: run.summary,
    files: JSON.stringify(run.tempFiles),
    github: JSON.stringify(github?.requests ?? []),
  };
  for (const [where, text] of Object.entries(places)) expect(text.includes(secret), `secret found in ${where}`).toBe(false);
  expect(run.stdout).toContain(`::add-mask::${secret}`);
}
