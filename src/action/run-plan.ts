// command: plan (pull requests, pushes to other branches): the plan in the job summary, on the pull request
// as one comment kept up to date, and as outputs. Exit 0 whether or not there are changes.
import { againstArgs } from './against.ts';
import { commentFailure, commentPlan } from './pr-comment.ts';
import { reportFailure } from './failure.ts';
import { planSummaryLine, runJsonPlan } from './json-plan.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import type { Session } from './session.ts';
import { truncatePlanMarkdown } from './truncate.ts';

const bytes = (text: string): number => Buffer.byteLength(text);

export async function runPlan(s: Session): Promise<number> {
  const json = await runJsonPlan(s);
  if (!json.ok) {
    await commentFailure(s, json.run);
    return reportFailure(s, 'plan', json.run);
  }
  // A second run for the Markdown rendering: the CLI's renderer is the one place that formats a plan.
  const markdown = await s.edgeops(['plan', ...s.inputs.paths, ...againstArgs(s.inputs), '--format', 'markdown'], { echo: true });
  if (markdown.code !== 0) {
    await commentFailure(s, markdown);
    return reportFailure(s, 'plan', markdown, json.plan.stack);
  }
  s.runner.setOutput('has-changes', String(json.hasChanges));
  const summary = planSummaryLine(json.plan);
  const delta = await commentPlan(s, json.plan, markdown.stdout);

  // The job summary is where the full plan lives when the comment had to leave resources out.
  const extra = delta ? `\n${delta}` : '';
  const room = STEP_SUMMARY_LIMIT - bytes(extra);
  const full = truncatePlanMarkdown(markdown.stdout, room, { measure: bytes, fullPlanAt: "the JSON plan (the file named by the `plan-json` output)" });
  s.runner.appendSummary(`${full.text}${extra}`);
  s.runner.setOutput('summary', summary);
  s.runner.info(summary);
  return 0;
}
