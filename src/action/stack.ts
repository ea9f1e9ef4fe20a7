// The stack of this run, for reports of a command that failed before it could print one (an invalid manifest,
// a refused key): resolved exactly as the CLI resolves it (the `stack` input, which reaches the CLI as
// --stack would, > EDGEOPS_STACK > edgeops.yaml's stack > "default"), by the CLI's own settings code, so a
// failure lands in the same pull-request comment as the plans of that stack.
import { DEFAULT_STACK, resolveStack } from '../cli/settings.ts';
import { readProjectConfig } from '../manifest/project-file.ts';
import type { Session } from './session.ts';

export function runStack(s: Session): string {
  try {
    return resolveStack(s.inputs.stack, s.env, readProjectConfig(s.inputs.paths, s.cwd).config);
  } catch {
    // An invalid stack name: the CLI failed on it too, and no comment can carry it; the default stack's can.
    return DEFAULT_STACK;
  }
}
