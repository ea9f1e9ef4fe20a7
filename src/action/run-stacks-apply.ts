// command: apply (a push to the default branch) when `path` holds several stacks: apply exactly the stacks the
// merged pull request's one comment recorded (stack-record.ts), each held to its own reviewed checksum, in
// `after` order with independent stacks at once (operations/stack-schedule.ts). `on-stale` holds per stack: a stack whose
// plan is no longer the reviewed one is not applied (fail) or applied fresh (replan). A failed or stale stack
// skips the stacks after it. Then: the result on the pull request, the issue of each failed stack opened (and of
// each applied one closed), and a failing `edgeops/X` status on every other open pull request that planned X.
import { runInOrder } from '../operations/stack-schedule.ts';
import { afterMerge, mergedBy } from './after-merge.ts';
import { gitHubFor, type GitHubClient, type PullRequest } from './github.ts';
import { ActionInputError } from './inputs.ts';
import { runPlanned } from './json-plan.ts';
import { applyChecksum, closingLine } from './run-apply.ts';
import { firstError, lookupFailed } from './report.ts';
import { STEP_SUMMARY_LIMIT } from './runner.ts';
import type { Session } from './session.ts';
import { extractStacksRecord, type StackRecord, type StacksRecord } from './stack-record.ts';
import type { ActionStack, StackSet } from './stack-set.ts';
import { stackSession } from './stack-session.ts';
import { stacksOutput, writeStacksPlanJson } from './stacks-outputs.ts';
import { STACKS_MARKER } from './stacks-comment.ts';
import { stacksResultMarkdown, type StackApplied } from './stacks-result.ts';
import { truncatePlanMarkdown } from './truncate.ts';

/** The parallel stacks of one merge, as `edgeops apply --parallel` defaults to. */
const PARALLEL = 4;

interface Reviewed {
  gh?: GitHubClient;
  pr?: PullRequest;
  record?: StacksRecord;
  /** Why there is no record to apply from. */
  why?: string;
}

async function findReviewed(s: Session): Promise<Reviewed> {
  if (s.inputs.checksum) throw new ActionInputError('input checksum names the plan of one stack, but path holds several: set path to that stack\'s directory');
  if (s.github.eventName !== 'push') return { why: `a ${s.github.eventName || 'manual'} run has no reviewed plans` };
  const gh = gitHubFor(s, 'the reviewed plans cannot be looked up');
  if (!gh) return { why: 'no GitHub token to look up the pull request and its reviewed plans' };
  const sha = s.github.sha;
  const merged = (await gh.pullsOfCommit(sha)).filter((p) => p.merged_at);
  const pr = merged.find((p) => p.merge_commit_sha === sha) ?? merged[0];
  if (!pr) return { gh, why: `commit \`${sha.slice(0, 7)}\` has no merged pull request (pushed directly?)` };
  const mine = (await gh.listIssueComments(pr.number)).filter((c) => typeof c.body === 'string' && c.body.startsWith(STACKS_MARKER));
  const comment = mine.find((c) => c.user?.type === 'Bot') ?? mine[0];
  const record = comment ? extractStacksRecord(comment.body) : undefined;
  if (!record) return { gh, pr, why: `pull request #${pr.number} has no edgeops plan comment for its stacks` };
  return { gh, pr, record };
}

const base = (x: ActionStack) => ({ dir: x.dir, stack: x.stack, environment: x.environment });

/** One stack: a fresh plan, held to the reviewed checksum (or replanned), then applied. */
async function applyOne(s: Session, set: StackSet, x: ActionStack, reviewed: StackRecord | undefined, where: string, cancelled: () => boolean): Promise<StackApplied> {
  const one = stackSession(s, set.repoRoot, x);
  try {
    const planned = await runPlanned(one.session, 'plan');
    if (!planned.ok) return { ...base(x), result: 'failed', ok: false, detail: `the plan failed: ${firstError(planned.run)}`, output: `${planned.run.stdout}${planned.run.stderr}` };
    const { plan } = planned;
    const current = plan.checksum ?? null;
    const matches = reviewed !== undefined && !reviewed.failed && reviewed.checksum === current;
    let note = `the plan reviewed on ${where}`;
    if (!matches) {
      const why = !reviewed ? `${where} has no reviewed plan for it` : reviewed.failed ? `its last plan on ${where} failed` : `the plan now differs from the one reviewed on ${where}`;
      if (s.inputs.onStale === 'fail') {
        one.session.runner.error(`not applied: ${why} (on-stale: fail)`);
        return { ...base(x), result: 'stale', ok: false, plan, detail: `not applied: ${why}`, ...(current ? { freshChecksum: current } : {}) };
      }
      one.session.runner.warning(`applying a fresh plan, not a reviewed one (on-stale: replan): ${why}`);
      note = `a fresh plan (on-stale: replan; ${why})`;
    }
    if (current === null) return { ...base(x), result: 'unchanged', ok: true, plan, detail: 'no changes: live state matches the manifests' };
    if (cancelled()) return { ...base(x), result: 'skipped', ok: false, plan, detail: 'not started: the job was cancelled' };
    one.session.runner.info(`applying ${note}, checksum ${current}`);
    const run = await applyChecksum(one.session, current);
    if (run.code === 0) return { ...base(x), result: 'applied', ok: true, plan, detail: `${(closingLine(run.stdout) ?? 'Apply complete.').replace(/\.$/, '')}; ${note}`, output: run.stdout };
    const failed = closingLine(run.stdout)?.replace(/^Apply failed:\s*/, '') ?? firstError(run);
    one.session.runner.error(`apply failed: ${failed}`);
    return { ...base(x), result: 'failed', ok: false, plan, detail: failed, output: `${run.stdout}${run.stderr}` };
  } finally {
    await one.flush(`edgeops apply: stack ${x.stack} (${x.dir})`);
  }
}

export async function runStacksApply(s: Session, set: StackSet): Promise<number> {
  let reviewed: Reviewed;
  try {
    reviewed = await findReviewed(s);
  } catch (err) {
    if (err instanceof ActionInputError) throw err;
    // Without the record nothing can be held to the review: a GitHub outage applies nothing.
    return lookupFailed(s, 'the reviewed plans', err);
  }
  const where = reviewed.pr ? `pull request #${reviewed.pr.number}` : 'the pull request';
  const recorded = new Map((reviewed.record?.stacks ?? []).map((r) => [r.dir, r]));
  // The recorded stacks, or (no record, on-stale: replan) every stack; a removed stack has nothing to apply.
  const run = set.stacks.filter((x) => !x.removed && (reviewed.record ? recorded.has(x.dir) : true));
  if (!reviewed.record) {
    const why = `there are no reviewed plans to hold the apply to: ${reviewed.why}`;
    if (s.inputs.onStale === 'fail') {
      s.runner.error(`edgeops apply refused: ${why}. Nothing was applied.`.replace(/`/g, ''));
      s.runner.setOutput('summary', `edgeops apply refused: ${why}. Nothing was applied.`.replace(/`/g, ''));
      return 1;
    }
    s.runner.warning(`applying fresh plans of every stack (on-stale: replan): ${why}`.replace(/`/g, ''));
  }
  for (const r of reviewed.record?.stacks ?? []) {
    if (!r.removed && !set.stacks.some((x) => x.dir === r.dir && !x.removed)) s.runner.warning(`stack ${r.stack} (${r.dir}) was reviewed on ${where} but is no stack root at this commit: nothing to apply`);
  }
  s.runner.setOutput('stacks', stacksOutput(run));
  if (run.length === 0) {
    const summary = `Nothing to apply: ${where} planned no stack.`;
    s.runner.appendSummary(`### edgeops apply on merge\n\n${summary}\n`);
    s.runner.setOutput('has-changes', 'false');
    s.runner.setOutput('summary', summary);
    s.runner.info(summary);
    return 0;
  }
  s.runner.info(`applying ${run.length} stack${run.length === 1 ? '' : 's'} reviewed on ${where}: ${run.map((x) => x.stack).join(', ')}`);

  // A cancelled job (the runner sends SIGINT, then SIGTERM) starts no further stack; those in flight stop as
  // a single apply does (each traps the signal itself).
  let cancelled = false;
  const cancel = (): void => void (cancelled = true);
  process.on('SIGINT', cancel);
  process.on('SIGTERM', cancel);
  const notStarted = (x: ActionStack): StackApplied => ({ ...base(x), result: 'skipped', ok: false, detail: 'not started: the job was cancelled' });
  const byDir = new Map(run.map((x) => [x.dir, x]));
  let done: Map<ActionStack, StackApplied>;
  try {
    done = await runInOrder(run, (x) => (cancelled ? Promise.resolve(notStarted(x)) : applyOne(s, set, x, recorded.get(x.dir), where, () => cancelled)), {
      after: (x) => x.after.flatMap((dir) => byDir.get(dir) ?? []),
      parallel: PARALLEL,
      ok: (r) => r.ok,
      skipped: (x, cause, why): StackApplied =>
        ({ ...base(x), result: 'skipped', ok: false, detail: `skipped: ${cause.stack} ${why.result === 'stale' ? 'is stale' : why.result === 'skipped' ? 'was not started' : 'failed'}` }),
    });
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
  // In the order they finished: the order `after` made.
  const results = [...done.values()];
  await afterMerge(s, set, run, results, reviewed);

  const full = stacksResultMarkdown(results, mergedBy(s, reviewed), s.github.sha, true);
  s.runner.appendSummary(truncatePlanMarkdown(full, STEP_SUMMARY_LIMIT, { measure: (t) => Buffer.byteLength(t), fullPlanAt: 'the job log' }).text);
  writeStacksPlanJson(s, results.flatMap((r) => (r.plan ? [{ outcome: 'planned' as const, dir: r.dir, stack: r.stack, environment: r.environment, plan: r.plan, markdown: '' }] : [])));
  s.runner.setOutput('has-changes', String(results.some((r) => (r.plan?.resources.length ?? 0) > 0)));
  const summary = `Apply of ${results.length} stack${results.length === 1 ? '' : 's'}: ${results.map((r) => `${r.stack} ${r.result}`).join(', ')}.`;
  s.runner.setOutput('summary', summary);
  s.runner.info(summary);
  const bad = results.filter((r) => !r.ok);
  if (bad.length > 0) {
    s.runner.error(`edgeops apply: ${bad.map((r) => `stack ${r.stack} ${r.result}`).join(', ')}`);
    return 1;
  }
  return 0;
}
