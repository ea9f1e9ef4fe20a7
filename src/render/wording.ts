// The words every output format shares, so text and Markdown say exactly the same thing: a plan as resource
// blocks and lines (text.ts paints them, markdown.ts turns them into a diff block, json.ts reads the grouping
// only), the sentences of a drift report, and the lines under a plan about approving it.
import type { DriftFinding, DriftReport, DriftResource } from '../engine/drift.ts';
import { attachmentRelation } from '../engine/attachments.ts';
import { formatIssue, planErrorsLine } from '../errors.ts';
import { resourceOp, type Action, type CertificateSummary, type FieldChange, type Plan, type ResourceOp } from '../engine/plan-data.ts';
import type { Json } from '../kinds/resource-kind.ts';
import { showChange, type ShowContext, type ShownChange } from './value-lines.ts';
import { SENSITIVE, formatPath, formatValue, type IdNames } from './values.ts';
import { shellWord } from '../shell-word.ts';

export type { ResourceOp };
/** `' '`: a line of a value laid out over several lines that is the same before and after (context). */
export type Sign = '+' | '~' | '-/+' | '-' | ' ';

/** Every action of one address, with the one operation a user reads for it. */
interface ResourceGroup {
  address: string;
  /** What the header shows: the address, or a natural-key item's label (Action.label). */
  label: string;
  /** Plan.names: ids of managed resources are shown with their `Kind/name`. */
  names: IdNames;
  /** Plan.certificates: what the certificates of the PEM values shown say. */
  certificates: Readonly<Record<string, CertificateSummary[]>>;
  kind: string;
  name: string;
  op: ResourceOp;
  liveId?: string;
  reason?: string;
  /** For an adopted resource: the key that matched it (`hostport 1.tcp.example.com:20001`). */
  adopt?: string;
  /** For a renamed resource (`moved_from`): the address it had. */
  movedFrom?: string;
  actions: Action[];
}

export interface PlanLine {
  sign: Sign;
  /**
   * 0 for a resource header, 1 for its fields and module lines, 2 for a module's fields. The lines of a value
   * laid out over several lines have their field's depth, and their own indentation in `text`.
   */
  depth: number;
  text: string;
  /** Shown dimmed after the text (the live id). */
  note?: string;
}

const OP_SIGN: Record<ResourceOp, Sign> = { create: '+', update: '~', replace: '-/+', delete: '-' };
const CHANGE_SIGN: Record<FieldChange['kind'], Sign> = { add: '+', replace: '~', remove: '-' };

/** Groups in the plan's own order (the order of each address's first action). */
export function groupByAddress(plan: Plan): ResourceGroup[] {
  const byAddress = new Map<string, Action[]>();
  for (const action of plan.actions) {
    const list = byAddress.get(action.address);
    if (list) list.push(action);
    else byAddress.set(action.address, [action]);
  }
  return [...byAddress.entries()].map(([address, actions]) => {
    const first = actions[0]!;
    const op = resourceOp(actions);
    const main = actions.find((a) => a.op === op);
    return {
      address,
      label: actions.find((a) => a.label)?.label ?? address,
      names: plan.names ?? {},
      certificates: plan.certificates ?? {},
      kind: first.kind,
      name: first.name,
      op,
      liveId: actions.find((a) => a.liveId)?.liveId,
      reason: main?.reason,
      adopt: actions.find((a) => a.adopt)?.adopt,
      movedFrom: actions.find((a) => a.movedFrom)?.movedFrom,
      actions,
    };
  });
}

/** The field changes of a module action; a module delete with none listed still shows the module going. */
export function moduleChanges(action: Action): FieldChange[] {
  if (action.op === 'module-delete' && action.changes.length === 0) {
    return [{ path: `/${action.module ?? ''}`, kind: 'remove' }];
  }
  return action.changes;
}

/** The lines of a value laid out under its field's line, at the field's depth. */
export function valueLines(shown: ShownChange, depth: number): PlanLine[] {
  return shown.lines.map((line) => ({ sign: line.mark, depth, text: `${'    '.repeat(line.depth)}${line.text}` }));
}

/** A field's line (`path: old -> new`), and the lines of its values when they do not fit on it. */
function changeLines(change: FieldChange, depth: number, ctx: ShowContext): PlanLine[] {
  const shown = showChange(change, ctx);
  const head = `${formatPath(change.path)}:${shown.text === '' ? '' : ` ${shown.text}`}`;
  return [{ sign: CHANGE_SIGN[change.kind], depth, text: head }, ...valueLines(shown, depth)];
}

export function groupLines(group: ResourceGroup): PlanLine[] {
  const replace = group.op === 'replace'
    ? ` (replace: ${group.reason ?? 'a field cannot be updated'})`
    : group.op === 'delete' && group.reason ? ` (${group.reason})` : '';
  const adopt = group.adopt ? ` (adopt: matched by ${group.adopt})` : '';
  const moved = group.movedFrom ? ` (moved from ${group.movedFrom})` : '';
  const header = `${group.label}${moved}${replace}${adopt}`;
  const lines: PlanLine[] = [{ sign: OP_SIGN[group.op], depth: 0, text: header, note: group.liveId }];
  const ctx: ShowContext = { names: group.names, certificates: group.certificates };
  for (const action of group.actions) {
    if (action.op === 'module-put') {
      lines.push({ sign: '~', depth: 1, text: `module ${action.module} (put)` });
      lines.push(...action.changes.flatMap((c) => changeLines(c, 2, ctx)));
    } else if (action.releaseFor) {
      const forWhom = action.releaseFor.length > 0 ? action.releaseFor.join(', ') : 'its replacement';
      lines.push({ sign: '~', depth: 1, text: `first, release values for ${forWhom}` });
      lines.push(...action.changes.flatMap((c) => changeLines(c, 2, ctx)));
    } else if (action.op === 'module-delete') {
      lines.push({ sign: '-', depth: 1, text: `module ${action.module} (delete)` });
      lines.push(...action.changes.flatMap((c) => changeLines(c, 2, ctx)));
    } else {
      lines.push(...action.changes.flatMap((c) => changeLines(c, 1, ctx)));
    }
  }
  return lines;
}

/**
 * The line a targeted plan starts with, in every format: `targeted plan: 2 of 5 resources (--target
 * TCPEdge/ssh and what it references; nothing else is planned)`.
 */
export function targetHeadline(plan: Plan): string | undefined {
  const t = plan.targets;
  if (!t) return undefined;
  const one = t.addresses.length === 1;
  return `targeted plan: ${t.resources} of ${t.of} resource${t.of === 1 ? '' : 's'} (--target ${t.addresses.join(', ')} and what ${one ? 'it references' : 'they reference'}; nothing else is planned)`;
}

/** The line a destroy plan starts with, in every format. */
export function destroyHeadline(plan: Plan): string | undefined {
  if (!plan.destroy) return undefined;
  const n = plan.destroy.resources;
  return `This plan DESTROYS stack "${plan.stack}": it deletes every one of its ${n} resource${n === 1 ? '' : 's'}. apply runs it only with --destroy.`;
}

export function summaryLine(plan: Plan): string {
  if (plan.actions.length === 0) return 'No changes. Live state matches the manifests.';
  const s = plan.summary;
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete.`;
}

// The drift report's sentences.

const NO_DRIFT = 'No drift. Live state matches the manifests.';

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

/** The change a finding stands for, live as the old value and the manifests' as the new. */
function findingChange(f: DriftFinding): FieldChange {
  const kind = f.direction === 'live-only' ? 'remove' : f.direction === 'missing' ? 'add' : 'replace';
  return { path: f.path, kind, ...(f.live !== undefined ? { old: f.live } : {}), ...(f.desired !== undefined ? { new: f.desired } : {}), ...(f.knownAfterApply ? { knownAfterApply: true } : {}) };
}

const BLOCK_PHRASE: Record<DriftFinding['direction'], string> = {
  changed: 'live -> manifests',
  missing: 'in the manifests, not live',
  'live-only': 'present live, not in the manifests',
  unmanaged: '',
};

/**
 * A finding as a drift report shows it: one sentence, or, for values that do not fit on one line (a
 * multi-line string, a long list, a certificate), the sentence's start and the values' lines under it
 * (`-` live, `+` manifests).
 */
export function showFinding(f: DriftFinding, report: Pick<DriftReport, 'names' | 'certificates'>): ShownChange {
  const text = findingText(f, report.names);
  if (f.path === '' || f.direction === 'unmanaged' || f.sensitive) return { text, lines: [] };
  const shown = showChange(findingChange(f), { names: report.names, certificates: report.certificates ?? {} });
  if (shown.lines.length === 0) return { text, lines: [] };
  return { text: `${findingSubject(f)}: ${BLOCK_PHRASE[f.direction]}:${shown.text === '' ? '' : ` ${shown.text}`}`, lines: shown.lines };
}

/** One sentence: what differs, with the live and desired values. */
export function findingText(f: DriftFinding, names: IdNames): string {
  const subject = findingSubject(f);
  if (f.attachment) return `${attachmentRelation(f.attachment)}; ${f.attachment.owner ? `managed by stack ${f.attachment.owner.stack}` : 'managed by no stack'}`;
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
  if (f.attachment) return f.action === 'none' ? 'none (left as it is)' : f.action;
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
  const why = (r.apply === 'replace' || r.apply === 'delete') && r.reason ? `: ${r.reason}` : '';
  const adopt = r.apply === 'update' && r.findings.some((f) => f.direction === 'unmanaged');
  if (r.apply === 'none') return `${resourceTitle(r)}${id}: apply leaves it`;
  return `${resourceTitle(r)}${id}: apply would ${adopt ? 'adopt' : r.apply} it${why}`;
}

export function summaryText(report: DriftReport): string {
  if (report.inSync) return NO_DRIFT;
  const s = report.summary;
  const n = s.resources;
  const unmanaged = s.unmanaged ? `, ${s.unmanaged} unmanaged` : '';
  const left = report.resources.filter((r) => r.apply === 'none').length;
  const restores = left === n
    ? `\`edgeops apply\` leaves ${left === 1 ? 'it' : 'them'} as ${left === 1 ? 'it is' : 'they are'}: ${left === 1 ? 'it is' : 'they are'} not managed by this stack.`
    : `\`edgeops apply\` would restore the manifests' state${left > 0 ? ` (and leave the ${left} attached resource${left === 1 ? '' : 's'} no document of this stack manages)` : ''}.`;
  return `Drift: ${s.changed} changed, ${s.missing} missing, ${s.liveOnly} live-only${unmanaged} (${n} resource${n === 1 ? '' : 's'} differ${n === 1 ? 's' : ''} from the manifests). ${restores}`;
}

// The plan's footer: lines about approving it rather than what it changes.

/** The delete-threshold status and the checksum (`apply --checksum` applies only a plan with exactly that meaning). */
export interface PlanFooter {
  /** `Deletes: 3 of max 10, within the limits.` (absent when the plan deletes nothing). */
  deletes?: string;
  checksum?: string;
  /**
   * The arguments an apply needs to make the same plan again, before `--checksum`: the paths given to plan,
   * then `--target` for each target of a targeted plan. Absent: the hint says `PATH...`.
   */
  applyArgs?: string[];
}

/** How to approve exactly this plan, in Markdown (text drops the backticks). */
export const approveHint = (checksum: string, args: readonly string[] = ['PATH...']): string =>
  `to apply exactly this plan: \`edgeops apply ${args.map(shellWord).join(' ')} --checksum ${checksum}\``;

/** applyArgs of a plan made from `paths`: the paths, and the plan's targets, if any. */
export const applyArgsOf = (plan: Plan, paths: readonly string[]): string[] =>
  [...paths, ...(plan.targets?.addresses ?? []).flatMap((t) => ['--target', t])];

// A plan's errors (engine/plan-checks.ts) as every format shows them: each at its manifest position, then the
// line saying apply would refuse the plan.
interface ErrorLines {
  /** `file:line:col: Kind/name: message` per error, in position order. */
  errors: string[];
  /** `Plan has N errors; apply would be refused.` */
  closing: string;
}

/** Undefined for a plan without errors. */
export function planErrorLines(plan: Plan): ErrorLines | undefined {
  const errors = plan.errors ?? [];
  if (errors.length === 0) return undefined;
  return { errors: errors.map(formatIssue), closing: `${planErrorsLine(errors.length)}.` };
}
