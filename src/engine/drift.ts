// Drift is a plan read backwards: every action apply would take is something live state has that the manifests
// do not say, or the reverse. This classifies a Plan's actions into findings by direction. Pure: the Plan is the
// only input, so drift and plan can never disagree about what differs.
//   changed    live differs from desired (edited by hand)
//   missing    desired has it, live does not (deleted out of band, or never applied)
//   live-only  live has it, desired does not (added by hand): a resource carrying this stack's marker, a
//              natural-key item in scope, a module, or one element of a list (an event type, a hostport)
//   unmanaged  (with adopt) a document matches, by natural key, a live resource without an ownership marker:
//              apply adopts it (writes the marker) instead of creating a copy; or a live resource outside the
//              stack is part of, or references, a managed one (engine/attachments.ts): apply leaves it, or
//              deletes it when the stack is authoritative for its children
import type { Json } from '../kinds/resource-kind.ts';
import { canonicalJson } from '../kinds/marker.ts';
import { attachmentLabel, attachmentWarning, type Attachment } from './attachments.ts';
import type { Action, ActionOp, CertificateSummary, FieldChange, Plan } from './plan-data.ts';
import { isPendingRef } from '../kinds/refs.ts';
import type { PolicyReport } from '../policy/results.ts';

export type DriftDirection = 'changed' | 'missing' | 'live-only' | 'unmanaged';

/** What apply does to a resource as a whole (module actions count as an update); `none`: it leaves it as it is. */
export type ResourceApply = 'create' | 'update' | 'replace' | 'delete' | 'none';

export interface DriftFinding {
  direction: DriftDirection;
  /** JSON pointer in the request shape (`/description`, `/backend/backend_id`); `''` is the whole resource. */
  path: string;
  /** The module this finding is about, when it is one (`policy`). */
  module?: string;
  /** The live value; absent when unset live or sensitive. */
  live?: Json;
  /** The manifests' value; absent when unset there or sensitive. May hold a PendingRef (`knownAfterApply`). */
  desired?: Json;
  /** The finding is one element of the list at `path`, present on one side only (in `live` or `desired`). */
  element: boolean;
  /** A secret differs: neither value is carried. */
  sensitive: boolean;
  /** The desired value is the id of a resource this apply would create. */
  knownAfterApply: boolean;
  /** The plan action that resolves it; `none` for an attached resource apply leaves as it is. */
  action: ActionOp | 'none';
  /** An "unmanaged" finding: the natural key that matched the live resource (`hostport 1.tcp.example.com:20001`). */
  adopt?: string;
  /** An "unmanaged" finding about a resource outside the stack attached to a managed one: what, and to what. */
  attachment?: Attachment;
}

export interface DriftResource {
  address: string;
  kind: string;
  name: string;
  /** What a reviewer reads for it when that is not the address: a natural-key item's parent (Action.label). */
  label?: string;
  liveId?: string;
  apply: ResourceApply;
  /** Why apply replaces it. */
  reason?: string;
  findings: DriftFinding[];
}

interface DriftSummary {
  /** Resources with at least one finding of the direction (a resource may count under several). */
  changed: number;
  missing: number;
  liveOnly: number;
  /** Resources apply would adopt (only with adopt, and only when there are any). */
  unmanaged?: number;
  /** Resources that differ at all. */
  resources: number;
}

export interface DriftReport {
  stack: string;
  inSync: boolean;
  summary: DriftSummary;
  resources: DriftResource[];
  warnings: string[];
  /** The plan's names (Plan.names): `Kind/name` of each id of a managed resource the findings show. */
  names: Record<string, string>;
  /** The plan's certificates (Plan.certificates): what the PEM values the findings show say. */
  certificates?: Record<string, CertificateSummary[]>;
  /**
   * Policies on live state (src/policy/): every result, info included. A deny or warn without an honoured
   * exception is drift. Absent when the stack has no policies.
   */
  policy?: PolicyReport;
}

function isScalarList(v: Json | undefined): v is Json[] {
  return Array.isArray(v) && v.every((e) => e === null || typeof e !== 'object' || isPendingRef(e));
}

/** One field change -> findings. A list of scalars is compared as elements, so an added event type reads as one. */
function classifyChange(change: FieldChange, action: Action): DriftFinding[] {
  const base = {
    path: change.path,
    element: false,
    sensitive: change.sensitive === true,
    knownAfterApply: change.knownAfterApply === true,
    action: action.op,
    ...(action.module !== undefined ? { module: action.module } : {}),
  };
  const values = (live: Json | undefined, desired: Json | undefined) => ({
    ...(live !== undefined ? { live } : {}),
    ...(desired !== undefined ? { desired } : {}),
  });
  if (base.sensitive) return [{ ...base, direction: 'changed' }];

  const wholeModule = action.module !== undefined && change.path === `/${action.module}`;
  if (action.op === 'module-delete' && wholeModule) return [{ ...base, direction: 'live-only', ...values(change.old, undefined) }];
  if (action.op === 'module-put' && wholeModule && change.kind === 'add') {
    return [{ ...base, direction: 'missing', ...values(undefined, change.new) }];
  }

  if (change.kind === 'replace' && isScalarList(change.old) && isScalarList(change.new)) {
    const key = (v: Json): string => canonicalJson(v);
    const desiredKeys = new Set(change.new.map(key));
    const liveKeys = new Set(change.old.map(key));
    const liveOnly = change.old.filter((v) => !desiredKeys.has(key(v)));
    const missing = change.new.filter((v) => !liveKeys.has(key(v)));
    if (liveOnly.length + missing.length > 0) {
      return [
        ...liveOnly.map((v): DriftFinding => ({ ...base, element: true, knownAfterApply: false, direction: 'live-only', live: v })),
        ...missing.map((v): DriftFinding => ({ ...base, element: true, knownAfterApply: isPendingRef(v), direction: 'missing', desired: v })),
      ];
    }
    // Same elements in another order: the order itself drifted.
  }
  return [{ ...base, direction: 'changed', ...values(change.old, change.new) }];
}

function resourceApply(actions: readonly Action[]): ResourceApply {
  for (const op of ['delete', 'replace', 'create'] as const) if (actions.some((a) => a.op === op)) return op;
  return 'update';
}

function actionFindings(action: Action): DriftFinding[] {
  const whole = { path: '', element: false, sensitive: false, knownAfterApply: false, action: action.op };
  // An adopted resource: the missing marker is a finding of its own, before any field that differs.
  const adoption: DriftFinding[] = action.adopt !== undefined ? [{ ...whole, direction: 'unmanaged', adopt: action.adopt }] : [];
  if (action.attachment) return [{ ...whole, direction: 'unmanaged', attachment: action.attachment }];
  return [...adoption, ...changeFindings(action, whole)];
}

function changeFindings(action: Action, whole: Omit<DriftFinding, 'direction'>): DriftFinding[] {
  switch (action.op) {
    case 'create':
      return [{ ...whole, direction: 'missing' }];
    case 'delete':
      return [{ ...whole, direction: 'live-only' }];
    case 'module-delete':
      if (action.changes.length === 0) return [{ ...whole, path: `/${action.module ?? ''}`, module: action.module, direction: 'live-only' }];
      return action.changes.flatMap((c) => classifyChange(c, action));
    default:
      return action.changes.flatMap((c) => classifyChange(c, action));
  }
}

/** The drift report of a plan: one entry per address, in the plan's order. */
export function driftReport(plan: Plan): DriftReport {
  const byAddress = new Map<string, Action[]>();
  for (const a of plan.actions) byAddress.set(a.address, [...(byAddress.get(a.address) ?? []), a]);
  const resources: DriftResource[] = [...byAddress].map(([address, actions]) => {
    const apply = resourceApply(actions);
    const first = actions[0]!;
    const liveId = actions.find((a) => a.liveId)?.liveId;
    const reason = actions.find((a) => a.op === 'replace' || a.attachment)?.reason;
    const label = actions.find((a) => a.label)?.label;
    return {
      address,
      kind: first.kind,
      name: first.name,
      ...(label ? { label } : {}),
      ...(liveId ? { liveId } : {}),
      apply,
      ...(reason ? { reason } : {}),
      findings: actions.flatMap(actionFindings),
    };
  });
  resources.push(...attachedResources(plan.attachments ?? []));
  const count = (d: DriftDirection): number => resources.filter((r) => r.findings.some((f) => f.direction === d)).length;
  const unmanaged = count('unmanaged');
  const attached = new Set((plan.attachments ?? []).map(attachmentWarning));
  return {
    stack: plan.stack,
    inSync: resources.length === 0,
    summary: { changed: count('changed'), missing: count('missing'), liveOnly: count('live-only'), ...(unmanaged > 0 ? { unmanaged } : {}), resources: resources.length },
    resources,
    // An attachment is a finding of its own here, not a warning too.
    warnings: plan.warnings.filter((w) => !attached.has(w)),
    names: { ...plan.names },
    ...(plan.certificates ? { certificates: plan.certificates } : {}),
  };
}

/** One resource per attached item apply leaves as it is (`Kind/id`, as its delete would be addressed), a finding per resource it touches. */
function attachedResources(attachments: readonly Attachment[]): DriftResource[] {
  const byItem = new Map<string, DriftResource>();
  for (const a of attachments) {
    const address = `${a.kind}/${a.id}`;
    let resource = byItem.get(address);
    if (!resource) {
      byItem.set(address, (resource = { address, kind: a.kind, name: a.id, label: attachmentLabel(a), liveId: a.id, apply: 'none', findings: [] }));
    }
    resource.findings.push({ direction: 'unmanaged', path: '', element: false, sensitive: false, knownAfterApply: false, action: 'none', attachment: a });
  }
  return [...byItem.values()];
}
