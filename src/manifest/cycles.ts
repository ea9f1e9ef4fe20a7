// Cycles in the reference graph: every cycle found is one error, named in full (A -> B -> A), placed at the
// reference field of its first member that starts it.
import type { ManifestIssue, SourcePos } from '../errors.ts';
import { dependencyOrder } from '../graph.ts';

export interface RefEdge {
  to: string;
  pos: SourcePos;
}

export function findCycles(graph: ReadonlyMap<string, RefEdge[]>): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const reported = new Set<string>();
  const targets = (node: string): string[] => (graph.get(node) ?? []).map((e) => e.to).filter((to) => graph.has(to));
  const onCycle = (cycle: string[]): void => {
    const key = [...cycle].sort().join(' ');
    if (reported.has(key)) return;
    reported.add(key);
    const start = cycle[0]!;
    const firstEdge = graph.get(start)!.find((e) => e.to === (cycle[1] ?? start))!;
    issues.push({ pos: firstEdge.pos, address: start, message: `reference cycle: ${[...cycle, start].join(' -> ')}` });
  };
  Array.from(dependencyOrder(graph.keys(), targets, onCycle)); // walked for its cycles
  return issues;
}
