// The export operation: live resources -> manifests that `plan` shows as "No changes." for the managed ones,
// and/or the live state as a snapshot for `plan --against`. Read-only.
import { readOnlyApi } from '../client/read-only.ts';
import { buildExport } from '../export/build.ts';
import { takeSnapshot, writeSnapshot } from '../export/snapshot.ts';
import { writeExport } from '../export/write.ts';
import type { Api } from '../kinds/resource-kind.ts';
import type { ExportOutcome } from '../render/export-report.ts';

export type { ExportOutcome } from '../render/export-report.ts';

export interface ExportRequest {
  stack: string;
  /** Also every resource without an ownership marker. */
  all: boolean;
  /** Only these live resources, by id (`--id`); an unknown id or another stack's resource is refused. */
  ids?: string[];
  /** Where the manifests go (one file per kind); none: only the snapshot. */
  dir?: string;
  /** Where the snapshot goes; none: only the manifests. */
  snapshot?: string;
}

export interface ExportView {
  exported(outcome: ExportOutcome): void;
}

interface ExportDeps {
  api: Api;
  view: ExportView;
}

export async function run(request: ExportRequest, deps: ExportDeps): Promise<ExportOutcome> {
  const { snapshot, live } = await takeSnapshot(readOnlyApi(deps.api, 'export'));
  const outcome: ExportOutcome = {};
  if (request.dir !== undefined) {
    const result = buildExport(live, { stack: request.stack, all: request.all, ids: request.ids });
    outcome.manifests = { result, dir: request.dir, written: writeExport(request.dir, result) };
  }
  if (request.snapshot !== undefined) {
    writeSnapshot(request.snapshot, snapshot);
    const items = snapshot.lists.reduce((n, l) => n + l.items.length, 0);
    outcome.snapshot = { file: request.snapshot, lists: snapshot.lists.length, items };
  }
  deps.view.exported(outcome);
  return outcome;
}
