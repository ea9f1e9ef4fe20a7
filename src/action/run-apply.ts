// command: apply (pushes to the default branch): plan for the outputs, then `edgeops apply --auto-approve`
// (with --allow-deletes when the input says so) with its progress in the log and its report in the job
// summary. Exit 1 when any action failed, or apply refused a plan over the delete limits.
import { commonArgs } from './edgeops-cli.ts';
import { reportFailure } from './failure.ts';
import { planSummaryLine, runPlanned } from './json-plan.ts';
import { fenced, firstError } from './report.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import type { Session } from './session.ts';
import { truncatePlanMarkdown } from './truncate.ts';

/** The CLI's closing line: `Apply complete: ...`, `Apply failed: ...` or the no-changes line. */
function closingLine(stdout: string): string | undefined {
  const lines = stdout.split('\n').map((l) => l.trim());
  return lines.reverse().find((l) => /^(Apply complete|Apply failed|No changes)/.test(l));
}

export async function runApply(s: Session): Promise<number> {
  const json = await runPlanned(s, ['plan', ...commonArgs(s.inputs), '--detailed-exitcode']);
  if (!json.ok) return reportFailure(s, 'apply', json.run);
  const stack = json.plan.stack;
  s.runner.setOutput('has-changes', String(json.run.code === 2));
  s.runner.info(planSummaryLine(json.plan));

  const allowDeletes = s.inputs.allowDeletes ? ['--allow-deletes'] : [];
  const run = await s.edgeops(['apply', ...commonArgs(s.inputs), '--auto-approve', ...allowDeletes], { echo: true });
  if (run.code !== 0) {
    // `Apply failed: 1 action failed; 2 created, ...` says more than the generic error line on stderr; a plan
    // refused for its deletes says how to allow them here, where the flag is an input.
    const failed = closingLine(run.stdout)?.replace(/^Apply failed:\s*/, '');
    const refused = !s.inputs.allowDeletes && run.stderr.includes('--allow-deletes') ? `${firstError(run)} In the action: allow-deletes: true.` : undefined;
    return reportFailure(s, 'apply', run, stack, failed ?? refused);
  }

  const closing = closingLine(run.stdout) ?? 'Apply complete.';
  const report = `### edgeops apply for stack \`${stack}\`\n\n${fenced(run.stdout.trim())}`;
  const fitted = truncatePlanMarkdown(report, STEP_SUMMARY_LIMIT, { measure: (t) => Buffer.byteLength(t), fullPlanAt: 'the job log' });
  s.runner.appendSummary(fitted.text);
  s.runner.setOutput('summary', `${closing.replace(/\.$/, '')} (stack ${stack}).`);
  return 0;
}
