// The `plan-json` output comes from the very run the command reports: the CLI prints its own rendering
// (Markdown for a comment, the drift report) and writes the same plan in the JSON plan format to a file
// (`--json-out`), so the outputs, the comment and the job summary all come from one reading of live state.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { CliRun } from './edgeops-cli.ts';
import { parseJsonPlan, type JsonPlan } from './plan-state.ts';
import type { Session } from './session.ts';

/** A manifest problem as the CLI writes it to --json-out when the command fails (src/cli/json-error.ts). */
export interface CliProblem {
  file: string;
  line: number;
  col: number;
  address?: string;
  message: string;
}

export type PlannedRun =
  | { ok: true; run: CliRun; plan: JsonPlan; file: string }
  | { ok: false; run: CliRun; problems: CliProblem[] };

/** The problems of a failed run's --json-out file; none when it wrote no error document. */
function problemsIn(file: string): CliProblem[] {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { error?: { problems?: unknown } };
    const problems = doc.error?.problems;
    if (!Array.isArray(problems)) return [];
    return problems.filter((p): p is CliProblem =>
      typeof p?.file === 'string' && Number.isInteger(p.line) && Number.isInteger(p.col) && typeof p.message === 'string');
  } catch {
    return [];
  }
}

/**
 * Runs `edgeops ARGS --json-out FILE` (plan or drift: exit 0, or 2 for changes or drift) and publishes the JSON
 * plan as the `plan-json` output, under a name with the stack the CLI resolved.
 */
export async function runPlanned(s: Session, args: string[], opts: { echo?: boolean } = {}): Promise<PlannedRun> {
  const partial = join(s.tempDir, `edgeops-plan-${randomUUID()}.partial`);
  try {
    const run = await s.edgeops([...args, '--json-out', partial], opts);
    if (run.code !== 0 && run.code !== 2) return { ok: false, run, problems: problemsIn(partial) };
    let text: string;
    let plan: JsonPlan;
    try {
      text = readFileSync(partial, 'utf8');
      plan = parseJsonPlan(text);
    } catch (err) {
      return { ok: false, run: { ...run, code: 1, stderr: `${run.stderr}edgeops: unreadable JSON plan: ${(err as Error).message}\n` }, problems: [] };
    }
    // The stack is lower-case letters, digits and `-` (the CLI checks it), so it is safe in a file name.
    const file = join(s.tempDir, `edgeops-plan-${plan.stack}.json`);
    writeFileSync(file, s.runner.scrub(text));
    s.runner.setOutput('plan-json', file);
    return { ok: true, run, plan, file };
  } finally {
    rmSync(partial, { force: true });
  }
}

export function planSummaryLine(plan: JsonPlan): string {
  if (plan.resources.length === 0) return `No changes on stack ${plan.stack}: live state matches the manifests.`;
  const s = plan.summary;
  return `Plan for stack ${plan.stack}: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete.`;
}
