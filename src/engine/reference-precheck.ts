// Apply's look, before it takes the stack lock, for a delete the service would refuse because a resource outside
// the stack references its target (foreign-references.ts), so that such a plan writes nothing, not even the
// lock record. From every kind's lists, read while the manifests load: the plan of the kinds references point at
// (IP policies, backends, certificate authorities) alone, for what it deletes or replaces; only when it removes
// something are the kinds that reference them looked at. Most applies delete nothing of those kinds.
import type { ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { authoritativeForChildren, childPrunes, findAttachments } from './attachments.ts';
import { blockingRefs, foreignReferenceErrors } from './foreign-references.ts';
import { managedBy, type LiveState } from './live.ts';
import { addressKind } from './ownership.ts';
import type { PlanError } from './plan-checks.ts';
import { resourceActions } from './resource-actions.ts';

interface ReferencePrecheckOptions {
  stack: string;
  adopt: boolean;
}

/** The kinds references point at, and the kinds that reference them. */
function referenceKinds(kinds: readonly ResourceKind[]): { blocking: ReturnType<typeof blockingRefs>; targetNames: Set<string>; targets: ResourceKind[] } {
  const blocking = blockingRefs(kinds);
  const targetNames = new Set(blocking.flatMap(({ refs }) => refs.flatMap((r) => r.kinds)));
  return { blocking, targetNames, targets: kinds.filter((k) => targetNames.has(k.kind) && k.identity === 'marker') };
}

/** The errors of deletes the service would refuse, from `live`: every kind's lists. */
export function precheckForeignReferences(kinds: readonly ResourceKind[], desired: DesiredState, live: LiveState, opts: ReferencePrecheckOptions): PlanError[] {
  const { blocking, targetNames, targets } = referenceKinds(kinds);
  if (targets.length === 0) return [];
  // Only a live resource of this stack is deleted or replaced: with none of these kinds yet (a stack's first
  // apply), nothing is, and there is no plan of them to make.
  if (![...managedBy(live, opts.stack).byAddress.keys()].some((address) => targetNames.has(addressKind(address)))) return [];
  const ownDocuments = { ...desired, resources: desired.resources.filter((r) => targetNames.has(r.kind)) };
  const removals = resourceActions(targets, ownDocuments, live, opts.stack).actions.filter((a) => a.op === 'delete' || a.op === 'replace');
  if (removals.length === 0) return [];
  const listed = [...targets, ...blocking.map(({ kind }) => kind).filter((k) => !targets.includes(k))];
  const prunes = authoritativeForChildren(desired.config) ? childPrunes(listed, live, findAttachments(listed, live, opts.stack)).map((p) => p.action) : [];
  return foreignReferenceErrors(listed, desired, live, opts.stack, [...removals, ...prunes], { adoptPending: opts.adopt });
}
