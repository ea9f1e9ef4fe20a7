// CPU work in slices, with the event loop's turn between them, while a command has requests in flight: `plan`
// starts the live state's lists before it reads the manifests, and each list is a chain of pages, the next asked
// for only once the previous one is answered; apply makes its plan ahead while it takes the stack's lock, a chain
// of requests too. Work that held the loop for 100 ms would stall every chain for as long. A stage is written
// once, as a generator that yields between documents; runAll drives it in one go (validate, tests), runPaced
// with the pauses.

/** The event loop's turn: I/O callbacks (a page's answer) run before the immediate does. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How long a stage runs before the event loop gets a turn. */
const SLICE_MS = 1;

export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to its end without a pause. */
export function runAll<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Milliseconds on a monotonic clock. (The global `performance` would load node:perf_hooks on Node 20.) */
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/** A clock for one stage: `due()` says whether it has run a slice since it last gave the loop a turn. */
export class Pace {
  private since = now();

  due(): boolean {
    return now() - this.since >= SLICE_MS;
  }

  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.since = now();
  }

  /** Pauses only when a slice has run. */
  async tick(): Promise<void> {
    if (this.due()) await this.pause();
  }
}

/** Runs `steps` to its end, giving the event loop a turn whenever `pace` says a slice has run. */
export async function runPaced<T>(steps: Steps<T>, pace = new Pace()): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (pace.due()) await pace.pause();
  }
}
