// Pacing: CPU work in slices, with the event loop's turn between them, while a command has requests in flight.
// `plan` and `apply` start the live state's lists before they read the manifests, and each list is a chain of
// pages, the next asked for only once the previous one is answered; the stack lock's heartbeat and an interrupt
// wait for the loop too. Work that held the loop for 100 ms would stall them all for as long. This is the one
// way edgeops paces work (docs/design.md, "Pacing"): a stage is written once, as a generator that yields
// between its units (documents, files); runAll drives it in one go (validate, tests), runPaced with the turns.
// A stage that awaits (the contract check sends through a recording client) is an async generator, paced alike.

/** A stage written as steps: it yields between its units of work and returns its result. */
export type Steps<T> = Generator<void, T, void>;

/** A stage that also awaits between its steps. */
export type AsyncSteps<T> = AsyncGenerator<void, T, void>;

/** How long a stage runs before the event loop gets a turn. */
const SLICE_MS = 1;

/** Milliseconds on a monotonic clock. (The global `performance` would load node:perf_hooks on Node 20.) */
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/** The event loop's turn: I/O callbacks (a page's answer) run before the immediate does. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A clock for the stages of one run: a slice is counted across them, so stages run back to back (reading the
 * manifests: validate, rules, resolve, contract) give the loop a turn no less often than one long stage.
 */
export class Pace {
  private since = now();

  /** Whether a slice has run since the loop's last turn. */
  due(): boolean {
    return now() - this.since >= SLICE_MS;
  }

  async pause(): Promise<void> {
    await turn();
    this.since = now();
  }
}

/** Runs `steps` to its end without a pause. */
export function runAll<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs `steps` to its end, giving the event loop a turn whenever `pace` says a slice has run. */
export async function runPaced<T>(steps: Steps<T> | AsyncSteps<T>, pace = new Pace()): Promise<T> {
  for (;;) {
    // A synchronous stage's steps are taken without an await: only a due turn costs one.
    const taken = steps.next();
    const next = taken instanceof Promise ? await taken : taken;
    if (next.done) return next.value;
    if (pace.due()) await pace.pause();
  }
}
