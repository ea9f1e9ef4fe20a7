// What the manifest stages hand each other: files found, documents as loaded (with source positions), resolved
// documents, and the desired state the engine plans from.
import type { ManifestIssue, SourcePos } from '../errors.ts';
import type { Json, Obj, ResourceKind } from '../kinds/resource-kind.ts';

/** A file to read, found by discover.ts. */
export interface FoundFile {
  abs: string;
  /** Relative to the cwd: what messages print. */
  rel: string;
}

/** One YAML document = one resource, with the position of every value kept for error messages. */
export interface ManifestDoc {
  kind: string;
  name: string;
  /** The document's fields other than kind and name, as plain data. */
  fields: Obj;
  /** Position of the document itself. */
  pos: SourcePos;
  /** Position of each value by JSON pointer (`/backend/backend_id`, `/hostports/0`); `''` is the document. */
  positions: Map<string, SourcePos>;
  /** Directory of the file, for `{file: ...}` secrets relative to the manifest. */
  dir: string;
  /**
   * Where an environment's document came from, when it is not one file's: the document's position, then each
   * Patch that changed it (`file:line:col`).
   */
  sources?: string[];
}

/** `Kind/name` for messages; just the kind while the name is missing. */
export const addressOf = (doc: ManifestDoc): string => (doc.name === '' ? doc.kind : `${doc.kind}/${doc.name}`);

/** edgeops.yaml: each value optional; flag > env > file. */
export interface ProjectConfig {
  stack?: string;
  api_url?: string;
  concurrency?: number;
  max_deletes?: number;
  /** Per-kind delete limits, e.g. {TCPEdge: 2}. */
  max_deletes_per_kind?: Record<string, number>;
  /** Adopt unmanaged resources matching a document by natural key (`--adopt`); `export --all` writes it. */
  adopt?: boolean;
  /**
   * `children`: the stack is authoritative for the parts of the resources it manages (the rules of its IP
   * policies, the routes of its HTTPS edges): apply deletes the unmarked ones no document names.
   */
  authoritative?: 'none' | 'children';
  /** Seconds to keep retrying while the service is unreachable (`--retry-budget`). */
  retry_budget?: number;
  /** A label for the environment the stack is: shown in plan headers (`stack edge-prod (environment prod) at URL`) and by `edgeops stacks`; policies match it. */
  environment?: string;
  /** Directories of stack roots (relative to the file) a multi-stack apply applies before this one. */
  after?: string[];
  /** A multi-stack apply at a terminal asks for the stack name to be typed before applying this stack. */
  protect?: boolean;
  /** Plan the destroy of the whole stack. */
  retire?: boolean;
  /** `base`: a directory of shared documents, not a stack (environment/). */
  role?: 'base';
  /** Directories of shared documents, relative to the file, read before the stack's own. */
  base?: string[];
  /** A stack's variable values; a base's declarations. */
  vars?: Record<string, Json>;
  /** The one environment variable the stack's API key is read from. */
  api_key_env?: string;
  /** `policies:` directories (relative to the project file) and built-in packs (`edgeops:baseline`). */
  policies?: string[];
  /** File the config came from. */
  file?: string;
}

export interface LoadedManifests {
  docs: ManifestDoc[];
  config: ProjectConfig;
  /** An environment's warnings (environment/resolve-environment.ts). */
  warnings?: ManifestIssue[];
}

/** One desired resource after resolve: references by name became PendingRef or literal ids; secrets read. */
export interface DesiredResource {
  kind: string;
  name: string;
  /** `Kind/name`. */
  address: string;
  /**
   * The manifest fields in the request shape (before the kind's toRequest): names in `*_id(s)` fields replaced by
   * `{ $ref: 'Kind/name' }` when they name a managed resource, literal ids kept; `{file}`/`{env}` secrets replaced by
   * their values; `metadata` kept as a mapping (the engine serializes it with the ownership marker).
   */
  spec: Obj;
  /** Addresses of managed resources this one references (for the dependency graph). */
  dependsOn: string[];
  /** `moved_from`: earlier addresses (same kind) whose live resource this document keeps. */
  movedFrom?: string[];
  pos: SourcePos;
  /** ManifestDoc.sources: the document and the Patches it was made of, when it comes from an environment. */
  sources?: string[];
}

/** A resolved resource with its document and kind: what the checks of resolved values need. */
export interface ResolvedDoc {
  doc: ManifestDoc;
  kind: ResourceKind;
  resource: DesiredResource;
}

export interface DesiredState {
  resources: DesiredResource[];
  config: ProjectConfig;
  /** What is not wrong but likely a mistake (a Patch that changes nothing, a variable no document uses). */
  warnings?: ManifestIssue[];
}
