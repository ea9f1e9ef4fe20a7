// Ctrl-C during an apply: the first stops new actions from starting and lets those in flight finish (so no
// request is cut in half); the handler then steps aside, so a second Ctrl-C ends the process the usual way.
import type { CliContext } from './context.ts';

export interface Interrupt {
  signal: AbortSignal;
  /** From here on an interrupt stops actions; before it (locking, planning, the prompt) it stops the run. */
  actionsStarting(): void;
  dispose(): void;
}

export function trapInterrupts(ctx: CliContext): Interrupt {
  const controller = new AbortController();
  let acting = false;
  const dispose = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  function onSignal(name: NodeJS.Signals): void {
    ctx.err(acting
      ? `\n${name}: starting no new actions, waiting for those in flight (Ctrl-C again exits at once)\n`
      : `\n${name}: stopping before any action started (Ctrl-C again exits at once)\n`);
    controller.abort();
    dispose();
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { signal: controller.signal, actionsStarting: () => void (acting = true), dispose };
}
