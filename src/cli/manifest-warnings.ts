// What the manifests say that is not wrong but likely a mistake (an environment's Patch that changes nothing, a
// variable no document uses): said on stderr, each at its position, so stdout stays the command's output.
import { formatIssue } from '../errors.ts';
import type { DesiredState } from '../manifest/document.ts';
import type { CliContext } from './context.ts';

export function sayManifestWarnings(ctx: CliContext, desired: DesiredState): void {
  for (const warning of desired.warnings ?? []) ctx.err(`Warning: ${formatIssue(warning)}\n`);
}
