// command: drift (schedules): the drift operation, as `edgeops drift --format markdown` (exit 0 in sync, 2 drift, 1 error), with its
// report in the job summary. Drift fails the step (fail-on-drift, on by default; off makes it a warning), and
// with drift-issue (on by default on schedules) keeps one GitHub issue per stack while it drifts.
// The same run gives the plan that would restore the manifests' state: the `plan-json` output.
import { readProjectConfig } from '../manifest/discover.ts';
import { syncDriftIssue } from './drift-issue.ts';
import { GitHubApiError } from './github.ts';
import { runPlanned } from './json-plan.ts';
import type { JsonPlan } from './plan-state.ts';
import { reportFailure } from './report.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import type { Session } from './session.ts';
import { truncatePlanMarkdown } from './truncate.ts';

export async function runDrift(s: Session): Promise<number> {
  const planned = await runPlanned(s, 'drift', { echo: true });
  if (!planned.ok) return reportFailure(s, 'drift', planned.run, undefined, undefined, planned.problems);
  const { plan, run } = planned;
  const stack = plan.stack;
  const drifted = run.code === 2;
  s.runner.setOutput('has-changes', String(drifted));

  const fitted = truncatePlanMarkdown(run.stdout, STEP_SUMMARY_LIMIT, { measure: (t) => Buffer.byteLength(t), fullPlanAt: 'the job log' });
  s.runner.appendSummary(fitted.text);
  const issueFailed = s.inputs.driftIssue ? await driftIssue(s, plan, drifted, run.stdout) : false;
  if (!drifted) {
    s.runner.setOutput('summary', `No drift on stack ${stack}: live state matches the manifests.`);
    return issueFailed ? 1 : 0;
  }
  const count = plan.resources.length;
  const findings = planned.liveFindings.length;
  const parts = [
    count > 0 || findings === 0 ? `${count} resource${count === 1 ? '' : 's'} differ${count === 1 ? 's' : ''} from the manifests` : '',
    findings > 0 ? `${findings} policy finding${findings === 1 ? '' : 's'} on live state` : '',
  ].filter(Boolean);
  const summary = `Drift on stack ${stack}: ${parts.join('; ')}.`;
  s.runner.setOutput('summary', summary);
  if (s.inputs.failOnDrift) {
    s.runner.error(`${summary} Run \`edgeops apply\` to restore them, or change the manifests to match.`);
    return 1;
  }
  s.runner.warning(summary);
  return issueFailed ? 1 : 0;
}

/** Keeps the drift issue; true when GitHub refused, which fails the job: a drift nobody hears of is the risk. */
async function driftIssue(s: Session, plan: JsonPlan, drifted: boolean, report: string): Promise<boolean> {
  try {
    const environment = readProjectConfig(s.inputs.paths, s.cwd).config.environment;
    const done = await syncDriftIssue(s, { stack: plan.stack, environment, drifted, plan, report });
    if (done) {
      s.runner.info(done);
      s.runner.appendSummary(`\n${done}\n`);
    }
    return false;
  } catch (err) {
    const hint = err instanceof GitHubApiError && err.isPermission ? ' The workflow needs `permissions: issues: write`.' : '';
    s.runner.error(`the drift issue of stack ${plan.stack} could not be ${drifted ? 'opened or updated' : 'closed'}: ${(err as Error).message}.${hint}`);
    return true;
  }
}
