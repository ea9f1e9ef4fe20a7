// The formats of `edgeops graph`, one entry each: a new format is its own file plus one line here.
import type { ResourceGraph } from '../engine/resource-graph.ts';
import { dotGraph } from './graph-dot.ts';
import { mermaidGraph } from './graph-mermaid.ts';

export const GRAPH_FORMATS = {
  mermaid: mermaidGraph,
  dot: dotGraph,
} as const satisfies Record<string, (graph: ResourceGraph) => string>;

export type GraphFormat = keyof typeof GRAPH_FORMATS;

/** The --format choices of `edgeops graph`, the default first. */
export const GRAPH_FORMAT_NAMES = Object.keys(GRAPH_FORMATS) as GraphFormat[];
