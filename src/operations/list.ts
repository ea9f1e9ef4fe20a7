// The list operation: the resources a stack manages on the service (those carrying its ownership marker), each
// with its live id and the document that describes it, or none when its document is gone (the next plan deletes
// it). Read-only: list GETs only. The stack lock's records carry a marker too, but are no resources: the live
// state's lists leave them out (pipeline.ts startFetch).
import { readOnlyApi } from '../client/read-only.ts';
import { managedBy } from '../engine/live.ts';
import { KINDS } from '../kinds/index.ts';
import { naturalCompare } from '../natural-order.ts';
import type { Api } from '../kinds/resource-kind.ts';
import type { DesiredState } from '../manifest/document.ts';
import { startFetch } from '../pipeline.ts';
import type { ListedResource, ListOutcome } from '../render/list.ts';

export type { ListedResource, ListOutcome } from '../render/list.ts';

interface ListRequest {
  stack: string;
  desired: DesiredState;
}

export interface ListView {
  listed(outcome: ListOutcome): void;
}

interface ListDeps {
  api: Api;
  view: ListView;
}

export async function run(request: ListRequest, deps: ListDeps): Promise<ListOutcome> {
  const { stack, desired } = request;
  const live = await startFetch(readOnlyApi(deps.api, 'list'), { stack });
  const documents = new Map(desired.resources.map((r) => [r.address, r]));
  // A renamed document (moved_from) keeps the live resource of its old address until the next apply.
  const movedTo = new Map(desired.resources.flatMap((r) => (r.movedFrom ?? []).map((old) => [old, r] as const)));
  const resources: ListedResource[] = [];
  for (const [address, items] of managedBy(live, stack).byAddress) {
    const kind = address.slice(0, address.indexOf('/'));
    const name = address.slice(kind.length + 1);
    const doc = documents.get(address) ?? movedTo.get(address);
    for (const item of items) {
      resources.push({
        address, kind, name, id: item.id,
        source: doc ? `${doc.pos.file}:${doc.pos.line}` : undefined,
        ...(doc && doc.address !== address ? { movedTo: doc.address } : {}),
      });
    }
  }
  resources.sort((a, b) => naturalCompare(a.kind, b.kind) || naturalCompare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const outcome: ListOutcome = { stack, resources };
  deps.view.listed(outcome);
  return outcome;
}
