// Drift that people see: one GitHub issue per stack, found again by a hidden marker at the start of its body,
// opened on the first drifted run, updated in place on every drifted run after (what drifted, in which
// direction, since when), and closed with a comment by the first run that finds the stack in sync. "Since"
// comes from the issue itself (hidden lines), so it survives across runs: the stack's first detection, and
// per resource the run that first saw it drift.
import { COMMENT_LIMIT, truncatePlanMarkdown } from './truncate.ts';
import { gitHubFor, type GitHubClient, type Issue } from './github.ts';
import type { JsonPlan, JsonPlanResource } from './plan-state.ts';
import type { Session } from './session.ts';

export const driftIssueMarker = (stack: string): string => `<!-- edgeops-drift:${stack} -->`;
const SINCE_RE = /<!-- edgeops-drift-since:([0-9TZ:.-]+) -->/;
const SEEN_RE = /<!-- edgeops-drift-seen:([A-Za-z0-9+/=]*) -->/;
/** Rows in the issue's table; the drift report below it has every finding. */
const MAX_ROWS = 100;

/** The issue's title names the environment too, so production's issue reads as production's in a list. */
export const driftIssueTitle = (stack: string, environment?: string | null): string =>
  `Drift on edgeops stack ${stack}${environment ? ` (environment ${environment})` : ''}`;

/** A resource's directions, from its changes as drift names them (src/engine/drift.ts). */
function directions(r: JsonPlanResource & { adopt?: string }): string {
  if (r.adopt) return 'unmanaged';
  if (r.action === 'create') return 'missing';
  if (r.action === 'delete') return 'live-only';
  const found = new Set<string>();
  for (const c of r.changes) found.add(c.op === 'add' ? 'missing' : c.op === 'remove' ? 'live-only' : 'changed');
  return found.size > 0 ? [...found].sort().join(', ') : 'changed';
}

function readSeen(body: string): Record<string, string> {
  const match = SEEN_RE.exec(body);
  if (!match) return {};
  try {
    const value: unknown = JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8'));
    if (typeof value !== 'object' || value === null) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

interface BodyInput {
  stack: string;
  since: string;
  now: string;
  seen: Record<string, string>;
  plan: JsonPlan;
  report: string;
  commit: string;
  runUrl?: string;
}

function issueBody(b: BodyInput): string {
  const run = b.runUrl ? ` by [this workflow run](${b.runUrl})` : '';
  const count = b.plan.resources.length;
  const rows = b.plan.resources.slice(0, MAX_ROWS).map((r) =>
    `| \`${r.label ?? r.address}\` | ${directions(r)} | ${r.action} | ${b.seen[r.address]} |`);
  if (count > MAX_ROWS) rows.push(`| ... ${count - MAX_ROWS} more in the report below | | | |`);
  const head = [
    driftIssueMarker(b.stack),
    `### Drift on stack \`${b.stack}\``,
    '',
    `Live state has differed from the manifests since **${b.since}**. Last checked **${b.now}**${run} at \`${b.commit.slice(0, 7)}\`: **${count} resource${count === 1 ? '' : 's'}** differ${count === 1 ? 's' : ''}.`,
    '',
    '| resource | direction | apply would | drifted since |',
    '|---|---|---|---|',
    ...rows,
    '',
    'Directions: **changed** (live edited by hand), **missing** (in the manifests, not live), **live-only** (live, not in the manifests), **unmanaged** (would be adopted).',
    'Run `edgeops apply` (or merge a pull request) to restore the manifests\' state, or change the manifests to match. This issue is updated by every scheduled drift check and closed by the first one that finds the stack in sync.',
    '',
  ].join('\n');
  const hidden = `\n<!-- edgeops-drift-since:${b.since} -->\n<!-- edgeops-drift-seen:${Buffer.from(JSON.stringify(b.seen)).toString('base64')} -->\n`;
  const room = COMMENT_LIMIT - 1024 - head.length - hidden.length;
  const report = truncatePlanMarkdown(b.report, room, { fullPlanAt: b.runUrl ? `the [job summary](${b.runUrl})` : 'the job summary' }).text;
  return `${head}\n<details><summary>The drift report</summary>\n\n${report}\n</details>\n${hidden}`;
}

export async function findIssue(gh: GitHubClient, stack: string, labels: string[]): Promise<Issue | undefined> {
  return (await gh.listOpenIssues(labels)).find((i) => typeof i.body === 'string' && i.body.startsWith(driftIssueMarker(stack)));
}

interface DriftIssueInput {
  stack: string;
  environment?: string | null;
  drifted: boolean;
  plan: JsonPlan;
  /** The drift report (Markdown). */
  report: string;
}

/** Opens, updates or closes the stack's drift issue; returns a line for the log and summary. */
export async function syncDriftIssue(s: Session, d: DriftIssueInput): Promise<string | undefined> {
  const gh = gitHubFor(s, 'no drift issue is kept');
  if (!gh) return undefined;
  const labels = s.inputs.driftIssueLabels;
  const existing = await findIssue(gh, d.stack, labels);
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (!d.drifted) {
    if (!existing) return undefined;
    const since = SINCE_RE.exec(existing.body ?? '')?.[1];
    const run = s.github.runUrl ? ` ([workflow run](${s.github.runUrl}))` : '';
    await gh.createIssueComment(existing.number, `Stack \`${d.stack}\` is in sync again as of **${now}**${run}: live state matches the manifests${since ? ` (it had drifted since ${since})` : ''}. Closing.`);
    await gh.updateIssue(existing.number, { state: 'closed', state_reason: 'completed' });
    return `closed drift issue #${existing.number}: the stack is in sync again`;
  }
  const since = (existing && SINCE_RE.exec(existing.body ?? '')?.[1]) || now;
  const before = existing ? readSeen(existing.body ?? '') : {};
  const seen = Object.fromEntries(d.plan.resources.map((r) => [r.address, before[r.address] ?? now]));
  const body = s.runner.scrub(issueBody({ stack: d.stack, since, now, seen, plan: d.plan, report: d.report, commit: s.github.sha, runUrl: s.github.runUrl }));
  if (existing) {
    const issue = await gh.updateIssue(existing.number, { body });
    return `updated drift issue #${issue.number}${issue.html_url ? ` ${issue.html_url}` : ''} (drifted since ${since})`;
  }
  const issue = await gh.createIssue(driftIssueTitle(d.stack, d.environment), body, labels);
  return `opened drift issue #${issue.number}${issue.html_url ? ` ${issue.html_url}` : ''}`;
}
