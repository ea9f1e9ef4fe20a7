// Once the manifests are read, their secret values join the API keys in the redactor. Kept apart from
// context.ts, which every run loads: this one needs the kinds' descriptors (their secret fields), and a run
// such as `--version` or `serve` should not load them.
import type { DesiredState } from '../manifest/document.ts';
import { redactorFor } from '../operations/redactor.ts';
import { runApiKeys, type CliContext } from './context.ts';

/** From now on, every output of this run hides the desired state's secret values (and still its API keys). */
export function learnSecrets(ctx: CliContext, desired: DesiredState): void {
  ctx.redact = redactorFor(desired, runApiKeys(ctx));
}
