// Every command starts with `edgeops plan --format json --detailed-exitcode`: it gives the `plan-json` file,
// whether there are changes, and the resolved stack name, whatever the command goes on to do.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { againstArgs } from './against.ts';
import type { CliRun } from './edgeops-cli.ts';
import { parseJsonPlan, type JsonPlan } from './plan-state.ts';
import type { Session } from './session.ts';

export type JsonPlanRun =
  | { ok: true; plan: JsonPlan; file: string; hasChanges: boolean }
  | { ok: false; run: CliRun };

export async function runJsonPlan(s: Session): Promise<JsonPlanRun> {
  const run = await s.edgeops(['plan', ...s.inputs.paths, ...againstArgs(s.inputs), '--format', 'json', '--detailed-exitcode']);
  if (run.code !== 0 && run.code !== 2) return { ok: false, run };
  let plan: JsonPlan;
  try {
    plan = parseJsonPlan(run.stdout);
  } catch (err) {
    return { ok: false, run: { ...run, code: 1, stderr: `${run.stderr}edgeops: unreadable JSON plan: ${(err as Error).message}\n` } };
  }
  // The stack is lower-case letters, digits and `-` (the CLI checks it), so it is safe in a file name.
  const file = join(s.tempDir, `edgeops-plan-${plan.stack}.json`);
  writeFileSync(file, s.runner.scrub(run.stdout));
  s.runner.setOutput('plan-json', file);
  // --detailed-exitcode is the contract for "changes"; the resource list says the same in the JSON.
  return { ok: true, plan, file, hasChanges: run.code === 2 };
}

export function planSummaryLine(plan: JsonPlan): string {
  if (plan.resources.length === 0) return `No changes on stack ${plan.stack}: live state matches the manifests.`;
  const s = plan.summary;
  return `Plan for stack ${plan.stack}: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete.`;
}
