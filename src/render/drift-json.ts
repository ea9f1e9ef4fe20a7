// The drift report as JSON for machines. The structure is a contract (docs/drift-and-export.md, "JSON drift
// format"): fields are only ever added; format_version changes if one is removed or changes meaning. Ids stay
// ids; `label` and each finding's `names` say what a reviewer reads for them, as in the JSON plan.
import type { DriftDirection, DriftReport, ResourceApply } from '../engine/drift.ts';
import type { ActionOp } from '../engine/plan-data.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { namesIn } from './json.ts';

export interface JsonDriftFinding {
  direction: DriftDirection;
  /** JSON pointer in the request shape; '' for the whole resource. */
  path: string;
  /** The edge module concerned, or null. */
  module: string | null;
  /** true: `live`/`desired` is one element of the list at `path`, present on that side only. */
  element: boolean;
  /** Live value; null when unset live, sensitive, or for a whole missing resource. */
  live: Json;
  /** Desired value; null when unset in the manifests or sensitive. A resource apply would create is `{"$ref": "Kind/name"}`. */
  desired: Json;
  sensitive: boolean;
  known_after_apply: boolean;
  /** The plan action resolving it: create, update, replace, delete, module-put, module-delete. */
  action: ActionOp;
  /** `Kind/name` of each id in `live` or `desired` that belongs to a managed resource (`{}` when none). */
  names: Record<string, string>;
  /** Only on an "unmanaged" finding: the natural key that matched the live resource to its document. */
  adopt?: string;
}

export interface JsonDriftResource {
  address: string;
  /** What a reviewer reads for the resource: the address, or for a natural-key item without a document its parent's name (`RouteResponseHeaders of HTTPSEdgeRoute/api`). */
  label: string;
  kind: string;
  name: string;
  live_id: string | null;
  /** What apply would do to the resource as a whole. */
  apply: ResourceApply;
  reason: string | null;
  findings: JsonDriftFinding[];
}

export interface JsonDriftReport {
  format_version: 1;
  stack: string;
  in_sync: boolean;
  /** `unmanaged` only when drift ran with adopt and there are resources to adopt. */
  summary: { changed: number; missing: number; live_only: number; unmanaged?: number; resources: number };
  resources: JsonDriftResource[];
  warnings: string[];
}

export function driftToJson(report: DriftReport): JsonDriftReport {
  return {
    format_version: 1,
    stack: report.stack,
    in_sync: report.inSync,
    summary: {
      changed: report.summary.changed,
      missing: report.summary.missing,
      live_only: report.summary.liveOnly,
      ...(report.summary.unmanaged ? { unmanaged: report.summary.unmanaged } : {}),
      resources: report.summary.resources,
    },
    resources: report.resources.map((r) => ({
      address: r.address,
      label: r.label ?? r.address,
      kind: r.kind,
      name: r.name,
      live_id: r.liveId ?? null,
      apply: r.apply,
      reason: r.reason ?? null,
      findings: r.findings.map((f) => {
        const live = f.sensitive ? null : f.live ?? null;
        const desired = f.sensitive ? null : f.desired ?? null;
        return {
          direction: f.direction,
          path: f.path,
          module: f.module ?? null,
          element: f.element,
          live,
          desired,
          sensitive: f.sensitive,
          known_after_apply: f.knownAfterApply,
          action: f.action,
          names: namesIn([live, desired], report.names),
          ...(f.adopt !== undefined ? { adopt: f.adopt } : {}),
        };
      }),
    })),
    warnings: [...report.warnings],
  };
}

export function renderDriftJson(report: DriftReport): string {
  return `${JSON.stringify(driftToJson(report), null, 2)}\n`;
}
