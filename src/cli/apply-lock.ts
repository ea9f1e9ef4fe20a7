// How `apply` holds its stack's lock (src/lock/stack-lock.ts): the --lock-timeout option, what a waiting,
// taken-over or unreleased lock says on stderr (src/operations/lock-notices.ts), and Ctrl-C while waiting
// (the wait stops and the queued record is deleted).
import { Option } from 'commander';
import { DEFAULT_LOCK_TIMEOUT, lockNotices, type ApplyLockOptions } from '../operations/lock-notices.ts';
import type { CliContext } from './context.ts';
import { integerSetting } from './settings.ts';

export const lockTimeoutOption = (): Option =>
  new Option('--lock-timeout <seconds>', `wait this long while another apply of the stack holds its lock (0: fail at once) [default ${DEFAULT_LOCK_TIMEOUT}]`);

export function applyLockOptions(ctx: CliContext, stack: string, timeoutFlag: string | undefined): ApplyLockOptions {
  const seconds = integerSetting(timeoutFlag ?? DEFAULT_LOCK_TIMEOUT, '--lock-timeout', 'lock timeout', 0, 86_400);
  const notices = lockNotices(stack, seconds, ctx.env, (text) => ctx.err(text));
  const stopWaiting = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    ctx.err(`\n${name}: no longer waiting for the lock\n`);
    stopWaiting.abort();
  };
  return {
    ...notices,
    signal: stopWaiting.signal,
    onWait: (held) => {
      // Trapped before the message is out: whoever reads it may press Ctrl-C at once.
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      notices.onWait?.(held);
    },
    onWaitEnd: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
