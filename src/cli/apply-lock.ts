// How `apply` holds its stack's lock (src/lock/stack-lock.ts): the --lock-timeout option, what a waiting,
// taken-over or unreleased lock says on stderr, and Ctrl-C while waiting (the wait stops and the queued record
// is deleted).
import { Option } from 'commander';
import { currentHolder } from '../lock/holder.ts';
import type { LockOptions } from '../lock/stack-lock.ts';
import type { CliContext } from './context.ts';
import { integerSetting } from './settings.ts';

/** Seconds an apply waits by default while another apply of the stack holds its lock. */
export const DEFAULT_LOCK_TIMEOUT = 120;

export const lockTimeoutOption = (): Option =>
  new Option('--lock-timeout <seconds>', `wait this long while another apply of the stack holds its lock (0: fail at once) [default ${DEFAULT_LOCK_TIMEOUT}]`);

export function applyLockOptions(ctx: CliContext, stack: string, timeoutFlag: string | undefined): LockOptions & { onReleaseError: (err: unknown, id: string) => void } {
  const seconds = integerSetting(timeoutFlag ?? DEFAULT_LOCK_TIMEOUT, '--lock-timeout', 'lock timeout', 0, 86_400);
  const stopWaiting = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    ctx.err(`\n${name}: no longer waiting for the lock\n`);
    stopWaiting.abort();
  };
  return {
    waitMs: seconds * 1000,
    identity: currentHolder(ctx.env),
    signal: stopWaiting.signal,
    onTakeover: (record, why) => ctx.err(`Took over the lock ${record.id} of stack "${stack}" from ${record.holder}: ${why === 'holder-gone'
      ? `that process is no longer running on this host (since ${record.acquired})`
      : `it stopped renewing the lock (expired ${record.expires})`}\n`),
    onWait: (held) => {
      // Trapped before the message is out: whoever reads it may press Ctrl-C at once.
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      ctx.err(`Waiting up to ${seconds} s for the lock of stack "${stack}": another apply is running (lock ${held.id}, holder ${held.holder}, expires ${held.expires})\n`);
    },
    onWaitEnd: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
    onReleaseError: (err, id) =>
      ctx.err(`Warning: could not release the lock ${id} of stack "${stack}" (${err instanceof Error ? err.message : String(err)}); it expires within a minute unless renewed\n`),
  };
}
