// A stack root that a pull request deletes: nothing is deleted on the service (a stack is retired with
// `retire: true`, reviewed like any change), and nothing is silent about it either: the comment says how many
// live resources the stack leaves unmanaged (operations/removed-stacks.ts), counted with the settings its
// edgeops.yaml had at the base commit and the action's inputs.
import type { RemovedStack } from '../manifest/stack-changes.ts';
import { liveResources, removedNotes, removedSettings, type RemovedNote } from '../operations/removed-stacks.ts';
import { withService } from './edgeops.ts';
import type { Session } from './session.ts';

/** The removed stacks with their live resources counted; one that cannot be counted is warned about. */
export async function countRemoved(s: Session, removed: readonly RemovedStack[]): Promise<RemovedNote[]> {
  const o = { out: () => undefined, err: (text: string) => s.runner.info(s.redact(text).trimEnd()) };
  const notes = await removedNotes(removed, (r) => {
    const settings = removedSettings({ color: false }, s.edgeopsEnv, r);
    return withService(settings, o, (api) => liveResources(api, r, settings.stack));
  });
  for (const n of notes) if (n.live === null) s.runner.warning(`stack ${n.stack} was removed from the repository; its live resources could not be counted: ${s.redact(n.why ?? '')}`);
  return notes;
}
