// Confirmations (apply, unlock). Only a terminal can answer them: off a terminal (CI, a pipe) the caller must
// pass --auto-approve (or --force), because reading "yes" from a pipe would approve what nobody has read.
import { createInterface } from 'node:readline/promises';
import { AbortedError, ConfigError } from '../errors.ts';
import type { CliContext } from './context.ts';

const CONFIRM_QUESTION = "Do you want to perform these actions? Only 'yes' will be accepted.";

export async function confirmApply(ctx: CliContext): Promise<void> {
  await confirm(ctx, CONFIRM_QUESTION, {
    noTerminal: 'refusing to apply without confirmation: stdin is not a terminal, so nobody can answer the prompt; review the plan and pass --auto-approve',
    cancelled: 'Apply cancelled',
  });
}

/**
 * The approval of one stack of a run over several: "yes", or for a stack whose edgeops.yaml says `protect: true`
 * its name typed, so a production stack is not approved by the answer that approved the stack before it.
 */
export async function confirmStackApply(ctx: CliContext, stack: string, protect: boolean): Promise<void> {
  const expected = protect ? stack : 'yes';
  await confirm(ctx, protect
    ? `Stack ${stack} is protected. Do you want to perform these actions on it? Only its name, '${stack}', will be accepted.`
    : `Do you want to perform these actions on stack ${stack}? Only 'yes' will be accepted.`, {
    noTerminal: 'refusing to apply without confirmation: stdin is not a terminal, so nobody can answer the prompt; review the plans and pass --auto-approve or --checksum STACK=sha256:... for each stack',
    cancelled: `Apply of stack ${stack} cancelled`,
  }, expected);
}

/** Asks `question` on the terminal; anything but `expected` (or Ctrl-C) is an AbortedError `cancelled`. */
export async function confirm(ctx: CliContext, question: string, says: { noTerminal: string; cancelled: string }, expected = 'yes'): Promise<void> {
  if (!ctx.stdin.isTTY) throw new ConfigError(says.noTerminal);
  const rl = createInterface({ input: ctx.stdin, output: ctx.stdout });
  const interrupted = new AbortController();
  rl.on('SIGINT', () => interrupted.abort());
  // Ctrl-D (end of input) at the prompt is an answer too: not "yes".
  let ended = false;
  rl.on('close', () => {
    ended = true;
  });
  try {
    ctx.out(`${question}\n`);
    const answer = await rl.question('  Enter a value: ', { signal: interrupted.signal });
    if (answer.trim() !== expected) throw new AbortedError(`${says.cancelled}: the answer was not "${expected}".`);
  } catch (err) {
    if (interrupted.signal.aborted) throw new AbortedError(`${says.cancelled}.`);
    if (ended || (err as { code?: unknown }).code === 'ABORT_ERR') throw new AbortedError(`${says.cancelled}: no answer (end of input).`);
    throw err;
  } finally {
    rl.close();
  }
}
