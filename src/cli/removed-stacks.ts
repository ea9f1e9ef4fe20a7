// A stack root deleted from the repository leaves its live resources as they are: nothing plans their deletion
// (retire: true does, reviewed as a change). So that this is never silent, `plan --changed-since` says how many
// live resources each removed stack leaves unmanaged, counted with the settings its edgeops.yaml had at the
// merge base (its api_url; the key from the flags and environment, as for every run).
import type { RemovedStack } from '../manifest/stack-changes.ts';
import * as listing from '../operations/list.ts';
import { EdgeopsError } from '../errors.ts';
import { withConnection } from './connect.ts';
import type { CliContext } from './context.ts';
import { resolveSettings, type SharedFlags } from './settings.ts';

export interface RemovedNote {
  stack: string;
  dir: string;
  environment: string | null;
  /** Its live resources, or null when they could not be counted. */
  live: number | null;
  line: string;
}

async function countLive(ctx: CliContext, removed: RemovedStack, flags: SharedFlags): Promise<number> {
  // The removed stack's own name and service: not the run's --stack or EDGEOPS_STACK.
  const env = { ...ctx.env, EDGEOPS_STACK: undefined };
  const settings = resolveSettings({ ...flags, stack: undefined }, env, removed.config, false);
  if (settings.local) throw new EdgeopsError('E_CONFIG', 'its --local database went with its directory');
  const outcome = await withConnection(settings, [removed.dir], ({ api }) =>
    listing.run({ stack: settings.stack, desired: { resources: [], config: removed.config } }, { api, view: { listed: () => {} } }), { readOnly: true });
  return outcome.resources.length;
}

export async function removedStackNotes(ctx: CliContext, removed: readonly RemovedStack[], flags: SharedFlags): Promise<RemovedNote[]> {
  return Promise.all(removed.map(async (r) => {
    const head = `stack ${r.stack} was removed from the repository (${r.projectFile} is gone)`;
    try {
      const live = await countLive(ctx, r, flags);
      return { stack: r.stack, dir: r.dir, environment: r.environment, live, line: `${head}; its ${live} live resource${live === 1 ? ' stays' : 's stay'} unmanaged (set retire: true in it to delete them, reviewed as a plan)` };
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      return { stack: r.stack, dir: r.dir, environment: r.environment, live: null, line: `${head}; its live resources stay unmanaged (not counted: ${why})` };
    }
  }));
}
