// The manifests' dependency graph with each resource's planned action (resource-graph.ts draws the graph): a
// resource the plan deletes has no document, so its node and its references come from its live body, the
// references the service must see gone before it can go. A live id of a resource of this stack is shown by
// its address, as the plan shows it.
import type { ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { liveIndex, type LiveState } from './live.ts';
import { resourceOp, type Action, type Plan } from './plan-data.ts';
import { liveNames } from './plan-names.ts';
import { addManifests, GraphBuilder, literalAddress, type ResourceGraph } from './resource-graph.ts';

interface PlanGraphInput {
  plan: Plan;
  desired: DesiredState;
  live: LiveState;
}

export function planGraph(input: PlanGraphInput, kinds: readonly ResourceKind[]): ResourceGraph {
  const { plan, desired, live } = input;
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const names = liveNames(live, kinds, plan.stack);
  const literal = literalAddress(kinds);
  // Another stack's resource keeps its id: its name is that stack's, not one this graph can hold.
  const idAddress = (id: string, allowed: readonly string[]): string => {
    const name = names.get(id);
    return name !== undefined && !name.includes(' ') ? name : literal(id, allowed);
  };

  const builder = new GraphBuilder();
  addManifests(builder, desired, kinds, idAddress);
  const actions = new Map<string, Action[]>();
  for (const a of plan.actions) actions.set(a.address, [...(actions.get(a.address) ?? []), a]);

  const item = liveIndex(live);
  const documented = new Set(desired.resources.map((r) => r.address));
  const liveOnly = [...actions].filter(([address]) => !documented.has(address));
  for (const [address, list] of liveOnly) {
    const node = builder.node(address, list[0]!.kind, true);
    const label = list.find((a) => a.label)?.label;
    if (label) node.label = label;
  }
  for (const [address, list] of liveOnly) {
    for (const a of list) {
      const kind = kindOf.get(a.kind);
      const found = kind && a.liveId !== undefined ? item(a.kind, a.liveId) : undefined;
      if (kind && found) builder.references(address, kind, kind.fromLive(found.raw), idAddress);
    }
  }
  const graph = builder.build(true);
  for (const node of graph.nodes) {
    const list = actions.get(node.address);
    if (node.managed) node.action = list ? resourceOp(list) : 'no-op';
  }
  return graph;
}
