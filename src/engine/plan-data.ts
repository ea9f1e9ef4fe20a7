// The plan is data: diff and plan produce it without effects, apply executes it, renderers print it.
import type { CertificateSummary } from '../contract/certificate-summary.ts';
import type { ManifestIssue } from '../errors.ts';
import type { Json, Obj } from '../kinds/resource-kind.ts';

export type { CertificateSummary };

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
  /** For replace: why (`ip_policy_id cannot be updated`). */
  reason?: string;
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
  /** Ids of actions that must finish first. An id ending in `#old` names the old-resource delete of a replace. */
  dependsOn: string[];
  /**
   * For replace only: ids that must finish before the OLD resource is deleted (its dependents repointed to the
   * new one first). The replace runs as create-new (`id`, after `dependsOn`) then delete-old (`id#old`).
   */
  deleteDependsOn?: string[];
}

export interface PlanSummary {
  create: number;
  update: number;
  replace: number;
  delete: number;
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
   * apply runs only with --destroy. `resources` is how many the stack had.
   */
  destroy?: { resources: number };
  /**
   * What the service would refuse, at the manifest position that causes it (engine/plan-checks.ts). Apply
   * refuses a plan with errors before any write. Absent when there are none.
   */
  errors?: ManifestIssue[];
}

export type ActionStatus = 'done' | 'failed' | 'skipped';

export interface ActionResult {
  actionId: string;
  status: ActionStatus;
  /** For failed: the API error (status, error_code, message) or another error's message. Never a secret. */
  error?: { status?: number; errorCode?: string; message: string };
  /** For skipped: the id of the failed action it depended on. */
  skippedBecause?: string;
}

export interface ApplyResult {
  results: ActionResult[];
  ok: boolean;
  /** True when an interrupt stopped the apply before every action started. */
  interrupted?: boolean;
}

/** Progress events of an apply, for the live progress display and plain log lines. */
export type ApplyEvent =
  | { type: 'start'; action: Action }
  /** `liveId`: the id a create or replace produced (the new resource). */
  | { type: 'done'; action: Action; liveId?: string }
  | { type: 'failed'; action: Action; error: NonNullable<ActionResult['error']> }
  | { type: 'skipped'; action: Action; because: string };
