// `plan --changed-since`: the live resources each stack root removed since the ref leaves unmanaged
// (operations/removed-stacks.ts), counted through the CLI's own connection with the flags of the run.
import type { RemovedStack } from '../manifest/stack-changes.ts';
import { liveResources, removedNotes, removedSettings, removedText, type RemovedNote } from '../operations/removed-stacks.ts';
import { EdgeopsError } from '../errors.ts';
import { withConnection } from './connect.ts';
import type { CliContext } from './context.ts';
import type { SharedFlags } from './settings.ts';

export async function removedStackNotes(ctx: CliContext, removed: readonly RemovedStack[], flags: SharedFlags): Promise<RemovedNote[]> {
  return removedNotes(removed, async (r) => {
    const settings = removedSettings(flags, ctx.env, r);
    if (settings.local) throw new EdgeopsError('E_CONFIG', 'its --local database went with its directory');
    return withConnection(settings, [r.dir], ({ api }) => liveResources(api, r, settings.stack), { readOnly: true });
  });
}

/** The warning under the summary: the shared words, then what is gone and what to do. */
export const removedLine = (note: RemovedNote): string =>
  `${removedText(note.stack, note.live)} (${note.projectFile} is gone${note.why ? `; not counted: ${note.why}` : ''}; set retire: true in it to delete them, reviewed as a plan)`;
