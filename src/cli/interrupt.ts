// Ctrl-C during an apply: the first stops new actions from starting and lets those in flight finish (so no
// request is cut in half); the handler then steps aside, so a second Ctrl-C ends the process the usual way.
import type { CliContext } from './context.ts';

export interface Interrupt {
  signal: AbortSignal;
  dispose(): void;
}

export function trapInterrupts(ctx: CliContext): Interrupt {
  const controller = new AbortController();
  const dispose = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  function onSignal(name: NodeJS.Signals): void {
    ctx.err(`\n${name}: starting no new actions, waiting for those in flight (Ctrl-C again exits at once)\n`);
    controller.abort();
    dispose();
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { signal: controller.signal, dispose };
}
