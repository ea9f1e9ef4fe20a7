// Input `against`: plan (and drift) from a snapshot file that `edgeops export --snapshot` wrote in a trusted
// job, instead of from the service, so a job holding no API key (a pull request from a fork) still gets a
// plan. The plan reads the snapshot as `edgeops plan --against FILE` does; the action also tells readers which snapshot the plan
// is against and when it was taken, since a plan against an old snapshot is a plan against old state.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ActionInputs } from './inputs.ts';

/**
 * `taken_at` of the snapshot (docs/drift-and-export.md), or undefined when the file cannot tell: the plan then
 * reports what is wrong with it, so this stays quiet.
 */
function takenAt(file: string): string | undefined {
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const at = (data as { taken_at?: unknown }).taken_at;
    return typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;
  } catch {
    return undefined;
  }
}

/** ` against the snapshot `FILE` taken T`, for the comment's small print and the log; empty without `against`. */
export function againstNote(inputs: ActionInputs, cwd: string): string {
  if (!inputs.against) return '';
  const at = takenAt(resolve(cwd, inputs.against));
  // The path is the workflow's own input, but keep backticks from breaking the code span.
  const name = inputs.against.replace(/`/g, "'");
  return ` against the snapshot \`${name}\`${at ? ` taken ${at}` : ''}`;
}
