// command: drift (schedules) when `path` holds several stacks: every stack is checked on its own, with one
// drift issue per stack (drift-issue.ts, on by default on schedules) opened, updated or closed as for one stack,
// and the job summary opens with a table of all of them, then each drifted stack's report.
import { syncDriftIssue } from './drift-issue.ts';
import { runPlanned } from './json-plan.ts';
import { annotateProblems, failureMarkdown, firstError } from './report.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import type { Session } from './session.ts';
import { stacksOutput, writeStacksPlanJson } from './stacks-outputs.ts';
import type { StackSet } from './stack-set.ts';
import { stackSession } from './stack-session.ts';
import type { StackPlanned } from './stacks-comment.ts';
import { truncatePlanMarkdown } from './truncate.ts';

interface Checked {
  stack: string;
  dir: string;
  environment: string | null;
  status: 'in sync' | 'drifted' | 'failed';
  findings: number;
  issue: string;
  report: string;
  planned?: StackPlanned;
}

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

export async function runStacksDrift(s: Session, set: StackSet): Promise<number> {
  const stacks = set.stacks.filter((x) => !x.removed);
  s.runner.setOutput('stacks', stacksOutput(stacks));
  const checked: Checked[] = [];
  let issueFailed = false;
  for (const x of stacks) {
    const one = stackSession(s, set.repoRoot, x);
    const place = { stack: x.stack, dir: x.dir, environment: x.environment };
    const planned = await runPlanned(one.session, 'drift', { echo: true });
    if (!planned.ok) {
      annotateProblems(one.session, planned.problems);
      one.session.runner.error(`edgeops drift failed: ${firstError(planned.run)}`);
      await one.flush(`edgeops drift: stack ${x.stack} (${x.dir})`);
      const report = failureMarkdown('drift', x.stack, planned.run);
      checked.push({ ...place, status: 'failed', findings: 0, issue: '—', report, planned: { outcome: 'failed', ...place, markdown: report, failure: planned.run.failure } });
      continue;
    }
    const drifted = planned.run.code === 2;
    let issue = '—';
    if (s.inputs.driftIssue) {
      try {
        const done = await syncDriftIssue(one.session, { stack: x.stack, environment: x.environment, drifted, plan: planned.plan, report: planned.run.stdout });
        if (done) {
          one.session.runner.info(done);
          issue = done;
        }
      } catch (err) {
        issueFailed = true;
        one.session.runner.error(`the drift issue could not be ${drifted ? 'opened or updated' : 'closed'}: ${(err as Error).message}`);
      }
    }
    await one.flush(`edgeops drift: stack ${x.stack} (${x.dir})`);
    checked.push({
      ...place, status: drifted ? 'drifted' : 'in sync', findings: planned.plan.resources.length, issue, report: planned.run.stdout,
      planned: { outcome: 'planned', ...place, plan: planned.plan, markdown: planned.run.stdout },
    });
  }

  const rows = checked.map((c) => `| ${code(c.stack)} (${code(c.dir)}) | ${c.environment ?? '—'} | ${c.status === 'drifted' ? `**drifted**: ${c.findings} resource${c.findings === 1 ? '' : 's'}` : c.status} | ${c.issue} |`);
  const table = ['### edgeops drift over every stack', '', '| stack | environment | drift | issue |', '|---|---|---|---|', ...rows, ''].join('\n');
  const reports = checked.filter((c) => c.status !== 'in sync').map((c) => `\n<details open><summary><code>${c.stack}</code>: ${c.status}</summary>\n\n${c.report.trimEnd()}\n\n</details>\n`).join('');
  s.runner.appendSummary(truncatePlanMarkdown(`${table}${reports}`, STEP_SUMMARY_LIMIT, { measure: (t) => Buffer.byteLength(t), fullPlanAt: 'the job log' }).text);
  writeStacksPlanJson(s, checked.flatMap((c) => (c.planned ? [c.planned] : [])));

  const drifted = checked.filter((c) => c.status === 'drifted');
  const failed = checked.filter((c) => c.status === 'failed');
  s.runner.setOutput('has-changes', String(drifted.length > 0));
  const summary = drifted.length === 0 && failed.length === 0
    ? `No drift on ${checked.length} stacks: live state matches the manifests.`
    : `Drift check of ${checked.length} stacks: ${checked.map((c) => `${c.stack} ${c.status}`).join(', ')}.`;
  s.runner.setOutput('summary', summary);
  if (failed.length > 0) {
    s.runner.error(`edgeops drift failed for ${failed.map((c) => `stack ${c.stack}`).join(', ')}`);
    return 1;
  }
  if (drifted.length > 0) {
    const text = `Drift on ${drifted.map((c) => `stack ${c.stack} (${c.findings})`).join(', ')}.`;
    if (s.inputs.failOnDrift) {
      s.runner.error(`${text} Run edgeops apply to restore them, or change the manifests to match.`);
      return 1;
    }
    s.runner.warning(text);
  }
  return issueFailed ? 1 : 0;
}
