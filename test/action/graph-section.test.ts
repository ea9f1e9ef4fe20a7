// graph-section.ts as a unit: the comment's diagram holds the changed resources and their direct neighbours,
// parses as a Mermaid flowchart, and is left out, with one line saying why, past 50 nodes.
import { describe, expect, it } from 'vitest';
import { graphSection } from '../../src/action/graph-section.ts';
import type { GraphNode, ResourceGraph } from '../../src/operations/graph.ts';
import { readMermaid } from '../cli/graph-parsers.ts';

const node = (address: string, action: GraphNode['action']): GraphNode => ({ address, kind: address.split('/')[0]!, managed: true, action });

/** `changed` new rules of one policy, which an unchanged edge uses, beside an unrelated backend. */
function graph(changed: number): ResourceGraph {
  const rules = Array.from({ length: changed }, (_, i) => node(`IPPolicyRule/r-${String(i).padStart(3, '0')}`, 'create'));
  return {
    planned: true,
    nodes: [node('IPPolicy/office', 'no-op'), ...rules, node('TCPEdge/ssh', 'no-op'), node('TunnelGroupBackend/web', 'no-op'), node('TunnelGroupBackend/far', 'no-op')],
    edges: [
      ...rules.map((r) => ({ from: r.address, to: 'IPPolicy/office', field: 'ip_policy_id' })),
      { from: 'TCPEdge/ssh', to: 'IPPolicy/office', field: 'ip_restriction.ip_policy_ids' },
      { from: 'TCPEdge/ssh', to: 'TunnelGroupBackend/web', field: 'backend.backend_id' },
    ],
  };
}

describe('the dependency diagram of the plan comment', () => {
  it('draws the changed resources and what they touch, one step each way', () => {
    const text = graphSection(graph(2))!;
    expect(text).toMatch(/^<details><summary>Dependency diagram: 2 changed resources and what they touch \(3 in all\)<\/summary>\n\n```mermaid\n/);
    expect(text).toMatch(/```\n\n<\/details>\n$/);
    const read = readMermaid(text.slice(text.indexOf('```mermaid\n') + 11, text.lastIndexOf('```')));
    // The policy the new rules reference; not the edge that uses the policy, nor the backends.
    expect([...read.nodes.keys()].sort()).toEqual(['IPPolicy/office', 'IPPolicyRule/r-000', 'IPPolicyRule/r-001']);
    expect(read.edges).toHaveLength(2);
  });

  it('stays up to 50 nodes, then says in one line why it is left out', () => {
    expect(graphSection(graph(49))).toContain('```mermaid');
    const over = graphSection(graph(50))!;
    expect(over).not.toContain('```');
    expect(over.trimEnd().split('\n')).toHaveLength(1);
    expect(over).toContain('50 changed resources and what they touch are 51 resources, more than the 50');
  });

  it('says nothing for a plan without changes', () => {
    const unchanged = graph(0);
    expect(graphSection(unchanged)).toBeUndefined();
  });
});
