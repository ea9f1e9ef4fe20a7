// Plans and drift reports as JSON for machines. Both structures are contracts (docs/plan-formats.md, "JSON plan format";
// docs/drift-and-export.md, "JSON drift format"): fields are only ever added, and format_version changes if one
// is removed or changes meaning. Plan version 2: a delete lists the destroyed fields as `remove` changes, ids of
// managed resources are named, labels and document positions are given, and a plan deleting every resource of
// its stack says so (`destroy`). In a drift report ids stay ids; `label` and each finding's `names` say what a
// reviewer reads for them, as in the JSON plan. Added within plan version 2: `errors`, what the service would
// refuse (a plan with any is not applied), and `certificates`, what the certificates of a PEM value say; and
// `target`, only on a plan made with --target.
import type { PolicyReport, PolicyResult } from '../policy/results.ts';
import type { Attachment } from '../engine/attachments.ts';
import type { DriftDirection, DriftReport, ResourceApply } from '../engine/drift.ts';
import { showPath } from '../contract/field-path.ts';
import { issueMessage } from '../errors.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { pemDigest } from '../engine/certificate-details.ts';
import type { Action, ActionOp, CertificateSummary, FieldChange, Plan, PlanSummary } from '../engine/plan-data.ts';
import { movedFromLine, renameHintText } from './rename-hint.ts';
import type { ViewFactory } from './view.ts';
import { groupByAddress, moduleChanges, targetHeadline, type ResourceOp } from './wording.ts';

interface JsonChange {
  /** JSON pointer in the request shape, e.g. `/backend/backend_id`. */
  path: string;
  /** The same field as every other output shows it, e.g. `backend.backend_id` (contract/field-path.ts). */
  field: string;
  op: 'add' | 'remove' | 'replace';
  /** null when absent, sensitive, or for an add. */
  old: Json;
  /** null when absent, sensitive, or for a remove. A reference to a resource this plan creates is `{"$ref": "Kind/name"}` (and known_after_apply is true). */
  new: Json;
  sensitive: boolean;
  known_after_apply: boolean;
  /** `Kind/name` of each id in `old` or `new` that belongs to a managed resource (`{}` when none). */
  names: Record<string, string>;
  /**
   * Only when `old` or `new` is a PEM whose certificates could be read: what each certificate says, in order
   * (`null` for a side without any).
   */
  certificates?: { old: CertificateSummary[] | null; new: CertificateSummary[] | null };
}

type Certificates = Readonly<Record<string, CertificateSummary[]>>;

/** What the certificates of the PEM values say, by side; undefined when neither side has any. */
function certificatesOf(a: Json, b: Json, certificates: Certificates): { a: CertificateSummary[] | null; b: CertificateSummary[] | null } | undefined {
  const of = (v: Json): CertificateSummary[] | null => (typeof v === 'string' && Object.hasOwn(certificates, pemDigest(v)) ? certificates[pemDigest(v)]! : null);
  const found = { a: of(a), b: of(b) };
  return found.a || found.b ? found : undefined;
}

interface JsonModuleAction {
  module: string;
  op: 'put' | 'delete';
}

interface JsonResource {
  address: string;
  /** What a reviewer reads for the resource: the address, or for a natural-key item without a document its parent's name (`RouteResponseHeaders of HTTPSEdgeRoute/api`). */
  label: string;
  /** The document's `file:line`; null for a resource no document names (a delete). */
  source: string | null;
  /** Only for a document an environment made: the document's `file:line:col`, then each Patch that changed it. */
  sources?: string[];
  kind: string;
  name: string;
  action: ResourceOp;
  /** The live id acted on (the old id for a replace); null for a create. */
  live_id: string | null;
  /** Why a replace is needed, or why an unmarked part of a managed resource is deleted; null for other actions. */
  reason: string | null;
  /** Edge modules replaced whole (put) or removed (delete); their field changes are in `changes` too. */
  modules: JsonModuleAction[];
  changes: JsonChange[];
  /** Only on an adopted resource (`--adopt`): the key that matched the live resource, e.g. `hostport 1.tcp.example.com:20001`. */
  adopt?: string;
  /** Only on a renamed resource (`moved_from`): the address whose live resource it keeps. */
  moved_from?: string;
  /** Only when the resource first gives up unique values (hostports) that other resources then claim. */
  release_first?: { for: string[]; changes: JsonChange[] };
}

/** A refusal the plan predicts (apply refuses a plan with any), at the manifest position that causes it. */
interface JsonPlanError {
  file: string;
  line: number;
  col: number;
  /** `Kind/name` of the document. */
  address?: string;
  message: string;
}

/** A targeted plan's targets; `headline` is the line the text and Markdown plans start with. */
interface JsonPlanTarget {
  addresses: string[];
  resources: number;
  of: number;
  headline: string;
}

export const JSON_PLAN_VERSION = 2;

export interface JsonPlan {
  format_version: typeof JSON_PLAN_VERSION;
  stack: string;
  /** True when the plan deletes every resource of the stack (apply needs --destroy). */
  destroy: boolean;
  /** Only on a plan made with --target: the targets, and how many resources it covers of all the stack's. */
  target?: JsonPlanTarget;
  summary: PlanSummary;
  resources: JsonResource[];
  warnings: string[];
  /** What the service would refuse; non-empty means `plan` exits 1 and apply refuses the plan. */
  errors: JsonPlanError[];
  /**
   * Only when the plan deletes and creates what looks like one resource renamed: `from` (deleted), `to`
   * (created), `moved_from` (the line to add to `to`'s document to keep the live resource), and `message` as
   * the text plan words it. Added within version 2.
   */
  rename_hints?: { from: string; to: string; moved_from: string; message: string }[];
  /** Only when the command computed it: the plan's checksum, for `apply --checksum`. */
  checksum?: string;
  /**
   * Only when the stack has policies: every result (info included) at the offending field's position, the
   * exceptions the plan used, notes about them, and the policy set's digest (part of the checksum). Added
   * within version 2.
   */
  policy?: PolicyResult[];
  policy_exceptions?: string[];
  policy_warnings?: string[];
  policy_set?: string;
}

interface JsonExtras {
  checksum?: string;
}

function idsIn(value: Json, names: Readonly<Record<string, string>>, out: Record<string, string>): void {
  if (typeof value === 'string') {
    if (Object.hasOwn(names, value)) out[value] = names[value]!;
  } else if (Array.isArray(value)) for (const v of value) idsIn(v, names, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) idsIn(v, names, out);
}

/** `Kind/name` of each id in the values that belongs to a managed resource: a change's (or drift finding's) `names`. */
function namesIn(values: readonly Json[], names: Readonly<Record<string, string>>): Record<string, string> {
  const named: Record<string, string> = {};
  for (const value of values) idsIn(value, names, named);
  return named;
}

function jsonChange(change: FieldChange, names: Readonly<Record<string, string>>, certificates: Certificates = {}): JsonChange {
  const hidden = change.sensitive === true;
  const old = hidden || change.kind === 'add' ? null : change.old ?? null;
  const neu = hidden || change.kind === 'remove' ? null : change.new ?? null;
  const named = namesIn([old, neu], names);
  const certs = certificatesOf(old, neu, certificates);
  return {
    path: change.path, field: showPath(change.path), op: change.kind, old, new: neu, sensitive: hidden, known_after_apply: change.knownAfterApply === true, names: named,
    ...(certs ? { certificates: { old: certs.a, new: certs.b } } : {}),
  };
}

function actionChanges(action: Action): FieldChange[] {
  return action.op === 'module-put' || action.op === 'module-delete' ? moduleChanges(action) : action.changes;
}

function releaseFirst(actions: readonly Action[], names: Readonly<Record<string, string>>): Pick<JsonResource, 'release_first'> {
  const step = actions.find((a) => a.releaseFor);
  return step ? { release_first: { for: step.releaseFor!, changes: step.changes.map((c) => jsonChange(c, names)) } } : {};
}

/** `sources` when a document of the group came from an environment (its bases and Patches). */
function sourcesOf(actions: readonly Action[]): { sources?: string[] } {
  const sources = actions.find((a) => a.sources)?.sources;
  return sources ? { sources: [...sources] } : {};
}

function planToJson(plan: Plan, extras: JsonExtras = {}): JsonPlan {
  const json: JsonPlan = {
    format_version: JSON_PLAN_VERSION,
    stack: plan.stack,
    destroy: plan.destroy !== undefined,
    ...(plan.targets ? { target: { ...plan.targets, addresses: [...plan.targets.addresses], headline: targetHeadline(plan)! } } : {}),
    summary: { ...plan.summary },
    resources: groupByAddress(plan).map((group) => ({
      address: group.address,
      label: group.label,
      source: group.actions.find((a) => a.source)?.source ?? null,
      ...sourcesOf(group.actions),
      kind: group.kind,
      name: group.name,
      action: group.op,
      live_id: group.liveId ?? null,
      reason: group.op === 'replace' || group.op === 'delete' ? group.reason ?? null : null,
      modules: group.actions
        .filter((a) => a.op === 'module-put' || a.op === 'module-delete')
        .map((a) => ({ module: a.module ?? '', op: a.op === 'module-put' ? 'put' as const : 'delete' as const })),
      changes: group.actions.filter((a) => !a.releaseFor).flatMap(actionChanges).map((c) => jsonChange(c, group.names, group.certificates)),
      ...(group.adopt ? { adopt: group.adopt } : {}),
      ...(group.movedFrom ? { moved_from: group.movedFrom } : {}),
      ...releaseFirst(group.actions, group.names),
    })),
    warnings: [...plan.warnings],
    errors: (plan.errors ?? []).map((e) => ({ file: e.pos.file, line: e.pos.line, col: e.pos.col, ...(e.address ? { address: e.address } : {}), message: issueMessage(e) })),
    ...(plan.renames ? { rename_hints: plan.renames.map((h) => ({ from: h.from, to: h.to, moved_from: movedFromLine(h), message: renameHintText(h) })) } : {}),
    ...policyJson(plan.policy),
  };
  if (extras.checksum) json.checksum = extras.checksum;
  return json;
}

function renderPlanJson(plan: Plan, extras: JsonExtras = {}): string {
  return `${JSON.stringify(planToJson(plan, extras), null, 2)}\n`;
}

interface JsonDriftFinding {
  direction: DriftDirection;
  /** JSON pointer in the request shape; '' for the whole resource. */
  path: string;
  /** The same field as every other output shows it (`backend.backend_id`); '' for the whole resource. */
  field: string;
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
  /** The plan action resolving it: create, update, replace, delete, module-put, module-delete; `none` when apply leaves it. */
  action: ActionOp | 'none';
  /** `Kind/name` of each id in `live` or `desired` that belongs to a managed resource (`{}` when none). */
  names: Record<string, string>;
  /** Only on an "unmanaged" finding: the natural key that matched the live resource to its document. */
  adopt?: string;
  /** Only on an "unmanaged" finding about a resource outside the stack attached to a managed one. */
  attachment?: JsonAttachment;
  /** Only when `live` or `desired` is a PEM whose certificates could be read: what each certificate says. */
  certificates?: { live: CertificateSummary[] | null; desired: CertificateSummary[] | null };
}

/** A live resource outside the stack that is part of (`part`) or references (`reference`) a managed one. */
interface JsonAttachment {
  id: string;
  kind: string;
  /** The resource in a few words (`0.0.0.0/0 allow`); '' when there is nothing short to say. */
  summary: string;
  /** The stack and `Kind/name` that manage it; null for a resource no stack manages. */
  stack: string | null;
  name: string | null;
  relation: 'part' | 'reference';
  /** The field holding the reference: `ip_policy_id`, `ip_restriction.ip_policy_ids`. */
  field: string;
  /** The managed resource it touches, and its id. */
  touches: string;
  touches_id: string;
}

function jsonAttachment(a: Attachment): JsonAttachment {
  return {
    id: a.id, kind: a.kind, summary: a.summary, stack: a.owner?.stack ?? null, name: a.owner?.name ?? null,
    relation: a.relation, field: a.field, touches: a.target.address, touches_id: a.target.id,
  };
}

interface JsonDriftResource {
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

interface JsonDriftReport {
  format_version: 1;
  stack: string;
  in_sync: boolean;
  /** `unmanaged` only when drift ran with adopt and there are resources to adopt. */
  summary: { changed: number; missing: number; live_only: number; unmanaged?: number; resources: number };
  resources: JsonDriftResource[];
  warnings: string[];
  /** As in the JSON plan: policies on live state (info included), only when the stack has policies. */
  policy?: PolicyResult[];
  policy_exceptions?: string[];
  policy_warnings?: string[];
  policy_set?: string;
}

function policyJson(report: PolicyReport | undefined): Pick<JsonPlan, 'policy' | 'policy_exceptions' | 'policy_warnings' | 'policy_set'> {
  if (!report) return {};
  return { policy: report.results.map((r) => ({ ...r })), policy_exceptions: [...report.exceptions], policy_warnings: [...report.warnings], policy_set: report.digest };
}

function driftToJson(report: DriftReport): JsonDriftReport {
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
        const certs = certificatesOf(live, desired, report.certificates ?? {});
        return {
          direction: f.direction,
          path: f.path,
          field: showPath(f.path),
          module: f.module ?? null,
          element: f.element,
          live,
          desired,
          sensitive: f.sensitive,
          known_after_apply: f.knownAfterApply,
          action: f.action,
          names: namesIn([live, desired], report.names),
          ...(f.adopt !== undefined ? { adopt: f.adopt } : {}),
          ...(f.attachment ? { attachment: jsonAttachment(f.attachment) } : {}),
          ...(certs ? { certificates: { live: certs.a, desired: certs.b } } : {}),
        };
      }),
    })),
    warnings: [...report.warnings],
    ...policyJson(report.policy),
  };
}

function renderDriftJson(report: DriftReport): string {
  return `${JSON.stringify(driftToJson(report), null, 2)}\n`;
}

export const jsonView: ViewFactory = () => ({
  plan: (plan, footer = {}) => renderPlanJson(plan, { checksum: footer.checksum }),
  drift: renderDriftJson,
});
