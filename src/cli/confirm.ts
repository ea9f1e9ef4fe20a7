// The apply confirmation. Only a terminal can answer it: off a terminal (CI, a pipe) the caller must pass
// --auto-approve, because reading "yes" from a pipe would approve plans nobody has read.
import { createInterface } from 'node:readline/promises';
import { AbortedError, ConfigError } from '../errors.ts';
import type { CliContext } from './context.ts';

export const CONFIRM_QUESTION = "Do you want to perform these actions? Only 'yes' will be accepted.";

export async function confirmApply(ctx: CliContext): Promise<void> {
  if (!ctx.stdin.isTTY) {
    throw new ConfigError('refusing to apply without confirmation: stdin is not a terminal, so nobody can answer the prompt; review the plan and pass --auto-approve');
  }
  const rl = createInterface({ input: ctx.stdin, output: ctx.stdout });
  const interrupted = new AbortController();
  rl.on('SIGINT', () => interrupted.abort());
  try {
    ctx.out(`${CONFIRM_QUESTION}\n`);
    const answer = await rl.question('  Enter a value: ', { signal: interrupted.signal });
    if (answer.trim() !== 'yes') throw new AbortedError('Apply cancelled: the answer was not "yes".');
  } catch (err) {
    if (interrupted.signal.aborted) throw new AbortedError('Apply cancelled.');
    throw err;
  } finally {
    rl.close();
  }
}
