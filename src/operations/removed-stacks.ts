// A stack root deleted from the repository leaves its live resources as they are: nothing plans their deletion
// (`retire: true` in its edgeops.yaml does, reviewed as a change). So that this is never silent, `plan
// --changed-since` and the Action's pull request say how many live resources each removed stack leaves
// unmanaged, counted by the list operation (GETs only) with the settings its edgeops.yaml had at the merge base
// and the key of the run. Each caller connects as it always does; the count and the words are the same.
import type { Api } from '../kinds/resource-kind.ts';
import type { RemovedStack } from '../manifest/stack-changes.ts';
import * as list from './list.ts';
import { resolveSettings, type Settings, type SharedFlags } from './settings.ts';

/** A removed stack as a report shows it. */
export interface RemovedNote {
  stack: string;
  dir: string;
  environment: string | null;
  /** Its edgeops.yaml as it was, repository-relative. */
  projectFile: string;
  /** Its live resources, or null when they could not be counted. */
  live: number | null;
  /** Why they could not be counted (the first line of the error). */
  why?: string;
}

/** The warning for a removed stack: `stack NAME was removed from the repository; its N live resources stay unmanaged`. */
export function removedText(stack: string, live: number | null): string {
  const left = live === null ? 'its live resources stay' : `its ${live} live resource${live === 1 ? ' stays' : 's stay'}`;
  return `stack ${stack} was removed from the repository; ${left} unmanaged`;
}

/** The settings a removed stack was run with: its own edgeops.yaml at the base, not the run's stack. */
export function removedSettings(flags: SharedFlags, env: NodeJS.ProcessEnv, removed: RemovedStack): Settings {
  return resolveSettings({ ...flags, stack: undefined }, { ...env, EDGEOPS_STACK: undefined }, removed.config, false);
}

/** The live resources carrying the stack's marker: the list operation with no documents. */
export async function liveResources(api: Api, removed: RemovedStack, stack: string): Promise<number> {
  const listed = await list.run({ stack, desired: { resources: [], config: removed.config } }, { api, view: { listed: () => undefined } });
  return listed.resources.length;
}

/** Each removed stack with its live resources counted by `count`; a count that fails is noted, never thrown. */
export function removedNotes(removed: readonly RemovedStack[], count: (r: RemovedStack) => Promise<number>): Promise<RemovedNote[]> {
  return Promise.all(removed.map(async (r): Promise<RemovedNote> => {
    const about = { stack: r.stack, dir: r.dir, environment: r.environment, projectFile: r.projectFile };
    try {
      return { ...about, live: await count(r) };
    } catch (err) {
      return { ...about, live: null, why: err instanceof Error ? err.message.split('\n')[0] : String(err) };
    }
  }));
}
