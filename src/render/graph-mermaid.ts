// A resource graph as a Mermaid flowchart (GitHub renders ```mermaid blocks). Node ids are n0, n1, ... in the
// graph's sorted order, the caption in quotes; a planned action is a class (classDef per action), a
// resource no document declares has the `external` class; each edge is labelled with its reference field.
import type { NodeAction, ResourceGraph } from '../engine/resource-graph.ts';
import { ACTION_STYLE, NODE_ACTIONS, nodeCaption } from './graph-style.ts';

/** Mermaid's entity codes keep a caption's quote or angle bracket from ending the label or opening HTML. */
const escapeText = (text: string): string => text.replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');

/** An edge label between pipes takes no quotes: a field is letters, digits, "_" and "/", anything else goes. */
const edgeLabel = (field: string): string => field.replace(/[^A-Za-z0-9_/.-]/g, '');

/** A class name per action; Mermaid's class names take no "-". */
const classOf = (action: NodeAction): string => action.replace('-', '');

export function mermaidGraph(graph: ResourceGraph): string {
  const id = new Map(graph.nodes.map((n, i) => [n.address, `n${i}`]));
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) {
    const cls = !node.managed ? 'external' : node.action && classOf(node.action);
    lines.push(`  ${id.get(node.address)}["${escapeText(nodeCaption(node))}"]${cls ? `:::${cls}` : ''}`);
  }
  for (const edge of graph.edges) lines.push(`  ${id.get(edge.from)} -->|${edgeLabel(edge.field)}| ${id.get(edge.to)}`);
  const used = new Set(graph.nodes.map((n) => n.action));
  for (const action of NODE_ACTIONS) {
    if (!used.has(action)) continue;
    const style = ACTION_STYLE[action];
    lines.push(`  classDef ${classOf(action)} fill:${style.fill},stroke:${style.stroke},color:#1f2328`);
  }
  if (graph.nodes.some((n) => !n.managed)) lines.push('  classDef external stroke-dasharray:4 3');
  return `${lines.join('\n')}\n`;
}
