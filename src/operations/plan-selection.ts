// Which plan a run makes or applies, as the commands take it: the forms `--target` and `--checksum` values must
// have, and the targets of `apply --plan`, whose saved plan carries its own.
import { ConfigError } from '../errors.ts';
import type { SavedPlan } from '../engine/saved-plan.ts';
import { normalizedTargets } from '../engine/targets.ts';

export { CHECKSUM_FORM } from '../engine/plan-meaning.ts';
export { TARGET_FORM } from '../engine/targets.ts';

/**
 * The targets of the run: a saved plan's own (its targets are part of it), or those given. Giving others with
 * `--plan` is refused: the saved plan is applied as it was made.
 */
export function runTargets(given: string[] | undefined, saved?: { file: string; contents: SavedPlan }): string[] | undefined {
  if (!saved) return given;
  const recorded = saved.contents.plan.targets?.addresses ?? [];
  if (given && normalizedTargets(given).join('\n') !== recorded.join('\n')) {
    const was = recorded.length > 0 ? `with --target ${recorded.join(', ')}` : 'without --target';
    throw new ConfigError(`${saved.file} is a plan made ${was}; --plan applies it as it was made, so give no --target (or the same ones), or make a new plan`);
  }
  return recorded.length > 0 ? recorded : undefined;
}
