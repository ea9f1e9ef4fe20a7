// The manifests' dependency graph as data, for people to look at (`edgeops graph`, the pull-request comment):
// one node per resource (`Kind/name`), one edge per reference a document makes, drawn from the referrer to what
// it references and read from its kind's declared RefFields (a backend, IP policies, certificate authorities,
// the parent of a rule or a route), so a new kind's references show without a change here. A literal id
// names a resource no document declares: it becomes a node of its own, `Kind/id` (names never hold "_", ids
// always do, so the two never collide). Nodes and edges are sorted: equal manifests give equal text.
import type { Obj, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { showPath } from '../contract/field-path.ts';
import { naturalCompare } from '../natural-order.ts';
import type { ResourceOp } from './plan-data.ts';
import { isPendingRef, refValues } from '../kinds/refs.ts';

/** What a plan does to a node's resource: what the plan shows for it, or nothing. */
export type NodeAction = ResourceOp | 'no-op';

export interface GraphNode {
  /** `Kind/name`, or `Kind/id` for a literal id's target. */
  address: string;
  kind: string;
  /** Declared by a document (or, in a plan, a live resource of the stack); false for a literal id's target. */
  managed: boolean;
  /** Set on every managed node of a planned graph (planGraph); absent without a plan. */
  action?: NodeAction;
  /** How a reviewer reads an address made of ids (a natural-key item no document names), as the plan labels it. */
  label?: string;
}

interface GraphEdge {
  from: string;
  to: string;
  /** The reference field, as messages spell fields: `backend/backend_id`, `ip_restriction/ip_policy_ids`. */
  field: string;
}

export interface ResourceGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Whether the nodes carry planned actions. */
  planned: boolean;
}

/** The address a literal id stands for, given the kinds its field may point at. */
type IdAddress = (id: string, kinds: readonly string[]) => string;

/** `Kind/id`, the kind being the one whose id prefix the value has (the field's first kind otherwise). */
export function literalAddress(kinds: readonly ResourceKind[]): IdAddress {
  const prefix = new Map(kinds.map((k) => [k.kind, k.idPrefix]));
  return (id, allowed) => {
    const kind = allowed.find((k) => {
      const p = prefix.get(k);
      return p !== undefined && id.startsWith(p);
    }) ?? allowed[0] ?? 'Unknown';
    return `${kind}/${id}`;
  };
}


/** Collects nodes and edges once each; build() returns them sorted. */
export class GraphBuilder {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly edges = new Map<string, GraphEdge>();

  node(address: string, kind: string, managed: boolean): GraphNode {
    const known = this.nodes.get(address);
    if (known) {
      known.managed ||= managed;
      return known;
    }
    const made: GraphNode = { address, kind, managed };
    this.nodes.set(address, made);
    return made;
  }

  has(address: string): boolean {
    return this.nodes.has(address);
  }

  /** The edges of every reference in `body`, a request-shaped body (or a resolved spec) of a resource of `kind`. */
  references(from: string, kind: ResourceKind, body: Obj, idAddress: IdAddress): void {
    for (const ref of kind.refs) {
      const field = showPath(ref.pointer.replace(/\/\*$/, ''));
      for (const value of refValues(body, ref)) {
        let to: string;
        if (isPendingRef(value)) to = value.$ref;
        else if (typeof value === 'string') to = idAddress(value, ref.kinds);
        else continue;
        // A target no document declares: a literal id, or a resource of the stack only the live state has.
        if (!this.nodes.has(to)) this.node(to, to.slice(0, to.indexOf('/')), false);
        this.edges.set(`${from}\u0000${to}\u0000${field}`, { from, to, field });
      }
    }
  }

  build(planned: boolean): ResourceGraph {
    const nodes = [...this.nodes.values()].sort((a, b) => naturalCompare(a.address, b.address));
    const edges = [...this.edges.values()].sort((a, b) => naturalCompare(a.from, b.from) || naturalCompare(a.to, b.to) || naturalCompare(a.field, b.field));
    return { nodes, edges, planned };
  }
}

/**
 * The nodes of every document, then their references: a reference by name was resolved into a PendingRef to
 * its address, a literal id is given its address by `idAddress`.
 */
export function addManifests(builder: GraphBuilder, desired: DesiredState, kinds: readonly ResourceKind[], idAddress: IdAddress): void {
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  for (const r of desired.resources) builder.node(r.address, r.kind, true);
  for (const r of desired.resources) {
    const kind = kindOf.get(r.kind);
    if (kind) builder.references(r.address, kind, r.spec, idAddress);
  }
}

/** The graph of the manifests alone: no service is asked. */
export function manifestGraph(desired: DesiredState, kinds: readonly ResourceKind[]): ResourceGraph {
  const builder = new GraphBuilder();
  addManifests(builder, desired, kinds, literalAddress(kinds));
  return builder.build(false);
}

/** Whether a planned node's resource changes. */
export const isChanged = (node: GraphNode): boolean => node.action !== undefined && node.action !== 'no-op';

/**
 * The part of a planned graph a reviewer of the change needs: the changed resources, what they reference and
 * what references them (one step each way), and the edges that touch a changed resource.
 */
export function changedNeighbourhood(graph: ResourceGraph): ResourceGraph {
  const changed = new Set(graph.nodes.filter(isChanged).map((n) => n.address));
  const edges = graph.edges.filter((e) => changed.has(e.from) || changed.has(e.to));
  const kept = new Set([...changed, ...edges.flatMap((e) => [e.from, e.to])]);
  return { nodes: graph.nodes.filter((n) => kept.has(n.address)), edges, planned: graph.planned };
}
