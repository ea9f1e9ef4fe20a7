// command: plan (pull requests, pushes to other branches): the plan in the job summary, on the pull request
// as one comment kept up to date, and as outputs. Exit 0 whether or not there are changes. One plan gives both
// the Markdown and the JSON plan (json-plan.ts): the comment and the outputs show the same plan.
import { commentFailure, commentPlan } from './pr-comment.ts';
import { planSummaryLine, runPlanned } from './json-plan.ts';
import { annotatePolicies, reportFailure } from './report.ts';
import { policyTally } from '../render/policy-section.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import { runStack, type Session } from './session.ts';
import { truncatePlanMarkdown } from './truncate.ts';

const bytes = (text: string): number => Buffer.byteLength(text);

export async function runPlan(s: Session): Promise<number> {
  const planned = await runPlanned(s, 'plan', { echo: true });
  if (!planned.ok) {
    const stack = runStack(s);
    await commentFailure(s, planned.run, stack);
    return reportFailure(s, 'plan', planned.run, stack, undefined, planned.problems);
  }
  const { plan, run } = planned;
  const markdown = run.stdout;
  annotatePolicies(s, plan.policy ?? []);
  s.runner.setOutput('has-changes', String(run.code === 2));
  const summary = planSummaryLine(plan);
  const commented = await commentPlan(s, plan, markdown, planned.graph);
  const delta = commented.value;

  // The job summary is where the full plan lives when the comment had to leave resources out.
  const extra = delta ? `\n${delta}` : '';
  const room = STEP_SUMMARY_LIMIT - bytes(extra);
  const full = truncatePlanMarkdown(markdown, room, { measure: bytes, fullPlanAt: "the JSON plan (the file named by the `plan-json` output)" });
  s.runner.appendSummary(`${full.text}${extra}`);
  s.runner.setOutput('summary', summary);
  s.runner.info(summary);
  // A policy denies the plan: posted like any plan, and the check fails.
  if (planned.denied) {
    s.runner.error(`edgeops plan: ${policyTally(plan.policy ?? [])}: a policy denies this plan`);
    return 1;
  }
  // The plan is fine, but the pull request shows an outdated one (pr-comment.ts said so): comment-failure decides.
  return commented.failed && s.inputs.commentFailure === 'fail' ? 1 : 0;
}
