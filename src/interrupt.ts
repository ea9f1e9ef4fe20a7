// Ctrl-C during an apply: the first stops new actions from starting and lets those in flight finish (so no
// request is cut in half). A second one does not wait for them: it releases the stack's lock, giving the
// service at most FORCED_RELEASE_MS to answer, and ends the process with exit 1 (without the summary; what was
// in flight may or may not have landed, and a rerun converges). Without that release a double Ctrl-C would
// leave the lock to expire, blocking every other apply of the stack for a minute. A third one exits at once.
// The CLI's apply and the GitHub Action's apply trap interrupts alike.

/** Most time a second Ctrl-C waits for the lock's release before the process exits anyway. */
const FORCED_RELEASE_MS = 2500;

interface Interrupt {
  signal: AbortSignal;
  /** From here on an interrupt stops actions; before it (locking, planning, the prompt) it stops the run. */
  actionsStarting(): void;
  /** What a second interrupt does before the process exits (release the lock), bounded by FORCED_RELEASE_MS. */
  onForcedExit(cleanup: () => Promise<void>): void;
  dispose(): void;
}

/** `say` takes what the run says on stderr about the interrupt. */
export function trapInterrupts(say: (text: string) => void, exit: (code: number) => void = (code) => process.exit(code)): Interrupt {
  const controller = new AbortController();
  let acting = false;
  let cleanup: (() => Promise<void>) | undefined;
  let forcing = false;
  const dispose = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  function onSignal(name: NodeJS.Signals): void {
    if (forcing) return exit(1);
    if (controller.signal.aborted) {
      forcing = true;
      say(`\n${name} again: releasing the lock and exiting now, without waiting for the actions in flight (run again to converge)\n`);
      // The process ends here (commands otherwise never exit on their own): whatever is in flight is abandoned.
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, FORCED_RELEASE_MS).unref());
      void Promise.race([(cleanup?.() ?? Promise.resolve()).catch(() => undefined), timeout]).then(() => exit(1));
      return;
    }
    say(acting
      ? `\n${name}: starting no new actions, waiting for those in flight (Ctrl-C again releases the lock and exits at once)\n`
      : `\n${name}: stopping before any action started (Ctrl-C again exits at once)\n`);
    controller.abort();
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    actionsStarting: () => void (acting = true),
    onForcedExit: (fn) => void (cleanup = fn),
    dispose,
  };
}
