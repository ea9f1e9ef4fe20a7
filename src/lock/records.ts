// A stack's lock records on the service: listed, ordered, deleted. What they hold is in lock-record.ts; how
// they make a lock is in stack-lock.ts.
import { ApiError } from '../errors.ts';
import type { Api } from '../kinds/resource-kind.ts';
import { LOCK_LIST_KEY, LOCK_PATH, parseLockRecord, type LockRecord } from './lock-record.ts';

/** The lock records of a stack: its holder's, and those of applies queued behind it. */
export async function listLockRecords(api: Api, stack: string): Promise<LockRecord[]> {
  const items = await api.list(LOCK_PATH, LOCK_LIST_KEY);
  return items.map((raw) => parseLockRecord(raw, stack)).filter((r): r is LockRecord => r !== undefined);
}

/** Deletes a lock record; false when it was already gone. */
export async function deleteLockRecord(api: Api, id: string): Promise<boolean> {
  try {
    await api.delete(`${LOCK_PATH}/${id}`);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}

/** The record made first by the service's clock (the head of the queue). */
export function oldest(records: readonly LockRecord[]): LockRecord | undefined {
  return [...records].sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? -1 : 1))[0];
}
