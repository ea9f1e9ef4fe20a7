// command: drift (schedules): `edgeops drift --format markdown` (exit 0 in sync, 2 drift, 1 error) with its
// report in the job summary. Drift fails the step only when fail-on-drift is set; otherwise it is a warning.
// The same run writes the plan that would restore the manifests' state (`--json-out`): the `plan-json` output.
import { againstArgs } from './against.ts';
import { commonArgs } from './edgeops-cli.ts';
import { reportFailure } from './failure.ts';
import { runPlanned } from './json-plan.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import type { Session } from './session.ts';
import { truncatePlanMarkdown } from './truncate.ts';

export async function runDrift(s: Session): Promise<number> {
  const planned = await runPlanned(s, ['drift', ...commonArgs(s.inputs), ...againstArgs(s.inputs), '--format', 'markdown'], { echo: true });
  if (!planned.ok) return reportFailure(s, 'drift', planned.run);
  const { plan, run } = planned;
  const stack = plan.stack;
  const drifted = run.code === 2;
  s.runner.setOutput('has-changes', String(drifted));

  const fitted = truncatePlanMarkdown(run.stdout, STEP_SUMMARY_LIMIT, { measure: (t) => Buffer.byteLength(t), fullPlanAt: 'the job log' });
  s.runner.appendSummary(fitted.text);
  if (!drifted) {
    s.runner.setOutput('summary', `No drift on stack ${stack}: live state matches the manifests.`);
    return 0;
  }
  const count = plan.resources.length;
  const summary = `Drift on stack ${stack}: ${count} resource${count === 1 ? '' : 's'} differ${count === 1 ? 's' : ''} from the manifests.`;
  s.runner.setOutput('summary', summary);
  if (s.inputs.failOnDrift) {
    s.runner.error(`${summary} Run \`edgeops apply\` to restore them, or change the manifests to match.`);
    return 1;
  }
  s.runner.warning(summary);
  return 0;
}
