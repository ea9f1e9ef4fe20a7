// What an apply says about its stack's lock (src/lock/stack-lock.ts): waiting for it, taking over a stale one,
// failing to release it. The CLI (src/cli/apply-lock.ts, which adds --lock-timeout and Ctrl-C while waiting)
// and the GitHub Action say the same; `say` takes whole lines.
import { currentHolder } from '../lock/holder.ts';
import type { LockRecord } from '../lock/lock-record.ts';
import type { LockOptions } from '../lock/stack-lock.ts';

/** Seconds an apply waits by default while another apply of the stack holds its lock. */
export const DEFAULT_LOCK_TIMEOUT = 120;

export type ApplyLockOptions = LockOptions & { onReleaseError: (err: unknown, id: string) => void };

export function lockNotices(stack: string, seconds: number, env: NodeJS.ProcessEnv, say: (text: string) => void): ApplyLockOptions {
  return {
    waitMs: seconds * 1000,
    identity: currentHolder(env),
    onTakeover: (record, why) => say(`Took over the lock ${record.id} of stack "${stack}" from ${record.holder}: ${why === 'holder-gone'
      ? `that process is no longer running on this host (since ${record.acquired})`
      : `it stopped renewing the lock (expired ${record.expires})`}\n`),
    onWait: (held: LockRecord) =>
      say(`Waiting up to ${seconds} s for the lock of stack "${stack}": another apply is running (lock ${held.id}, holder ${held.holder}, expires ${held.expires})\n`),
    onReleaseError: (err, id) =>
      say(`Warning: could not release the lock ${id} of stack "${stack}" (${err instanceof Error ? err.message : String(err)}); it expires within a minute unless renewed\n`),
  };
}
