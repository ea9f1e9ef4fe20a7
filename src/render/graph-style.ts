// How a graph's nodes look, the same in every graph format: a colour per planned action (the plan's own
// signs say the same in text), a dashed outline for a resource no document declares, and the caption.
import type { GraphNode, NodeAction } from '../engine/resource-graph.ts';

interface NodeStyle {
  fill: string;
  stroke: string;
}

/** Light fills with dark outlines: readable in GitHub's light and dark themes alike. */
export const ACTION_STYLE: Readonly<Record<NodeAction, NodeStyle>> = {
  create: { fill: '#d4f7d4', stroke: '#1a7f37' },
  update: { fill: '#fff3c4', stroke: '#9a6700' },
  replace: { fill: '#ffe0c2', stroke: '#bc4c00' },
  delete: { fill: '#ffd7d5', stroke: '#cf222e' },
  'no-op': { fill: '#f6f8fa', stroke: '#6e7781' },
};

/** The order classes and legends list the actions in. */
export const NODE_ACTIONS = Object.keys(ACTION_STYLE) as NodeAction[];

/** What a node says: its address (or a natural-key item's label), and with a plan the action unless none. */
export function nodeCaption(node: GraphNode): string {
  const name = node.label ?? node.address;
  if (!node.managed) return `${name} (not in the manifests)`;
  return node.action !== undefined && node.action !== 'no-op' ? `${name} (${node.action})` : name;
}
