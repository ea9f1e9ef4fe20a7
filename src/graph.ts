// The one walk over a dependency graph, shared by every ordering the program derives from references: the
// manifest's reference cycles, the kinds referenced first (adoption), the resources referenced first, and the
// plan's execution steps (levels and reachability, in src/engine/graph.ts). A graph is given as a function
// from a node to the nodes it depends on; nodes are compared by identity (===), so a caller passes one value
// per node (a string, or the same object each time).

/** The nodes `node` depends on, in the order they are to be visited. */
type DepsOf<N> = (node: N) => Iterable<N>;

interface Frame<N> {
  node: N;
  deps: Iterator<N>;
}

/**
 * Depth-first from each root in turn, yielding every node reached after all the nodes it depends on
 * (post-order). An edge back to a node still being walked closes a cycle: `onCycle` gets the cycle's nodes
 * from that node on (the path that returns to it), and the edge is not followed. Lazy: a caller that stops
 * early walks no further.
 */
export function* dependencyOrder<N>(roots: Iterable<N>, depsOf: DepsOf<N>, onCycle?: (cycle: N[]) => void): Generator<N, void, undefined> {
  const state = new Map<N, 'open' | 'done'>();
  const path: Frame<N>[] = [];
  const open = (node: N): void => {
    state.set(node, 'open');
    path.push({ node, deps: depsOf(node)[Symbol.iterator]() });
  };
  for (const root of roots) {
    if (state.has(root)) continue;
    open(root);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const next = top.deps.next();
      if (next.done) {
        path.pop();
        state.set(top.node, 'done');
        yield top.node;
        continue;
      }
      const dep = next.value;
      const s = state.get(dep);
      if (s === undefined) open(dep);
      else if (s === 'open' && onCycle) onCycle(path.slice(path.findIndex((f) => f.node === dep)).map((f) => f.node));
    }
  }
}

/** Whether `from` depends, directly or transitively, on `to` (a node reaches itself). */
export function reaches<N>(from: N, to: N, depsOf: DepsOf<N>): boolean {
  for (const node of dependencyOrder([from], depsOf)) if (node === to) return true;
  return false;
}
