// Build the plan from desired and live state. Pure: ownership matching, per-resource diff, orphan deletes,
// dependency links, deterministic order (dependency level, then address), summary and warnings.
import { ManifestError } from '../errors.ts';
import type { ManifestIssue } from '../errors.ts';
import type { LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredResource, DesiredState, ProjectConfig } from '../manifest/document.ts';
import { changeActions, createAction, deleteAction, desiredBody, liveBody } from './diff.ts';
import { executionNodes, linkActions, nodeLevels } from './graph.ts';
import type { ActionRefs } from './graph.ts';
import type { LiveState } from './live.ts';
import { indexManaged, METADATA_LIMIT, metadataBytes, naturalParentId } from './ownership.ts';
import type { Action, Plan, PlanSummary } from './plan-data.ts';
import { hasPendingRef, pendingTargets, refValues } from './refs.ts';

export const DEFAULT_MAX_DELETES = 10;

export interface PlanInput {
  kinds: readonly ResourceKind[];
  desired: DesiredState;
  live: LiveState;
  stack: string;
}

const NO_REFS: ActionRefs = { pending: [], liveRefs: [] };

function liveRefsOf(kind: ResourceKind, body: Obj): ActionRefs['liveRefs'] {
  return kind.refs.flatMap((ref) =>
    refValues(body, ref)
      .filter((v): v is string => typeof v === 'string')
      .map((id) => ({ id, kinds: ref.kinds })),
  );
}

/** Desired resources ordered so that every resource comes after the ones it references. */
function topological(resources: readonly DesiredResource[]): DesiredResource[] {
  const byAddress = new Map(resources.map((r) => [r.address, r]));
  const out: DesiredResource[] = [];
  const seen = new Set<string>();
  const visit = (r: DesiredResource, stack: Set<string>): void => {
    if (seen.has(r.address) || stack.has(r.address)) return; // cycles are rejected by the resolver
    stack.add(r.address);
    for (const dep of [...r.dependsOn].sort()) {
      const target = byAddress.get(dep);
      if (target) visit(target, stack);
    }
    stack.delete(r.address);
    seen.add(r.address);
    out.push(r);
  };
  for (const r of [...resources].sort((a, b) => (a.address < b.address ? -1 : 1))) visit(r, new Set());
  return out;
}

const nameOf = (address: string): string => address.slice(address.indexOf('/') + 1);

export function buildPlan(input: PlanInput): Plan {
  const { kinds, desired, live, stack } = input;
  const kindByName = new Map(kinds.map((k) => [k.kind, k]));
  const liveOf = (kind: ResourceKind): LiveItem[] => live.byKind.get(kind.kind) ?? [];
  const managed = indexManaged(kinds, live.byKind, stack);
  const issues: ManifestIssue[] = [];
  const warnings: string[] = [];
  const actions: Action[] = [];
  const refs = new Map<string, ActionRefs>();
  const add = (list: Action[], info: ActionRefs): void => {
    for (const a of list) {
      actions.push(a);
      refs.set(a.id, info);
    }
  };

  const known = new Map<string, string>(); // address -> live id that stays valid through this plan
  const claimed = new Map<string, Map<string, string>>(); // natural kind -> key -> address
  const desiredAddresses = new Set<string>();

  for (const r of topological(desired.resources)) {
    const kind = kindByName.get(r.kind);
    if (!kind) {
      issues.push({ pos: r.pos, address: r.address, message: `unknown kind ${r.kind}` });
      continue;
    }
    desiredAddresses.add(r.address);
    const t = { kind, name: r.name, address: r.address };
    if (kind.identity === 'marker') {
      const meta = r.spec.metadata;
      const user = meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? meta : undefined;
      const bytes = metadataBytes(user, { stack, name: r.address });
      if (bytes > METADATA_LIMIT) {
        issues.push({ pos: r.pos, address: r.address, message: `metadata with the ownership marker is ${bytes} bytes; the service allows ${METADATA_LIMIT}` });
      }
    }
    const body = desiredBody(kind, r.spec, (address) => known.get(address));
    let item: LiveItem | undefined;
    if (kind.identity === 'marker') {
      const copies = managed.byAddress.get(r.address) ?? [];
      item = copies[0];
      if (copies.length > 1) {
        warnings.push(`${copies.length} live resources carry the marker of ${r.address}; keeping ${copies[0]!.id}, deleting ${copies.slice(1).map((c) => c.id).join(', ')}`);
      }
    } else if (!hasPendingRef(body) && kind.naturalKey) {
      const key = kind.naturalKey(body);
      const owners = claimed.get(kind.kind) ?? new Map<string, string>();
      claimed.set(kind.kind, owners);
      const other = owners.get(key);
      if (other) issues.push({ pos: r.pos, address: r.address, message: `manages the same ${kind.kind} as ${other} (${key})` });
      owners.set(key, r.address);
      item = liveOf(kind).find((i) => i.id === key);
    }
    const pending = pendingTargets(body);
    if (!item) {
      add([createAction(t, body)], { pending, liveRefs: [] });
      continue;
    }
    const shape = liveBody(kind, item);
    const planned = changeActions(t, item, shape, body);
    add(planned, { pending, liveRefs: liveRefsOf(kind, shape) });
    if (!planned.some((a) => a.op === 'replace')) known.set(r.address, item.id);
  }
  if (issues.length > 0) throw new ManifestError(issues);

  // Managed live resources without a document, and extra copies of documented ones.
  for (const [address, copies] of [...managed.byAddress].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const kind = kindByName.get(address.slice(0, address.indexOf('/')))!;
    copies.forEach((item, at) => {
      if (at === 0 && desiredAddresses.has(address)) return;
      const t = { kind, name: nameOf(address), address };
      add([deleteAction(t, item, at === 0 ? '' : `@${item.id}`)], { ...NO_REFS, liveRefs: liveRefsOf(kind, liveBody(kind, item)) });
    });
  }
  // Natural-key items in scope (their parent is managed by this stack) that no document names.
  for (const kind of kinds.filter((k) => k.identity === 'natural')) {
    const owned = claimed.get(kind.kind) ?? new Map<string, string>();
    for (const item of liveOf(kind)) {
      if (owned.has(item.id)) continue;
      const shape = kind.fromLive(item.raw);
      const parent = naturalParentId(kind, shape);
      if (parent === undefined || !managed.managedIds.has(parent)) continue;
      const address = `${kind.kind}/${item.id}`;
      add([deleteAction({ kind, name: item.id, address }, item)], { ...NO_REFS, liveRefs: liveRefsOf(kind, shape) });
    }
  }

  linkActions(actions, (a) => refs.get(a.id) ?? NO_REFS);
  const levels = nodeLevels(executionNodes(actions));
  const opRank: Record<Action['op'], number> = { delete: 0, replace: 1, create: 2, update: 3, 'module-put': 4, 'module-delete': 5 };
  actions.sort(
    (a, b) =>
      levels.get(a.id)! - levels.get(b.id)! ||
      (a.address < b.address ? -1 : a.address > b.address ? 1 : 0) ||
      opRank[a.op] - opRank[b.op] ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );

  const plan: Plan = { stack, actions, summary: summarize(actions), warnings };
  const status = deleteStatus(plan, desired.config);
  if (status.exceeded.length > 0) warnings.push(...status.exceeded);
  return plan;
}

/** Per address: create, replace and delete count once each; update, module-put and module-delete once as an update. */
export function summarize(actions: readonly Action[]): PlanSummary {
  const seen = new Set<string>();
  const summary: PlanSummary = { create: 0, update: 0, replace: 0, delete: 0 };
  for (const a of actions) {
    const bucket = a.op === 'module-put' || a.op === 'module-delete' ? 'update' : a.op;
    const key = `${bucket}\u0000${a.address}`;
    if (seen.has(key)) continue;
    seen.add(key);
    summary[bucket]++;
  }
  return summary;
}

export interface DeleteStatus {
  deletes: number;
  max: number;
  /** One line per limit exceeded (overall and per kind); empty when the plan is within its limits. */
  exceeded: string[];
}

/** The delete count against `max_deletes` (default 10) and `max_deletes_per_kind`. Apply refuses in issue 4. */
export function deleteStatus(plan: Plan, config: ProjectConfig): DeleteStatus {
  const deletes = plan.actions.filter((a) => a.op === 'delete');
  const max = config.max_deletes ?? DEFAULT_MAX_DELETES;
  const exceeded: string[] = [];
  if (deletes.length > max) {
    exceeded.push(`This plan deletes ${deletes.length} resources, more than max_deletes (${max}); apply refuses it without --allow-deletes.`);
  }
  for (const [kind, limit] of Object.entries(config.max_deletes_per_kind ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const n = deletes.filter((a) => a.kind === kind).length;
    if (n > limit) exceeded.push(`This plan deletes ${n} ${kind} resources, more than max_deletes_per_kind.${kind} (${limit}); apply refuses it without --allow-deletes.`);
  }
  return { deletes: deletes.length, max, exceeded };
}
