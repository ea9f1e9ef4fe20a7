// Where policies meet a plan: the targets of a plan (each document with what the plan does to it, each deleted
// resource) and of a drift run (the live resources the stack manages, and the unmanaged parts attached to them),
// each with `object` and `oldObject`. The engine calls these through one hook after planning; they never name a kind.
import type { ManifestIssue } from '../errors.ts';
import { liveBody } from '../engine/diff.ts';
import { liveState, type LiveState } from '../engine/live.ts';
import { markerOf } from '../engine/ownership.ts';
import { resourceOp, type Action, type Plan } from '../engine/plan-data.ts';
import { liveNames } from '../engine/plan-names.ts';
import type { LiveItem, Obj, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import type { MatchOperation } from './documents.ts';
import { runPolicies, type PolicyTarget } from './evaluate.ts';
import type { ExceptionApproval } from './exceptions.ts';
import { policyObject } from './objects.ts';
import { policiesOf } from './policy-set.ts';
import type { PolicyReport } from './results.ts';

interface PolicyRunOptions {
  stack: string;
  kinds: readonly ResourceKind[];
  /** The time rules compare with (certificate expiry, enforce_from, exception expiry); now by default. */
  now?: Date;
  approval?: ExceptionApproval;
}

interface Lookup {
  kindOf: (kind: string) => ResourceKind | undefined;
  nameOf: (id: string) => string | undefined;
  managed: Map<string, LiveItem>;
}

function lookup(live: LiveState, opts: PolicyRunOptions): Lookup {
  const byName = new Map(opts.kinds.map((k) => [k.kind, k]));
  const names = liveNames(live, opts.kinds, opts.stack);
  const managed = new Map<string, LiveItem>();
  for (const kind of opts.kinds) {
    for (const item of live.byKind.get(kind.kind) ?? []) {
      const marker = kind.identity === 'marker' ? markerOf(kind, item) : undefined;
      if (marker?.stack === opts.stack) managed.set(marker.name, item);
    }
  }
  return {
    kindOf: (kind) => byName.get(kind),
    nameOf: (id) => {
      const address = names.get(id);
      return address ? address.slice(address.indexOf('/') + 1) : undefined;
    },
    managed,
  };
}

function liveObject(l: Lookup, kindName: string, name: string, item: LiveItem | undefined): Obj | null {
  const kind = l.kindOf(kindName);
  if (!kind || !item) return null;
  return policyObject(kind, name, liveBody(kind, item), l.nameOf);
}

const operationOf = (actions: readonly Action[] | undefined): MatchOperation => {
  if (!actions || actions.length === 0) return 'none';
  const op = resourceOp(actions);
  return op === 'replace' ? 'update' : op;
};

function desiredObjects(desired: DesiredState, l: Lookup): Record<string, Obj[]> {
  const docs: Record<string, Obj[]> = {};
  for (const r of desired.resources) (docs[r.kind] ??= []).push(policyObject(l.kindOf(r.kind), r.name, r.spec));
  return docs;
}

/** The plan's policy results; evaluation problems are plan errors at the expression. */
export function planPolicies(plan: Plan, desired: DesiredState, live: LiveState, opts: PolicyRunOptions): { report: PolicyReport; issues: ManifestIssue[] } | undefined {
  const policies = policiesOf(desired);
  if (!policies) return undefined;
  const l = lookup(live, opts);
  const byAddress = new Map<string, Action[]>();
  for (const a of plan.actions) if (!a.attachment) byAddress.set(a.address, [...(byAddress.get(a.address) ?? []), a]);
  const targets: PolicyTarget[] = desired.resources.map((r) => {
    const actions = byAddress.get(r.address);
    byAddress.delete(r.address);
    const old = liveObject(l, r.kind, r.name, l.managed.get(r.address));
    return { kind: r.kind, name: r.name, address: r.address, operation: operationOf(actions), object: policyObject(l.kindOf(r.kind), r.name, r.spec), oldObject: old, doc: policies.docs.get(r.address) };
  });
  // What is left are deletes of resources no document names: `object` is the resource as it is until then.
  for (const [address, actions] of byAddress) {
    if (resourceOp(actions) !== 'delete') continue;
    const first = actions[0]!;
    const old = liveObject(l, first.kind, first.name, l.managed.get(address));
    targets.push({ kind: first.kind, name: first.name, address, operation: 'delete', object: old, oldObject: old });
  }
  return runPolicies({ set: policies.set, stack: opts.stack, environment: desired.config.environment, now: opts.now ?? new Date(), targets, docs: desiredObjects(desired, l), mode: 'plan', approval: opts.approval });
}

/** Policies on live state (drift): what the stack manages, and the unmanaged parts attached to it, as they are. */
export function livePolicies(plan: Plan, desired: DesiredState, live: LiveState, opts: PolicyRunOptions): { report: PolicyReport; issues: ManifestIssue[] } | undefined {
  const policies = policiesOf(desired);
  if (!policies) return undefined;
  const l = lookup(live, opts);
  const targets: PolicyTarget[] = [];
  for (const [address, item] of l.managed) {
    const kindName = address.slice(0, address.indexOf('/'));
    const name = address.slice(address.indexOf('/') + 1);
    const object = liveObject(l, kindName, name, item);
    targets.push({ kind: kindName, name, address, operation: 'none', object, oldObject: object, doc: policies.docs.get(address) });
  }
  const attached = [...(plan.attachments ?? []), ...plan.actions.flatMap((a) => (a.attachment ? [a.attachment] : []))];
  for (const a of attached) {
    if (a.relation !== 'part') continue;
    const item = live.byKind.get(a.kind)?.find((i) => i.id === a.id);
    const object = liveObject(l, a.kind, a.id, item);
    targets.push({ kind: a.kind, name: a.id, address: `${a.kind}/${a.id}`, operation: 'none', object, oldObject: object });
  }
  return runPolicies({ set: policies.set, stack: opts.stack, environment: desired.config.environment, now: opts.now ?? new Date(), targets, docs: desiredObjects(desired, l), mode: 'drift', approval: opts.approval });
}

/**
 * `validate`: the policies that read no live state, on every document as written (no plan, so nothing is known
 * to change: results are reported, never blocking).
 */
export function staticPolicies(desired: DesiredState, opts: PolicyRunOptions): { report: PolicyReport; issues: ManifestIssue[] } | undefined {
  const policies = policiesOf(desired);
  if (!policies) return undefined;
  const l = lookup(liveState(opts.kinds, new Map()), opts);
  const targets: PolicyTarget[] = desired.resources.map((r) => ({ kind: r.kind, name: r.name, address: r.address, operation: 'none', object: policyObject(l.kindOf(r.kind), r.name, r.spec), oldObject: null, doc: policies.docs.get(r.address) }));
  const ran = runPolicies({ set: policies.set, stack: opts.stack, environment: desired.config.environment, now: opts.now ?? new Date(), targets, docs: desiredObjects(desired, l), mode: 'plan', staticOnly: true });
  return { report: { ...ran.report, results: ran.report.results.map(({ existing: _existing, ...r }) => ({ ...r, blocking: false })) }, issues: ran.issues };
}
