// The graph operation: the manifests' dependency graph, read from the manifests alone (no request at all), or
// with `plan` each resource marked with its planned action, from the plan operation itself (so the graph and
// `edgeops plan` never disagree): list GETs only.
import type { KeyMaterial } from '../engine/fingerprint.ts';
import type { Plan } from '../engine/plan-data.ts';
import { manifestGraph, type ResourceGraph } from '../engine/resource-graph.ts';
import { ConfigError } from '../errors.ts';
import { KINDS } from '../kinds/index.ts';
import type { Api } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import type { Redactor } from '../render/redact.ts';
import type { PlanFooter } from '../render/view.ts';
import * as planning from './plan.ts';

export { changedNeighbourhood, isChanged, type GraphNode, type ResourceGraph } from '../engine/resource-graph.ts';

export interface GraphRequest {
  desired(): Promise<DesiredState>;
  /** Plan against the service and mark every node with its action. */
  plan?: { stack: string; adopt: boolean; material: KeyMaterial | undefined };
}

export interface GraphView {
  graph(graph: ResourceGraph): void;
  /** The plan has errors (the run then fails with them): show them. */
  planErrors(plan: Plan, footer: PlanFooter): void;
}

interface GraphDeps {
  /** The service; needed only with `plan`. */
  api?: Api;
  view: GraphView;
  redact: Redactor;
}

export async function run(request: GraphRequest, deps: GraphDeps): Promise<ResourceGraph> {
  if (!request.plan) {
    const graph = manifestGraph(await request.desired(), KINDS);
    deps.view.graph(graph);
    return graph;
  }
  if (!deps.api) throw new ConfigError('a graph with the plan needs a service to plan against');
  let drawn: ResourceGraph | undefined;
  const view: planning.PlanView = {
    graph(graph) {
      drawn = graph;
      deps.view.graph(graph);
    },
    plan(p, footer) {
      if (p.errors) deps.view.planErrors(p, footer);
    },
    saved: () => undefined,
    notSaved: () => undefined,
  };
  await planning.run({ ...request.plan, desired: request.desired }, { api: deps.api, view, redact: deps.redact });
  return drawn!;
}
