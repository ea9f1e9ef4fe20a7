// command: plan when `path` holds several stacks: each stack the pull request changes (input `stacks: changed`,
// the default; `all` plans every one) is planned on its own, one after another, each with its own settings,
// key and lists; a stack root the pull request deletes is reported with the live resources it leaves. The
// results make ONE comment (stacks-comment.ts) whose hidden record the merge applies from, the job summary holds
// every plan whole, and a stale-plan status a merge left on this head goes back to success for each stack planned.
import { removedText } from '../operations/removed-stacks.ts';
import { againstNote } from './against.ts';
import { upsertPlanComment } from './comment.ts';
import { gitHubFor } from './github.ts';
import { runPlanned } from './json-plan.ts';
import { guarded } from './pr-comment.ts';
import { countRemoved } from './removed-stack.ts';
import { annotateProblems, failureMarkdown, footer, fullPlanAt } from './report.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import type { Session } from './session.ts';
import { isChanged, type ActionStack, type StackSet } from './stack-set.ts';
import { stackSession } from './stack-session.ts';
import { stacksOutput, writeStacksPlanJson } from './stacks-outputs.ts';
import { buildStacksComment, changesText, stacksSummary, STACKS_MARKER, type StackPlanned, type StacksCommentInput } from './stacks-comment.ts';
import { clearStalePlans } from './stale-status.ts';
import { truncatePlanMarkdown } from './truncate.ts';

async function planOne(s: Session, set: StackSet, x: ActionStack): Promise<StackPlanned> {
  const place = { dir: x.dir, stack: x.stack, environment: x.environment };
  if (x.removed) {
    const removed = set.removed.find((r) => r.dir === x.dir);
    const live = removed ? (await countRemoved(s, [removed]))[0]!.live : null;
    s.runner.warning(removedText(x.stack, live));
    return { outcome: 'removed', ...place, live };
  }
  const one = stackSession(s, set.repoRoot, x);
  const planned = await runPlanned(one.session, 'plan', { echo: true });
  if (!planned.ok) {
    annotateProblems(one.session, planned.problems);
    one.session.runner.error(`edgeops plan failed for stack ${x.stack} (${x.dir})`);
  }
  await one.flush(`edgeops plan: stack ${x.stack} (${x.dir})`);
  if (!planned.ok) return { outcome: 'failed', ...place, markdown: failureMarkdown('plan', x.stack, planned.run), failure: planned.run.failure };
  return { outcome: 'planned', ...place, plan: planned.plan, markdown: planned.run.stdout };
}

export async function runStacksPlan(s: Session, set: StackSet): Promise<number> {
  const run = set.stacks.filter((x) => x.removed || s.inputs.stacks === 'all' || isChanged(x));
  const unchanged = set.stacks.filter((x) => !run.includes(x));
  s.runner.info(`${set.stacks.filter((x) => !x.removed).length} stacks under ${s.inputs.paths.join(' ')}; planning ${run.length}${set.base ? ` (changed since ${set.base.slice(0, 7)}: ${s.inputs.stacks})` : ''}`);
  s.runner.setOutput('stacks', stacksOutput(run));

  const results: StackPlanned[] = [];
  for (const x of run) results.push(await planOne(s, set, x));

  const input: StacksCommentInput = {
    results,
    unchanged,
    footer: footer(s.github, `edgeops plan${againstNote(s.inputs, s.cwd)}`, results.some((r) => r.outcome === 'planned' && r.plan.checksum) ? 'merging applies exactly these plans' : undefined),
    sha: s.github.headSha || undefined,
    fullPlanAt: fullPlanAt(s.github),
  };
  const commented = await guarded(s, STACKS_MARKER, async (t) => {
    const existing = t.comments.filter((c) => c.body?.startsWith(STACKS_MARKER)).sort((a, b) => Number(b.user?.type === 'Bot') - Number(a.user?.type === 'Bot'))[0];
    const { body, moved } = buildStacksComment(input);
    const done = await upsertPlanComment(t.gh, t.issue, existing, s.runner.scrub(body));
    s.runner.info(`${done.action} the plan comment ${done.comment.html_url ?? `#${done.comment.id}`}${moved ? ' (updates and creates left for the job summary: too large)' : ''}`);
  }, (comments) => comments.find((c) => c.body?.startsWith(STACKS_MARKER)));
  if (s.inputs.comment && s.github.pullNumber !== undefined) {
    const gh = gitHubFor(s, 'stale-plan statuses are not cleared');
    if (gh) await clearStalePlans(s, gh, s.github.headSha, results.filter((r) => r.outcome === 'planned').map((r) => r.stack));
  }

  const summaryText = truncatePlanMarkdown(stacksSummary(input), STEP_SUMMARY_LIMIT, { measure: (t) => Buffer.byteLength(t), fullPlanAt: 'the job log' }).text;
  s.runner.appendSummary(summaryText);
  writeStacksPlanJson(s, results);
  const changed = results.filter((r) => r.outcome === 'planned' && r.plan.resources.length > 0);
  s.runner.setOutput('has-changes', String(changed.length > 0));
  const failed = results.filter((r) => r.outcome === 'failed');
  const line = results.map((r) => `${r.stack}: ${r.outcome === 'planned' ? changesText(r.plan) : r.outcome === 'failed' ? 'plan failed' : 'removed'}`).join('; ');
  const summary = `Plan of ${results.length} stack${results.length === 1 ? '' : 's'}${line ? `: ${line}` : ''}.`;
  s.runner.setOutput('summary', summary);
  s.runner.info(summary);
  if (failed.length > 0) {
    s.runner.error(`edgeops plan failed for ${failed.map((r) => `stack ${r.stack}`).join(', ')}; the other stacks were planned`);
    return 1;
  }
  return commented.failed && s.inputs.commentFailure === 'fail' ? 1 : 0;
}
