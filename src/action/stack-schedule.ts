// The order a merge applies several stacks in: a stack runs once every stack it names in `after` (among those of
// this run) has finished well; stacks that wait on nothing run at once, up to `parallel` at a time. A stack that
// did not finish well (failed, stale) skips every stack after it, directly or through others, and the skipped
// stack names the one that caused it. A stack of `after` outside this run does not hold anything back.

export interface Scheduled {
  /** Repository-relative, as `after` names it. */
  dir: string;
  stack: string;
  after: readonly string[];
}

export interface Finished {
  ok: boolean;
}

/** Runs `work` over `items` in `after` order; `skipped` makes the result of a stack that cannot run. */
export async function runInOrder<T extends Scheduled, R extends Finished>(
  items: readonly T[],
  work: (item: T) => Promise<R>,
  skipped: (item: T, cause: T, causeResult: R) => R,
  parallel = 4,
): Promise<Map<string, R>> {
  const inRun = new Set(items.map((i) => i.dir));
  const results = new Map<string, R>();
  /** Per stack that did not finish well: the stack at the start of the chain (itself, or what skipped it). */
  const causes = new Map<string, T>();
  const pending = [...items];
  const running = new Set<Promise<void>>();

  const depsOf = (item: T): string[] => item.after.filter((d) => inRun.has(d) && d !== item.dir);
  const start = (item: T): void => {
    const task = work(item).then((result) => {
      results.set(item.dir, result);
      if (!result.ok) causes.set(item.dir, item);
    }).finally(() => running.delete(task));
    running.add(task);
  };

  while (pending.length > 0 || running.size > 0) {
    // Skip what waits on a stack that did not finish well, until nothing more can be skipped.
    for (let i = 0; i < pending.length; i++) {
      const item = pending[i]!;
      const blocked = depsOf(item).find((d) => causes.has(d));
      if (blocked === undefined) continue;
      const cause = causes.get(blocked)!;
      results.set(item.dir, skipped(item, cause, results.get(cause.dir)!));
      causes.set(item.dir, cause);
      pending.splice(i, 1);
      i = -1;
    }
    for (let i = 0; i < pending.length && running.size < parallel; i++) {
      const item = pending[i]!;
      if (!depsOf(item).every((d) => results.has(d))) continue;
      pending.splice(i--, 1);
      start(item);
    }
    if (running.size === 0) {
      if (pending.length === 0) break;
      // Only a cycle of `after` can leave stacks waiting with nothing running; validation refuses cycles first.
      throw new Error(`after: a cycle among ${pending.map((item) => item.dir).join(', ')}`);
      break;
    }
    await Promise.race(running);
  }
  return results;
}
