// A resource graph in Graphviz's DOT language (`dot -Tsvg`). Nodes are named by their address, so the text
// reads on its own; a planned action fills the node with its colour, a resource no document declares is
// dashed; each edge is labelled with its reference field.
import type { ResourceGraph } from '../engine/resource-graph.ts';
import { ACTION_STYLE, nodeCaption } from './graph-style.ts';

/** A DOT double-quoted string: a backslash or a quote escaped, a line break as \n. */
const quoted = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

export function dotGraph(graph: ResourceGraph): string {
  const lines = ['digraph edgeops {', '  rankdir=LR;', '  node [shape=box, fontname="Helvetica"];', '  edge [fontname="Helvetica", fontsize=10];'];
  for (const node of graph.nodes) {
    const attrs = [`label=${quoted(nodeCaption(node))}`];
    if (!node.managed) attrs.push('style=dashed');
    else if (node.action) {
      const style = ACTION_STYLE[node.action];
      attrs.push('style=filled', `fillcolor=${quoted(style.fill)}`, `color=${quoted(style.stroke)}`);
    }
    lines.push(`  ${quoted(node.address)} [${attrs.join(', ')}];`);
  }
  for (const edge of graph.edges) lines.push(`  ${quoted(edge.from)} -> ${quoted(edge.to)} [label=${quoted(edge.field)}];`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
