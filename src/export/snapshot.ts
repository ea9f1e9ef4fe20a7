// `edgeops export --snapshot FILE`: the live state as JSON, exactly the lists the planner reads (recorded while
// the kinds fetch, so a kind added later is in the snapshot without this file knowing it).
import { writeFileSync } from 'node:fs';
import { readOnlyApi } from '../client/read-only.ts';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type Snapshot, type SnapshotList } from '../client/snapshot.ts';
import { fetchLive, type LiveState } from '../engine/live.ts';
import { KINDS } from '../kinds/index.ts';
import type { Api, ResourceKind } from '../kinds/resource-kind.ts';
import { isLockRecord } from '../lock/lock-record.ts';

/** Reads live state once, recording every list the kinds fetch; returns both (the export is built from `live`). */
export async function takeSnapshot(api: Api, opts: { kinds?: readonly ResourceKind[]; now?: Date } = {}): Promise<{ snapshot: Snapshot; live: LiveState }> {
  const lists = new Map<string, SnapshotList>();
  const recorder = readOnlyApi(
    {
      get: (path) => api.get(path),
      async list(path, listKey) {
        const items = await api.list(path, listKey);
        // An apply's lock record (src/lock/) is no resource: the snapshot leaves it out as the planner does.
        lists.set(`${path}\u0000${listKey}`, { path, list_key: listKey, items: structuredClone(items.filter((raw) => !isLockRecord(raw))) });
        return items;
      },
    },
    'a snapshot',
  );
  const live = await fetchLive(opts.kinds ?? KINDS, recorder, undefined, isLockRecord);
  const sorted = [...lists.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const snapshot: Snapshot = {
    format: SNAPSHOT_FORMAT,
    format_version: SNAPSHOT_VERSION,
    taken_at: (opts.now ?? new Date()).toISOString(),
    lists: sorted,
  };
  return { snapshot, live };
}

export function writeSnapshot(file: string, snapshot: Snapshot): void {
  writeFileSync(file, `${JSON.stringify(snapshot, null, 2)}\n`);
}
