// The ResourceKind descriptor: everything the reconciler knows about one kind lives in one object
// that satisfies this interface (src/kinds/<kind>.ts). The engine only ever calls these hooks; it never
// names a kind. src/kinds/index.ts holds KINDS, the one explicit list.
import type { RuleProblem } from '../contract/rule-error.ts';

import type { Json, JsonObject } from '../contract/json.ts';

export type { Json };
export type Obj = JsonObject;

/**
 * A reference to another resource, in the request ("sent") shape: a JSON pointer into the request body
 * whose value is an id, or whose value is a list of ids when the pointer ends in `/*`
 * (`/backend/backend_id`, `/ip_restriction/ip_policy_ids/*`, `/edge_id`).
 * In a manifest the same field takes a managed resource's name or a literal id.
 */
export interface RefField {
  pointer: string;
  /** Manifest kinds the reference may point at (a backend_id may name either backend kind). */
  kinds: readonly string[];
  /**
   * The reference must equal a reference of another resource this one names: `{via: '/route_id', pointer:
   * '/edge_id'}` = the same edge as the route's own `edge_id`. Checked by validate where names or literal ids
   * show it.
   */
  sameAs?: { via: string; pointer: string };
  /**
   * The parent named in the item's path (a route's edge): the service deletes the item with its parent and
   * keeps no reference record for it, so this reference never blocks a delete (409 ERR_RESOURCE_IN_USE).
   */
  inPath?: boolean;
}

/** A top-level list of strings whose every value is unique within `scope` (kinds sharing a scope share values). */
export interface UniqueField {
  field: string;
  scope: string;
  /** The value as the service compares it (hostports: case-insensitive). */
  key(value: string): string;
  /**
   * Where the service says each value is held, for values no live item of the account holds: a value held in
   * another account is one the plan cannot claim, and no list shows it. Undefined when the service cannot say
   * (it predates the question): the plan then goes without the check.
   */
  availability?(api: Api, values: readonly string[]): Promise<ReadonlyMap<string, ClaimAvailability> | undefined>;
}

/** Where a unique value is held, as the service tells it: never by what, when outside the caller's account. */
export type ClaimAvailability = 'free' | 'held_in_account' | 'held_outside_account';

/**
 * A reference whose target does not have an id yet (it is created by the same apply).
 * Desired request bodies hold this object where the id will go; apply substitutes the id.
 */
export interface PendingRef {
  $ref: string; // `Kind/name`
}

/** One live object of a kind, as fetched. */
export interface LiveItem {
  /** The service id; for natural-key kinds, the natural key (e.g. `edghts_x/edghtsrt_y`). */
  id: string;
  /** The raw response object of the service. */
  raw: Obj;
}

/** The narrow HTTP surface descriptors use. Implemented by src/client; paths are relative to the API URL. */
export interface Api {
  get(path: string): Promise<Obj>;
  post(path: string, body: Obj): Promise<Obj>;
  patch(path: string, body: Obj): Promise<Obj>;
  put(path: string, body: Obj): Promise<Obj>;
  delete(path: string): Promise<void>;
  /**
   * GET a list and follow next_page_uri until null; returns the items under `listKey` of every page.
   * `onPage` sees each page's items once the next page has been requested, so work on them overlaps the fetch.
   */
  list(path: string, listKey: string, onPage?: (items: Obj[]) => void): Promise<Obj[]>;
  /**
   * A view whose POSTs, after an ambiguous failure (the service may have committed), are retried only when
   * `check` resolves true, i.e. the create did not land. Absent on an Api that never retries a POST (fakes in
   * tests): callers then use the Api as it is (`api.retryPostIf?.(check) ?? api`).
   */
  retryPostIf?(check: () => Promise<boolean>): Api;
}

/** What fetch hooks may use besides the Api: other kinds' live lists, fetched once and shared. */
export interface FetchContext {
  api: Api;
  /** Raw items of a top-level list endpoint, memoized per path (so HTTPSEdge and HTTPSEdgeRoute share one fetch). */
  listOnce(path: string, listKey: string, onPage?: (items: Obj[]) => void): Promise<Obj[]>;
  /**
   * Optional warm-up for the kind being fetched: give it each page of the kind's own list (as `listOnce`'s
   * onPage), and the engine prepares those items while later pages are still in flight.
   */
  onPage?: (items: Obj[]) => void;
}

export interface ValueRules {
  fields: readonly string[];
  load(): Promise<(body: Obj) => RuleProblem | undefined>;
}

export interface ResourceKind {
  /** Manifest kind, e.g. `TCPEdge`. */
  readonly kind: string;
  /** Literal ids of this kind start with this prefix (`edgtcp_`); absent for natural-key kinds. */
  readonly idPrefix?: string;
  /**
   * `marker`: matched by the ownership marker in `metadata` (design: Ownership).
   * `natural`: no metadata; matched by `naturalKey`, and a manifest is authoritative for the parent it names.
   */
  readonly identity: 'marker' | 'natural';
  readonly refs: readonly RefField[];
  /** Top-level request fields the service cannot update: a change means replace (create new, repoint, delete old). */
  readonly immutable: readonly string[];
  /** Top-level request fields whose values are never printed, logged or saved (shown as `(sensitive)`). */
  readonly secrets: readonly string[];
  /** Top-level request fields the service never returns (e.g. `private_key_pem`): excluded from the diff. */
  readonly writeOnly: readonly string[];
  /**
   * Top-level fields holding PEM certificates (a chain, or a CA bundle): plans show the subject, SANs, issuer,
   * validity and serial of each certificate beside the PEM's fingerprint (engine/certificate-details.ts).
   */
  readonly certificateFields?: readonly string[];
  /** Fields that are modules: sent whole, and removed only by `deleteModule` (absent from the manifest = delete). */
  readonly modules: readonly string[];
  /**
   * Fields whose values the service lets only one resource hold at a time (hostports: one edge per hostport,
   * across every kind sharing the scope). A plan that moves such a value frees it before it is claimed.
   */
  readonly unique?: readonly UniqueField[];
  /**
   * A live item in a few words, for reports naming a resource no document names (`0.0.0.0/0 allow` for a rule,
   * the hostports of an edge). Without it the description is used.
   */
  brief?(body: Obj): string;
  /** What items of this kind are to the parent they are part of, in the plural (`rules` of an IP policy). */
  readonly partNoun?: string;
  /**
   * The service's rules for this kind's resolved body that JSON Schema cannot say (a certificate chain, a key
   * that matches it), from the contract: checked when the manifests are read, before any request. `fields` are
   * the top-level fields they read (strings once secrets are resolved); `load` brings the check in only when a
   * document of the kind is read (X.509 parsing is heavy to load). A problem's `field` says where it is.
   */
  readonly valueRules?: ValueRules;

  /** Manifest document fields (without kind/name; refs already resolved) -> request body. Pure. */
  toRequest(spec: Obj): Obj;
  /**
   * Live response -> the request shape, normalized so that a just-applied resource compares equal to its
   * desired body: Refs become ids, header names lower-cased, `enabled` defaulted, service-only fields dropped,
   * values the service defaults when unsent dropped when they equal the default. Pure.
   */
  fromLive(raw: Obj): Obj;
  /** Normalization applied to a desired request body before diffing (same rules as fromLive). Pure. */
  normalizeDesired(body: Obj): Obj;
  /** For natural-identity kinds: the key of a desired body (parent ids) or of a live item; matches LiveItem.id. */
  naturalKey?(body: Obj): string;
  /**
   * For marker kinds that can be adopted (`plan/apply --adopt`): the natural keys a resource is known by, as
   * readable strings (`hostport 1.tcp.example.com:20001`). Called with a desired body and its document `name`,
   * or with a live body (`name` undefined). An unmanaged live item sharing a key with a document that would
   * otherwise be created is that document's resource. Kinds without the hook are never adopted.
   */
  adoptKeys?(body: Obj, name?: string): string[];

  /** Every live object of this kind in the account. */
  fetch(ctx: FetchContext): Promise<LiveItem[]>;

  create(api: Api, body: Obj): Promise<LiveItem>;
  /** Send the changed top-level fields (`changed` holds only those, modules included whole). */
  update(api: Api, live: LiveItem, changed: Obj, desired: Obj): Promise<void>;
  /** Replace one module whole (PUT). Only for kinds with modules. */
  putModule?(api: Api, live: LiveItem, module: string, body: Obj): Promise<void>;
  /**
   * Whether putting `module` as `body` must come before the resource's other module puts in one apply: the
   * service checks a resource's modules together, and this one widens what the others may be (a TLS edge takes
   * policy and traffic_policy only once its tls_termination terminates at the edge). Removals already come first.
   */
  modulePutFirst?(module: string, body: Obj): boolean;
  /** Remove one module (DELETE). Only for kinds with modules. */
  deleteModule?(api: Api, live: LiveItem, module: string): Promise<void>;
  delete(api: Api, live: LiveItem): Promise<void>;
}
