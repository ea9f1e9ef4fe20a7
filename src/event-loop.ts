// Handing the event loop back between slices of CPU work, so the answers of requests in flight are taken in
// (and the next page of a list asked for) while a command still has work of its own to do.

/** The event loop's turn: I/O callbacks (a page's answer) run before the immediate does. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
