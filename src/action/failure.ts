// A failed edgeops command, reported where a user looks: an error annotation, the job summary and the
// `summary` output. The step then fails (exit 1).
import { isAbsolute, relative, resolve } from 'node:path';
import type { CliRun } from './edgeops-cli.ts';
import type { CliProblem } from './json-plan.ts';
import { failureMarkdown, firstError } from './report.ts';
import type { Session } from './session.ts';
import { runStack } from './stack.ts';

/** An apply's report lists every action and failure, so the job summary gets more of it than a comment would. */
const SUMMARY_LINES = 400;

/** A problem's file as GitHub wants it: relative to the repository root, `/`-separated. */
function workspacePath(s: Session, file: string): string {
  const root = s.env.GITHUB_WORKSPACE ? resolve(s.env.GITHUB_WORKSPACE) : s.cwd;
  const abs = isAbsolute(file) ? file : resolve(s.cwd, file);
  return relative(root, abs).split('\\').join('/');
}

/** One annotation per manifest problem, on its line of its file, so it shows on the pull request's diff. */
export function annotateProblems(s: Session, problems: CliProblem[]): void {
  for (const p of problems) {
    const message = p.address ? `${p.address}: ${p.message}` : p.message;
    s.runner.error(message, { file: workspacePath(s, p.file), line: p.line, col: p.col, title: 'edgeops' });
  }
}

export function reportFailure(s: Session, command: string, run: CliRun, stack?: string, why?: string, problems: CliProblem[] = []): number {
  const reason = why ?? firstError(run);
  annotateProblems(s, problems);
  s.runner.error(`edgeops ${command} failed: ${reason}`);
  s.runner.appendSummary(failureMarkdown(command, stack ?? runStack(s), run, SUMMARY_LINES));
  s.runner.setOutput('summary', `edgeops ${command} failed: ${reason}`);
  return 1;
}
