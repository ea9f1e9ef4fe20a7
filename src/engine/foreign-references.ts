// The service refuses to delete a resource something still references (409 ERR_RESOURCE_IN_USE): the plan
// orders this stack's own referrers away first, but a referrer outside the stack (unmarked, or another
// stack's) is never changed, so a plan deleting or replacing what it references would fail half way. The lists
// show it coming: it is a plan error, before any write. References by a parent in the item's path (a route's
// edge) do not count: the service deletes such items with their parent. A referrer this plan deletes (an
// unmarked part pruned by `authoritative: children`) is gone before its target.
import type { SourcePos } from '../errors.ts';
import type { LiveItem, RefField, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { attachedName, briefOf, isPartRef, refFieldPath } from './attachments.ts';
import type { LiveState } from './live.ts';
import { liveMetadata } from './ownership.ts';
import type { Action } from './plan-data.ts';
import type { PlanError } from './plan-checks.ts';
import { refValues } from '../kinds/refs.ts';

/** Where an error about a resource no document names stands: nowhere in the manifests (formatIssue shows none). */
const NO_POSITION: SourcePos = { file: '', line: 0, col: 0 };

/** The references the service records, and so checks on delete: every one of a marker kind but a path parent's. */
export function blockingRefs(kinds: readonly ResourceKind[]): { kind: ResourceKind; refs: RefField[] }[] {
  return kinds
    .filter((k) => k.identity === 'marker')
    .map((kind) => ({ kind, refs: kind.refs.filter((r) => !r.inPath) }))
    .filter((k) => k.refs.length > 0);
}

interface ForeignReferenceOptions {
  /** `--adopt` before the plan is made (apply's pre-check): an unmarked referrer may become this stack's, so the plan judges it. */
  adoptPending?: boolean;
}

/** How the error names a referrer: by `Kind/name (stack X)` when another stack manages it, by id otherwise. */
function referrerName(kind: ResourceKind, item: LiveItem, owner: { stack: string; name: string } | undefined): string {
  if (owner) return attachedName({ kind: kind.kind, id: item.id, summary: '', owner });
  const summary = briefOf(kind, kind.fromLive(item.raw));
  return `the unmanaged ${kind.kind} ${item.id}${summary ? ` (${summary})` : ''}`;
}

function remedy(kind: ResourceKind, ref: RefField, owner: { stack: string } | undefined): string {
  if (owner) return `remove the reference in stack ${owner.stack} first`;
  if (isPartRef(kind, ref)) return 'delete it there first, or set `authoritative: children` in edgeops.yaml so that apply deletes it';
  return 'remove the reference there first';
}

/**
 * A plan error for each delete or replace of `actions` whose live resource a resource outside the stack
 * references, naming the referrer. `live` must hold the referrers' lists (the plan's, or apply's pre-check's).
 */
export function foreignReferenceErrors(kinds: readonly ResourceKind[], desired: DesiredState, live: LiveState, stack: string, actions: readonly Action[], opts: ForeignReferenceOptions = {}): PlanError[] {
  const removed = new Map<string, Action>();
  const deleted = new Set<string>();
  for (const a of actions) {
    if (!a.liveId || (a.op !== 'delete' && a.op !== 'replace')) continue;
    if (!removed.has(a.liveId)) removed.set(a.liveId, a);
    if (a.op === 'delete') deleted.add(a.liveId);
  }
  if (removed.size === 0) return [];
  const documents = new Map(desired.resources.map((r) => [r.address, r]));
  const errors: PlanError[] = [];
  for (const { kind, refs } of blockingRefs(kinds)) {
    for (const item of live.byKind.get(kind.kind) ?? []) {
      if (deleted.has(item.id)) continue;
      const { marker } = liveMetadata(item);
      if (marker?.stack === stack || (!marker && opts.adoptPending)) continue;
      const body = kind.fromLive(item.raw);
      for (const ref of refs) {
        for (const value of refValues(body, ref)) {
          const target = typeof value === 'string' ? removed.get(value) : undefined;
          if (!target || !ref.kinds.includes(target.kind)) continue;
          const doing = target.op === 'delete' ? 'this plan deletes it' : `this plan replaces it (${target.reason ?? 'a field cannot be updated'}) and then deletes the old one`;
          const document = documents.get(target.address);
          errors.push({
            pos: target.op === 'replace' && document ? document.pos : NO_POSITION,
            address: target.address,
            message:
              `${doing}, but ${referrerName(kind, item, marker)} references it (${refFieldPath(ref)}), and the service refuses to delete ` +
              `a resource still referenced (409 ERR_RESOURCE_IN_USE): ${remedy(kind, ref, marker)}`,
          });
        }
      }
    }
  }
  return errors;
}
