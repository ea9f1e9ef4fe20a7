// The plan is data: diff and plan produce it without effects, apply executes it, renderers print it.
import type { CertificateSummary } from '../contract/certificate-summary.ts';
import type { ManifestIssue } from '../errors.ts';
import type { Json, Obj } from '../kinds/resource-kind.ts';
import type { PolicyReport } from '../policy/results.ts';

export type { CertificateSummary };

/** One live resource outside the stack touching one of its managed resources. */
export interface Attachment {
  kind: string;
  id: string;
  /** The resource in a few words (`0.0.0.0/0 allow`); '' when there is nothing short to say. */
  summary: string;
  /** Set when another stack manages it: its stack and `Kind/name`. */
  owner?: { stack: string; name: string };
  /** `part`: it belongs to the managed resource (a rule of a policy); `reference`: it points at it. */
  relation: 'part' | 'reference';
  /** The field holding the reference, as people read it: `ip_restriction.ip_policy_ids`. */
  field: string;
  /** The managed resource it touches. */
  target: { address: string; id: string };
  /** For a part: what parts of its kind are called (`rules`). */
  noun?: string;
}

export type ActionOp = 'create' | 'update' | 'replace' | 'delete' | 'module-put' | 'module-delete';

/** One field-level change, shown as `path: old -> new`. Sensitive changes carry no values at all. */
export interface FieldChange {
  /** JSON pointer in the request shape (`/backend/backend_id`, `/labels/app`). */
  path: string;
  kind: 'add' | 'remove' | 'replace';
  old?: Json;
  new?: Json;
  /** A secret changed: renderers print `(sensitive)` and the values are absent. */
  sensitive?: boolean;
  /** The new value is an id not known until apply (a reference to a resource created by this plan). */
  knownAfterApply?: boolean;
}

export interface Action {
  /** Unique within the plan, stable across runs for the same plan: `op:Kind/name[:module]`. */
  id: string;
  op: ActionOp;
  kind: string;
  name: string;
  /** `Kind/name`. */
  address: string;
  /** Live id acted on (update, delete, module ops; the old id for replace). */
  liveId?: string;
  /** Request body (create, replace, module-put) or changed fields (update); may hold PendingRef and secrets. */
  body?: Obj;
  /** Full desired body (for update hooks that need it, and the post-apply check). */
  desired?: Obj;
  module?: string;
  /** What a user sees: field changes (create: every field as add; delete: empty). */
  changes: FieldChange[];
  /** For replace: why (`ip_policy_id cannot be updated`); for the delete of an unmarked part, why it goes. */
  reason?: string;
  /** The delete of an unmarked part of a managed resource (`authoritative: children`): what it is attached to. */
  attachment?: Attachment;
  /**
   * Adoption (`--adopt`): the natural key that matched this unmanaged live resource to its document
   * (`hostport 1.tcp.example.com:20001`); the update (or replace) also writes the ownership marker.
   */
  adopt?: string;
  /**
   * A rename (`moved_from`): the address whose live resource this one keeps. The update rewrites the marker;
   * nothing is deleted or created.
   */
  movedFrom?: string;
  /**
   * A release step: an update that gives up unique values (hostports) ahead of the resource's own action, so
   * the addresses listed can claim them (a swap or rotation of values is a cycle no order alone resolves).
   */
  releaseFor?: string[];
  /**
   * How a reviewer reads a resource whose address is made of ids (a natural-key item no document names):
   * `RouteResponseHeaders of HTTPSEdgeRoute/api`. Display only: `address` stays the identity.
   */
  label?: string;
  /** The document's `file:line`, for actions of a document (apply failures point at it). */
  source?: string;
  /**
   * For a document an environment made (manifest/environment/): the document's `file:line:col`, then each Patch
   * that changed it. Display only, like `source`: never part of the plan's meaning.
   */
  sources?: string[];
  /** Ids of actions that must finish first. An id ending in `#old` names the old-resource delete of a replace. */
  dependsOn: string[];
  /**
   * For replace only: ids that must finish before the OLD resource is deleted (its dependents repointed to the
   * new one first). The replace runs as create-new (`id`, after `dependsOn`) then delete-old (`id#old`).
   */
  deleteDependsOn?: string[];
}

/** What a user reads for one resource's actions, in every output. */
export type ResourceOp = 'create' | 'update' | 'replace' | 'delete';

/** create, replace and delete describe the whole resource; update and module actions all count as an update. */
export function resourceOp(actions: readonly Action[]): ResourceOp {
  for (const op of ['delete', 'replace', 'create'] as const) if (actions.some((a) => a.op === op)) return op;
  return 'update';
}

export interface PlanSummary {
  create: number;
  update: number;
  replace: number;
  delete: number;
}

/** A delete and a create that look like one resource renamed without `moved_from` (engine/rename-hints.ts). */
export interface RenameHint {
  /** The address the plan deletes. */
  from: string;
  /** The address the plan creates, which would keep `from`'s live resource with `moved_from`. */
  to: string;
}

/** A targeted plan's record of its targets (engine/targets.ts): part of its meaning, its checksum and a saved plan. */
export interface PlanTargets {
  /** The targets as given (`Kind/name`), sorted and without repeats. */
  addresses: string[];
  /** How many resources the plan covers: the targets and what they reference. */
  resources: number;
  /** How many resources the whole plan covers: every document and every resource the stack manages. */
  of: number;
}

export interface Plan {
  stack: string;
  actions: Action[];
  summary: PlanSummary;
  /** Notes for the user that are not actions (a collision hint, a delete-threshold status). */
  warnings: string[];
  /**
   * `Kind/name` of each live id the plan shows that belongs to a managed resource (engine/plan-names.ts), for
   * display next to the id. Another stack's resource reads `Kind/name of stack "x"`.
   */
  names?: Record<string, string>;
  /**
   * What the certificates in the PEM values the plan shows say (subject, SANs, issuer, validity, serial), by
   * the SHA-256 (hex) of the PEM text (engine/certificate-details.ts). Display only, like `names`.
   */
  certificates?: Record<string, CertificateSummary[]>;
  /**
   * Set when the plan deletes every resource of a stack that has some (engine/safety.ts): a destroy, which
   * apply runs only with --destroy. `resources` is how many resources it deletes (its `N to delete`).
   */
  destroy?: { resources: number };
  /**
   * Set on a plan made with `--target` (engine/targets.ts): the targets, and how many resources the plan covers
   * of all the stack's. Part of the plan's meaning: its checksum and a saved plan carry it.
   */
  targets?: PlanTargets;
  /**
   * Live resources outside the stack attached to its managed ones that the plan leaves as they are
   * (engine/attachments.ts): plan warns about them, drift reports them. Absent when there are none.
   */
  attachments?: Attachment[];
  /**
   * What the service would refuse, at the manifest position that causes it (engine/plan-checks.ts). Apply
   * refuses a plan with errors before any write. Absent when there are none.
   */
  errors?: ManifestIssue[];
  /**
   * Deletes and creates that look like one resource renamed without `moved_from` (engine/rename-hints.ts): a
   * hint for the reader, display only. Absent when there are none.
   */
  renames?: RenameHint[];
  /**
   * What the stack's policies say about the plan (src/policy/): results, the exceptions used, the policy set's
   * digest (part of the checksum). Absent when the stack has no policies.
   */
  policy?: PolicyReport;
}

type ActionStatus = 'done' | 'failed' | 'skipped';

export interface ActionResult {
  actionId: string;
  status: ActionStatus;
  /** For failed: the API error (status, error_code, message) or another error's message. Never a secret. */
  error?: { status?: number; errorCode?: string; message: string };
  /** For skipped: the id of the failed action it depended on. */
  skippedBecause?: string;
}

/**
 * A replace's old resource still live beside its replacement after a run (engine/kept-old.ts): its delete was
 * held back where removing it first would expose or break something, failed, or never started.
 */
export interface KeptOld {
  /** `Kind/name`: the document with two live resources until the next run, whose plan deletes the old one. */
  address: string;
  oldId: string;
  newId: string;
  /** `kept until IPPolicyRule/pol-9-v4 exists: removing it first would ...`, `its delete failed: ...`. */
  reason: string;
}

export interface ApplyResult {
  results: ActionResult[];
  ok: boolean;
  /** True when an interrupt stopped the apply before every action started. */
  interrupted?: boolean;
  /** Replaces whose old resource the run left live beside the new one. Absent when there are none. */
  kept?: KeptOld[];
}

/** Progress events of an apply, for the live progress display and plain log lines. */
export type ApplyEvent =
  | { type: 'start'; action: Action }
  /** `liveId`: the id a create or replace produced (the new resource). */
  | { type: 'done'; action: Action; liveId?: string }
  | { type: 'failed'; action: Action; error: NonNullable<ActionResult['error']> }
  | { type: 'skipped'; action: Action; because: string };
