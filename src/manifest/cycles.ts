// Cycles in the reference graph: every cycle found is one error, named in full (A -> B -> A), placed at the
// reference field of its first member that starts it.
import type { ManifestIssue, SourcePos } from '../errors.ts';

export interface RefEdge {
  to: string;
  pos: SourcePos;
}

export function findCycles(graph: ReadonlyMap<string, RefEdge[]>): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const reported = new Set<string>();

  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const edge of graph.get(node) ?? []) {
      if (!graph.has(edge.to)) continue;
      const s = state.get(edge.to);
      if (s === 'open') {
        const cycle = stack.slice(stack.indexOf(edge.to));
        const key = [...cycle].sort().join(' ');
        if (reported.has(key)) continue;
        reported.add(key);
        const start = cycle[0]!;
        const firstEdge = cycle.length === 1 ? edge : graph.get(start)!.find((e) => e.to === (cycle[1] ?? start))!;
        issues.push({ pos: firstEdge.pos, address: start, message: `reference cycle: ${[...cycle, start].join(' -> ')}` });
      } else if (s === undefined) {
        visit(edge.to);
      }
    }
    stack.pop();
    state.set(node, 'done');
  };

  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return issues;
}
