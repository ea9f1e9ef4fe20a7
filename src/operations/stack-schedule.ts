// The order several stacks run in, for `edgeops apply` over several stacks and for the Action's merge: a stack
// runs once every stack it comes `after` (among those of this run) has finished well; stacks that wait on nothing
// run at once, up to `parallel` at a time. A stack that did not finish well (failed, refused, stale) skips every
// stack after it, directly or through others, and the skipped stack names the one that caused it. A stack of
// `after` outside this run does not hold anything back.

interface OrderOptions<T, R> {
  /** The items `item` comes after; those outside the run are ignored. */
  after(item: T): readonly T[];
  parallel: number;
  /** Whether a result lets the items after it run. */
  ok(result: R): boolean;
  /** The result of an item that cannot run: `cause` started the chain of items that did not finish well. */
  skipped(item: T, cause: T, causeResult: R): R;
  /** Each result as soon as its item is done (or skipped). */
  onDone?(item: T, result: R): void;
}

/** Runs `work` over `items` in `after` order; the map holds every item's result in the order they finished. */
export async function runInOrder<T, R>(items: readonly T[], work: (item: T) => Promise<R>, opts: OrderOptions<T, R>): Promise<Map<T, R>> {
  const inRun = new Set(items);
  const results = new Map<T, R>();
  /** Per item that did not finish well: the item at the start of the chain (itself, or what skipped it). */
  const causes = new Map<T, T>();
  const pending = [...items];
  /** Items whose `after` all finished well, in the order they became so: the first to wait is the first to run. */
  const ready: T[] = [];
  const running = new Set<Promise<void>>();
  const parallel = Math.max(1, opts.parallel);

  const depsOf = (item: T): T[] => opts.after(item).filter((d) => inRun.has(d) && d !== item);
  const settle = (item: T, result: R): void => {
    results.set(item, result);
    opts.onDone?.(item, result);
  };
  const start = (item: T): void => {
    const task = work(item).then((result) => {
      if (!opts.ok(result)) causes.set(item, item);
      settle(item, result);
    }).finally(() => running.delete(task));
    running.add(task);
  };

  while (pending.length > 0 || ready.length > 0 || running.size > 0) {
    // Skip what waits on an item that did not finish well, until nothing more can be skipped.
    for (let i = 0; i < pending.length; i++) {
      const item = pending[i]!;
      const blocked = depsOf(item).find((d) => causes.has(d));
      if (blocked === undefined) continue;
      const cause = causes.get(blocked)!;
      causes.set(item, cause);
      pending.splice(i, 1);
      settle(item, opts.skipped(item, cause, results.get(cause)!));
      i = -1;
    }
    for (let i = 0; i < pending.length; i++) {
      const item = pending[i]!;
      if (!depsOf(item).every((d) => results.has(d))) continue;
      pending.splice(i--, 1);
      ready.push(item);
    }
    while (ready.length > 0 && running.size < parallel) start(ready.shift()!);
    if (running.size === 0) {
      if (pending.length === 0) break;
      // Only a cycle of `after` can leave items waiting with nothing running; validation refuses cycles first.
      throw new Error(`after: a cycle among ${pending.length} stacks`);
    }
    await Promise.race(running);
  }
  return results;
}
