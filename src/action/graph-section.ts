// The dependency diagram in the plan comment: the changed resources and what they touch (what they reference
// and what references them), as a Mermaid flowchart GitHub draws, folded under <details> so the plan stays
// first. Past GRAPH_NODE_LIMIT nodes a diagram is a tangle nobody reads: one line says it was left out.
import { changedNeighbourhood, isChanged, type ResourceGraph } from '../operations/graph.ts';
import { mermaidGraph } from '../render/graph-mermaid.ts';

const GRAPH_NODE_LIMIT = 50;

/** The comment's diagram section; undefined when the plan changes nothing. */
export function graphSection(graph: ResourceGraph): string | undefined {
  const part = changedNeighbourhood(graph);
  const changed = part.nodes.filter(isChanged).length;
  if (changed === 0) return undefined;
  const total = part.nodes.length;
  if (total > GRAPH_NODE_LIMIT) {
    return `_Dependency diagram left out: the ${changed} changed resources and what they touch are ${total} resources, more than the ${GRAPH_NODE_LIMIT} a diagram stays readable with (\`edgeops graph --plan\` prints it)._\n`;
  }
  const summary = `Dependency diagram: ${changed} changed resource${changed === 1 ? '' : 's'} and what ${changed === 1 ? 'it touches' : 'they touch'} (${total} in all)`;
  return `<details><summary>${summary}</summary>\n\n\`\`\`mermaid\n${mermaidGraph(part)}\`\`\`\n\n</details>\n`;
}
