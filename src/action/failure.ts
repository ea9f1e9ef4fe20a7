// A failed edgeops command, reported where a user looks: an error annotation, the job summary and the
// `summary` output. The step then fails (exit 1).
import type { CliRun } from './edgeops-cli.ts';
import { failureMarkdown, firstError } from './report.ts';
import type { Session } from './session.ts';
import { runStack } from './stack.ts';

/** An apply's report lists every action and failure, so the job summary gets more of it than a comment would. */
const SUMMARY_LINES = 400;

export function reportFailure(s: Session, command: string, run: CliRun, stack?: string, why?: string): number {
  const reason = why ?? firstError(run);
  s.runner.error(`edgeops ${command} failed: ${reason}`);
  s.runner.appendSummary(failureMarkdown(command, stack ?? runStack(s), run, SUMMARY_LINES));
  s.runner.setOutput('summary', `edgeops ${command} failed: ${reason}`);
  return 1;
}
