// What a merge did to each stack it was to apply, as one Markdown report: commented on the merged pull request
// and written to the job summary. One row per stack (applied, no changes, failed, stale, skipped, each with why),
// then what a person can do about the ones that did not apply.
import type { JsonPlan } from './plan-state.ts';
import { fenced, tail } from './report.ts';

export type ApplyResult = 'applied' | 'unchanged' | 'failed' | 'stale' | 'skipped';

export interface StackApplied {
  dir: string;
  stack: string;
  environment: string | null;
  result: ApplyResult;
  /** One sentence: the apply's closing line, why it is stale, which stack skipped it. */
  detail: string;
  /** The fresh plan of this merge, when one was made. */
  plan?: JsonPlan;
  /** A stale stack's fresh checksum: what a workflow_dispatch of its directory may apply once reviewed. */
  freshChecksum?: string;
  /** The apply's output, for the job summary. */
  output?: string;
  ok: boolean;
}

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;
const WORDS: Record<ApplyResult, string> = { applied: '✅ applied', unchanged: 'no changes', failed: '❌ failed', stale: '⚠️ stale', skipped: '⏭️ skipped' };

function resultTable(results: StackApplied[]): string {
  const rows = results.map((r) => `| ${code(r.stack)} (${code(r.dir)}) | ${r.environment ?? '—'} | ${WORDS[r.result]} | ${r.detail.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`);
  return ['| stack | environment | result | detail |', '|---|---|---|---|', ...rows].join('\n');
}

function counts(results: StackApplied[]): string {
  const order: ApplyResult[] = ['applied', 'unchanged', 'failed', 'stale', 'skipped'];
  return order.map((r) => [r, results.filter((x) => x.result === r).length] as const).filter(([, n]) => n > 0).map(([r, n]) => `${n} ${r === 'unchanged' ? 'without changes' : r}`).join(', ');
}

/** The report; `by` names what was merged (`pull request #12`), `commit` the merge commit. */
export function stacksResultMarkdown(results: StackApplied[], by: string, commit: string, withOutput = false): string {
  const next = results.filter((r) => r.result === 'stale' && r.freshChecksum).map((r) =>
    `- ${code(r.stack)}: review the plan as it is now (job summary), then run the workflow by hand (workflow_dispatch) with \`path: ${r.dir}\` and \`checksum: ${r.freshChecksum}\`.`);
  const outputs = withOutput
    ? results.filter((r) => r.output).map((r) => `\n<details${r.ok ? '' : ' open'}><summary><code>${r.stack}</code>: the apply</summary>\n\n${fenced(tail(r.output!, 400))}\n</details>\n`).join('')
    : '';
  return [
    `### edgeops apply on merge: ${counts(results)}`,
    '',
    `The merge of ${by} (\`${commit.slice(0, 7)}\`) applied the stacks reviewed there, each with its own checksum, in \`after\` order.`,
    '',
    resultTable(results),
    ...(next.length > 0 ? ['', 'Not applied because the plan is no longer the reviewed one:', '', ...next] : []),
    '',
  ].join('\n') + outputs;
}
