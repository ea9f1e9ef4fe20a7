// What the manifest stages hand each other: files found, documents as loaded (with source positions), resolved
// documents, and the desired state the engine plans from.
import type { SourcePos } from '../errors.ts';
import type { Obj, ResourceKind } from '../kinds/resource-kind.ts';

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
  /** The environment label (prod, staging): policies match it. */
  environment?: string;
  /** `policies:` directories (relative to the project file) and built-in packs (`edgeops:baseline`). */
  policies?: string[];
  /** File the config came from. */
  file?: string;
}

export interface LoadedManifests {
  docs: ManifestDoc[];
  config: ProjectConfig;
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
}
