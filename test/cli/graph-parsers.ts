// Reads `edgeops graph` output back with real parsers from the npm registry, so a test checks what a Mermaid or
// Graphviz reader sees, not what the renderer meant to write: @probelabs/maid (a Chevrotain grammar of Mermaid
// flowcharts that runs in Node; mermaid itself needs a browser's DOM to parse) and @ts-graphviz/ast (a DOT
// grammar). Each returns the nodes by address, with what marks them, and the edges as `from -> to (field)`.
import { renderMermaid, validate } from '@probelabs/maid';
import { parse, type ASTNode, type AttributeASTNode, type EdgeASTNode, type NodeASTNode } from '@ts-graphviz/ast';

export interface ReadNode {
  address: string;
  /** The caption's `(action)` suffix, if any. */
  marked?: string;
  /** Mermaid: the node's fill from its class; DOT: its fillcolor. */
  fill?: string;
  /** DOT: dashed (a literal id's target); Mermaid: the class is not kept by the parser, see the caption. */
  dashed?: boolean;
}

export interface ReadGraph {
  nodes: Map<string, ReadNode>;
  edges: string[];
}

/** `IPPolicy/office (update)` -> address and mark. */
function caption(text: string): { address: string; marked?: string } {
  const m = /^(\S+) \(([^)]+)\)$/.exec(text);
  return m ? { address: m[1]!, marked: m[2] } : { address: text };
}

const edgeText = (from: string, to: string, field: string): string => `${from} -> ${to} (${field})`;

export function readMermaid(text: string): ReadGraph {
  const checked = validate(text);
  if (checked.type !== 'flowchart' || checked.errors.length > 0) throw new Error(`not a valid Mermaid flowchart: ${JSON.stringify(checked)}`);
  const { graph, errors } = renderMermaid(text);
  if (errors.length > 0) throw new Error(`Mermaid flowchart with errors: ${JSON.stringify(errors)}`);
  const byId = new Map<string, ReadNode>();
  for (const n of graph.nodes) byId.set(n.id, { ...caption(n.label), ...(n.style?.fill ? { fill: n.style.fill } : {}) });
  const nodes = new Map([...byId.values()].map((n) => [n.address, n]));
  // The grammar tokenizes a label: `backend.backend_id` comes back as `backend .backend_id`.
  const edges = graph.edges.map((e) => edgeText(byId.get(e.source)!.address, byId.get(e.target)!.address, (e.label ?? '').replace(/\s+/g, '')));
  return { nodes, edges: edges.sort() };
}

const literal = (node: { id: { value: string } }): string => node.id.value;

function attributes(list: readonly ASTNode[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of list) if (a.type === 'Attribute') out.set((a as AttributeASTNode).key.value, (a as AttributeASTNode).value.value);
  return out;
}

export function readDot(text: string): ReadGraph {
  const ast = parse(text);
  const graph = ast.children.find((c) => c.type === 'Graph');
  if (!graph || graph.type !== 'Graph' || !graph.directed) throw new Error('not a directed DOT graph');
  const nodes = new Map<string, ReadNode>();
  const edges: string[] = [];
  for (const child of graph.children) {
    if (child.type === 'Node') {
      const node = child as NodeASTNode;
      const attrs = attributes(node.children);
      const read = caption(attrs.get('label') ?? literal(node));
      if (read.address !== literal(node)) throw new Error(`node ${literal(node)} is captioned ${read.address}`);
      nodes.set(read.address, { ...read, ...(attrs.has('fillcolor') ? { fill: attrs.get('fillcolor') } : {}), dashed: attrs.get('style') === 'dashed' });
    } else if (child.type === 'Edge') {
      const edge = child as EdgeASTNode;
      const [from, to] = edge.targets.map((t) => ('id' in t ? literal(t as { id: { value: string } }) : ''));
      edges.push(edgeText(from!, to!, attributes(edge.children).get('label') ?? ''));
    }
  }
  return { nodes, edges: edges.sort() };
}
