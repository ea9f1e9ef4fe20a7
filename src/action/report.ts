// The Markdown the action writes itself (the plan and the drift report come from the views): a run's output in a
// fenced block, the report of a failed command, and the one-line small print under a comment. A failed
// command is also reported where a user looks: an error annotation, the job summary and the `summary` output.
import { isAbsolute, relative, resolve } from 'node:path';
import type { JsonProblem } from '../render/error-text.ts';
import { resultLine, type PolicyResult } from '../policy/results.ts';
import { BASELINE } from '../policy/baseline.ts';
import type { EdgeopsRun } from './edgeops.ts';
import type { GitHubContext } from './inputs.ts';
import { runStack, type Session } from './session.ts';

/** A fence longer than any backtick run inside, so the text cannot close it early. */
export function fenced(text: string, info = 'text'): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text.replace(/\n+$/, '')}\n${fence}\n`;
}

/** The last lines of a stream: the error is at the end, and a log of thousands of lines helps nobody in a comment. */
export function tail(text: string, lines = 40): string {
  const all = text.replace(/\n+$/, '').split('\n');
  return all.length <= lines ? all.join('\n') : [`... (${all.length - lines} earlier lines in the job log)`, ...all.slice(-lines)].join('\n');
}

/** The first line that says what went wrong (`edgeops: ...`), for the one-line `summary` output. */
export function firstError(run: EdgeopsRun): string {
  const lines = `${run.stderr}\n${run.stdout}`.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return (lines.find((l) => l.startsWith('edgeops:')) ?? lines[0] ?? `exit code ${run.code}`).replace(/^edgeops:\s*/, '');
}

export function failureMarkdown(command: string, stack: string | undefined, run: EdgeopsRun, lines = 40): string {
  const where = stack ? ` for stack \`${stack}\`` : '';
  const output = tail([run.stdout.trim(), run.stderr.trim()].filter((t) => t !== '').join('\n'), lines);
  return `### edgeops ${command}${where} failed\n\nThe command exited with code ${run.code}:\n\n${fenced(output || '(no output)')}`;
}

/** `note` follows the commit: `edgeops plan for `abc1234` · NOTE · [workflow run](...) · ...`. */
export function footer(github: GitHubContext, what: string, note?: string): string {
  const sha = github.headSha ? ` for \`${github.headSha.slice(0, 7)}\`` : '';
  const run = github.runUrl ? ` · [workflow run](${github.runUrl})` : '';
  return `${what}${sha}${note ? ` · ${note}` : ''}${run} · this comment is updated on every push`;
}

export function fullPlanAt(github: GitHubContext): string {
  return github.runUrl ? `the [job summary](${github.runUrl})` : 'the job summary';
}

/** An apply's report lists every action and failure, so the job summary gets more of it than a comment would. */
const SUMMARY_LINES = 400;

/** A problem's file as GitHub wants it: relative to the repository root, `/`-separated. */
function workspacePath(s: Session, file: string): string {
  const root = s.env.GITHUB_WORKSPACE ? resolve(s.env.GITHUB_WORKSPACE) : s.cwd;
  const abs = isAbsolute(file) ? file : resolve(s.cwd, file);
  return relative(root, abs).split('\\').join('/');
}

/** One annotation per manifest problem, on its line of its file, so it shows on the pull request's diff. */
export function annotateProblems(s: Session, problems: JsonProblem[]): void {
  for (const p of problems) {
    const message = p.address ? `${p.address}: ${p.message}` : p.message;
    s.runner.error(message, { file: workspacePath(s, p.file), line: p.line, col: p.col, title: 'edgeops' });
  }
}

/**
 * Policy results on their lines: a blocking deny as an error, a warn (or a deny that blocks nothing) as a
 * warning; info only in JSON. A result on a live resource no document names points at the policy.
 */
export function annotatePolicies(s: Session, results: readonly PolicyResult[]): void {
  for (const r of results) {
    if (r.severity === 'info') continue;
    // The built-in pack is no file of the repository: its results are annotations without a place.
    const at = r.file === BASELINE ? undefined : { file: workspacePath(s, r.file), line: r.line, col: r.col, title: `edgeops policy ${r.policy}` };
    const text = resultLine(r).slice(`${r.file}:${r.line}:${r.col}: `.length);
    if (r.blocking) s.runner.error(text, at);
    else s.runner.warning(text, at);
  }
}

export function reportFailure(s: Session, command: string, run: EdgeopsRun, stack?: string, why?: string, problems: JsonProblem[] = []): number {
  const reason = why ?? firstError(run);
  annotateProblems(s, problems);
  s.runner.error(`edgeops ${command} failed: ${reason}`);
  s.runner.appendSummary(failureMarkdown(command, stack ?? runStack(s), run, SUMMARY_LINES));
  s.runner.setOutput('summary', `edgeops ${command} failed: ${reason}`);
  return 1;
}

/** The reviewed plan (or plans) could not be looked up: nothing is applied, and the job says to re-run. */
export function lookupFailed(s: Session, what: string, err: unknown): number {
  const message = `cannot look up ${what}, so nothing was applied: ${err instanceof Error ? err.message : String(err)}. Re-run the job.`;
  s.runner.error(`edgeops apply failed: ${message}`);
  s.runner.setOutput('summary', `edgeops apply failed: ${message}`);
  return 1;
}
