// A failed edgeops command, reported where a user looks: an error annotation, the job summary and the
// `summary` output. The step then fails (exit 1).
import type { CliRun } from './edgeops-cli.ts';
import { failureMarkdown, firstError } from './report.ts';
import type { Session } from './session.ts';

export function reportFailure(s: Session, command: string, run: CliRun, stack?: string): number {
  const reason = firstError(run);
  s.runner.error(`edgeops ${command} failed: ${reason}`);
  s.runner.appendSummary(failureMarkdown(command, stack ?? s.inputs.stack, run));
  s.runner.setOutput('summary', `edgeops ${command} failed: ${reason}`);
  return 1;
}
