// A stack root that a pull request deletes: nothing is deleted on the service (a stack is retired with
// `retire: true`, reviewed like any change), and nothing is silent about it either: the comment says how many
// live resources the stack leaves unmanaged, counted by the list operation (GETs only) with the settings its
// edgeops.yaml had at the base commit and the action's inputs.
import type { ProjectConfig } from '../manifest/document.ts';
import * as list from '../operations/list.ts';
import { resolveSettings } from '../operations/settings.ts';
import { withService } from './edgeops.ts';
import type { Session } from './session.ts';

/** The live resources carrying `stack`'s marker; undefined (with a warning) when the service cannot tell. */
export async function liveCount(s: Session, stack: string, config: ProjectConfig): Promise<number | undefined> {
  const env = { ...s.edgeopsEnv };
  delete env.EDGEOPS_STACK;
  try {
    const settings = resolveSettings({ color: false, stack }, env, config, false);
    const o = { out: () => undefined, err: (text: string) => s.runner.info(s.redact(text).trimEnd()) };
    // The list operation with no documents: every live resource of the stack, each an unmanaged one now.
    const view: list.ListView = { listed: () => undefined };
    const listed = await withService(settings, o, (api) => list.run({ stack, desired: { resources: [], config } }, { api, view }));
    return listed.resources.length;
  } catch (err) {
    s.runner.warning(`stack ${stack} was removed from the repository; its live resources could not be counted: ${s.redact((err as Error).message)}`);
    return undefined;
  }
}
