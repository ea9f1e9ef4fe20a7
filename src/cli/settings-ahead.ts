// The settings of a run as known before its manifests are read: flags, environment and the project file
// (edgeops.yaml, read first and on its own). With them a command starts its network work (the live state's
// lists, the stack lock) while the manifests load. Undefined when the project file or a setting is invalid
// or the service is not named: the run then reads the manifests first and reports their problems, then the
// setting's, as it always has. Its callers (plan, apply) plan from the paths: a path that does not exist, and
// paths that hold part of a stack, are refused here, before that network work starts, whatever the settings;
// so they read the manifests without checking the paths for whole stacks again.
import { readProjectConfig } from '../manifest/discover.ts';
import { assertPathsExist } from '../manifest/missing-paths.ts';
import { assertWholeStacks } from '../manifest/stack-coverage.ts';
import type { CliContext } from './context.ts';
import { resolveSettings, type Settings, type SharedFlags } from './settings.ts';

export function settingsBeforeManifests(paths: string[], flags: SharedFlags, ctx: CliContext, command: 'plan' | 'apply'): Settings | undefined {
  assertPathsExist(paths, process.cwd());
  assertWholeStacks(paths, process.cwd(), command);
  const project = readProjectConfig(paths, process.cwd());
  if (project.issues.length > 0) return undefined;
  try {
    const settings = resolveSettings(flags, ctx.env, project.config, ctx.stdout.isTTY === true);
    return settings.local || (settings.apiUrl && settings.apiKey) ? settings : undefined;
  } catch {
    return undefined;
  }
}
