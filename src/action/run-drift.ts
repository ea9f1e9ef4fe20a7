// command: drift (schedules): `edgeops drift --format markdown` (exit 0 in sync, 2 drift, 1 error) with its
// report in the job summary. Drift fails the step only when fail-on-drift is set; otherwise it is a warning.
import { againstArgs } from './against.ts';
import { reportFailure } from './failure.ts';
import { runJsonPlan } from './json-plan.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import type { Session } from './session.ts';
import { truncatePlanMarkdown } from './truncate.ts';

export async function runDrift(s: Session): Promise<number> {
  // The plan is what `apply` would do about the drift: the `plan-json` output.
  const json = await runJsonPlan(s);
  if (!json.ok) return reportFailure(s, 'drift', json.run);
  const stack = json.plan.stack;

  const run = await s.edgeops(['drift', ...s.inputs.paths, ...againstArgs(s.inputs), '--format', 'markdown'], { echo: true });
  if (run.code !== 0 && run.code !== 2) return reportFailure(s, 'drift', run, stack);
  const drifted = run.code === 2;
  // The drift command is the authority on drift; has-changes follows it rather than the plan run before it.
  s.runner.setOutput('has-changes', String(drifted));

  const fitted = truncatePlanMarkdown(run.stdout, STEP_SUMMARY_LIMIT, { measure: (t) => Buffer.byteLength(t), fullPlanAt: 'the job log' });
  s.runner.appendSummary(fitted.text);
  if (!drifted) {
    s.runner.setOutput('summary', `No drift on stack ${stack}: live state matches the manifests.`);
    return 0;
  }
  const count = json.plan.resources.length;
  const summary = `Drift on stack ${stack}: ${count} resource${count === 1 ? '' : 's'} differ${count === 1 ? 's' : ''} from the manifests.`;
  s.runner.setOutput('summary', summary);
  if (s.inputs.failOnDrift) {
    s.runner.error(`${summary} Run \`edgeops apply\` to restore them, or change the manifests to match.`);
    return 1;
  }
  s.runner.warning(summary);
  return 0;
}
