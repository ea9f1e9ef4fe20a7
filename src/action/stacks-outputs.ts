// The outputs of a run over several stacks: `stacks`, the stacks of the run as `edgeops stacks --format json`
// shows them, and `plan-json`, one file holding each stack's JSON plan unchanged with its stack, directory,
// environment and checksum, as `edgeops plan --format json` writes several stacks (render/stack-report.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { failedStackJson, removedStackJson, stacksJson } from '../render/stack-report.ts';
import type { Session } from './session.ts';
import type { ActionStack } from './stack-set.ts';
import type { StackPlanned } from './stacks-comment.ts';

/** The `stacks` output: the stacks of this run as `edgeops stacks --format json` shows them. */
export function stacksOutput(stacks: ActionStack[]): string {
  return JSON.stringify({ stacks: stacks.map((x) => ({ dir: x.dir, stack: x.stack, environment: x.environment, after: x.after, inputs: x.inputs, changed: x.changed, removed: x.removed })) });
}

/**
 * The `plan-json` file of several stacks: each stack's JSON plan unchanged, with its stack, dir and checksum; a
 * stack whose plan failed with `plan: null` and its `error`, a removed one with `removed` and its live resources.
 */
export function writeStacksPlanJson(s: Session, results: StackPlanned[]): string {
  const stacks = results.map((r) => {
    const place = { stack: r.stack, dir: r.dir, environment: r.environment };
    if (r.outcome === 'planned') return { ...place, checksum: r.plan.checksum ?? null, plan: r.plan };
    if (r.outcome === 'removed') return removedStackJson(place, r.live);
    return failedStackJson(place, r.failure ?? { code: 'E_INTERNAL', message: `the plan of stack ${r.stack} failed`, problems: [] });
  });
  const file = join(s.tempDir, 'edgeops-plan-stacks.json');
  writeFileSync(file, s.runner.scrub(stacksJson(stacks)));
  s.runner.setOutput('plan-json', file);
  return file;
}
