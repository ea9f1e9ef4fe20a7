// The words of a drift report, shared by the text and Markdown renderers so both say exactly the same thing.
import type { DriftFinding, DriftReport, DriftResource } from '../engine/drift.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { SENSITIVE, formatPath, formatValue, type IdNames } from './values.ts';

export const NO_DRIFT = 'No drift. Live state matches the manifests.';

const UNSET = '(unset)';

/**
 * `live "x"`-style value text; unset and sensitive values have words of their own. The id of a managed resource
 * reads `Kind/name (id)`, as in a plan (DriftReport.names).
 */
export function shownValue(value: Json | undefined, finding: DriftFinding, names: IdNames): string {
  if (finding.sensitive) return SENSITIVE;
  return value === undefined ? UNSET : formatValue(value, names);
}

/** What the finding is about: the field (`backend.backend_id`), a list element (`types[]`), a module, or the resource. */
export function findingSubject(f: DriftFinding): string {
  if (f.path === '') return 'resource';
  if (f.module !== undefined && f.path === `/${f.module}`) return `module ${f.module}`;
  return f.element ? `${formatPath(f.path)}[]` : formatPath(f.path);
}

/** One sentence: what differs, with the live and desired values. */
export function findingText(f: DriftFinding, names: IdNames): string {
  const subject = findingSubject(f);
  if (f.direction === 'unmanaged') return `live without an ownership marker, matched to the manifests by ${f.adopt ?? 'natural key'}`;
  if (f.path === '') {
    return f.direction === 'missing'
      ? 'no live resource (deleted out of band, or never applied)'
      : 'present live, in no manifest (added by hand, or its document was removed)';
  }
  if (f.direction === 'live-only') return `${subject}: ${shownValue(f.live, f, names)} present live, not in the manifests`;
  if (f.direction === 'missing') return `${subject}: ${shownValue(f.desired, f, names)} in the manifests, not live`;
  if (f.sensitive) return `${subject}: ${SENSITIVE} differs`;
  return `${subject}: live ${shownValue(f.live, f, names)}, manifests ${shownValue(f.desired, f, names)}`;
}

/** What apply does about one finding. */
export function findingApply(f: DriftFinding): string {
  if (f.direction === 'unmanaged') return 'adopt (write the ownership marker)';
  switch (f.action) {
    case 'module-put': return `put module ${f.module ?? ''}`;
    case 'module-delete': return `delete module ${f.module ?? ''}`;
    default: return f.action;
  }
}

/** What a reviewer reads for a resource: its address, or a natural-key item's label (`RouteResponseHeaders of HTTPSEdgeRoute/api`). */
export function resourceTitle(r: DriftResource): string {
  return r.label ?? r.address;
}

export function resourceHeader(r: DriftResource): string {
  const id = r.liveId ? ` (${r.liveId})` : '';
  const why = r.apply === 'replace' && r.reason ? `: ${r.reason}` : '';
  const adopt = r.apply === 'update' && r.findings.some((f) => f.direction === 'unmanaged');
  return `${resourceTitle(r)}${id}: apply would ${adopt ? 'adopt' : r.apply} it${why}`;
}

export function summaryText(report: DriftReport): string {
  if (report.inSync) return NO_DRIFT;
  const s = report.summary;
  const n = s.resources;
  const unmanaged = s.unmanaged ? `, ${s.unmanaged} unmanaged` : '';
  return `Drift: ${s.changed} changed, ${s.missing} missing, ${s.liveOnly} live-only${unmanaged} (${n} resource${n === 1 ? '' : 's'} differ${n === 1 ? 's' : ''} from the manifests). \`edgeops apply\` would restore the manifests' state.`;
}
