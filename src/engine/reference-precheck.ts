// Apply's look, before it takes the stack lock, for a delete the service would refuse because a resource outside
// the stack references its target (foreign-references.ts), so that such a plan writes nothing, not even the
// lock record. In steps, each only when the one before found something: the lists of the kinds references
// point at (IP policies, backends, certificate authorities) and the plan of those kinds alone, for what it
// deletes or replaces; then the lists of the kinds that reference them. Most applies delete nothing of those
// kinds and stop after the first step. Given every kind's lists (as apply does), it reads them instead.
import type { Api, ResourceKind } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { authoritativeForChildren, childPrunes, findAttachments } from './attachments.ts';
import { blockingRefs, foreignReferenceErrors } from './foreign-references.ts';
import { fetchLive, type HiddenItems, type LiveState } from './live.ts';
import { indexManaged } from './ownership.ts';
import type { PlanError } from './plan-checks.ts';
import { resourceActions } from './resource-actions.ts';

interface ReferencePrecheckOptions {
  stack: string;
  adopt: boolean;
  hidden?: HiddenItems;
  /** Every kind's lists, when they are read already (apply reads them while the manifests load): nothing is fetched. */
  lists?: Promise<LiveState>;
}

/** The kinds references point at, and the kinds that reference them. */
function referenceKinds(kinds: readonly ResourceKind[]): { blocking: ReturnType<typeof blockingRefs>; targetNames: Set<string>; targets: ResourceKind[] } {
  const blocking = blockingRefs(kinds);
  const targetNames = new Set(blocking.flatMap(({ refs }) => refs.flatMap((r) => r.kinds)));
  return { blocking, targetNames, targets: kinds.filter((k) => targetNames.has(k.kind) && k.identity === 'marker') };
}

export async function precheckForeignReferences(kinds: readonly ResourceKind[], desired: DesiredState, api: Api, opts: ReferencePrecheckOptions): Promise<PlanError[]> {
  const { blocking, targetNames, targets } = referenceKinds(kinds);
  if (targets.length === 0) return [];
  const first = await (opts.lists ?? fetchLive(targets, api, undefined, opts.hidden));
  // Only a live resource of this stack is deleted or replaced: with none of these kinds yet (a stack's first
  // apply), nothing is, and there is no plan of them to make.
  if (indexManaged(targets, first.byKind, opts.stack).byAddress.size === 0) return [];
  const ownDocuments = { ...desired, resources: desired.resources.filter((r) => targetNames.has(r.kind)) };
  const removals = resourceActions(targets, ownDocuments, first, opts.stack).actions.filter((a) => a.op === 'delete' || a.op === 'replace');
  if (removals.length === 0) return [];
  const referrers = blocking.map(({ kind }) => kind).filter((k) => !targets.includes(k));
  const rest = referrers.every((k) => first.byKind.has(k.kind)) ? first : await fetchLive(referrers, api, undefined, opts.hidden);
  const live: LiveState = { byKind: new Map([...first.byKind, ...rest.byKind]) };
  const listed = [...targets, ...referrers];
  const prunes = authoritativeForChildren(desired.config) ? childPrunes(listed, live, findAttachments(listed, live, opts.stack)).map((p) => p.action) : [];
  return foreignReferenceErrors(listed, desired, live, opts.stack, [...removals, ...prunes], { adoptPending: opts.adopt });
}
