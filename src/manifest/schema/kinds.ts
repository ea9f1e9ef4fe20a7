// The document schema of every kind (design: Manifests), generated from the contract: a kind's fields are its create
// request's (contract.ts says how a manifest writes each), plus kind, name and moved_from. What a manifest
// adds or says differently is the overlay below; a new kind needs none. The two manifest-only kinds
// (RouteResponseHeaders, EventSources) are defined here, from the contract's module and sub-resource bodies.
// Which kinds a reference field may name comes from the reconciler's `refs`, written into its description.
import { CONTRACT_KINDS, contractKind, type BodySchema, type ContractKind } from '../../contract/index.ts';
import { KINDS, kindByName } from '../../kinds/index.ts';
import type { ResourceKind } from '../../kinds/resource-kind.ts';
import { patternField, splitPointer } from '../../contract/field-path.ts';
import { parentParam } from '../../contract/path.ts';
import { translate } from './contract.ts';
import { upstreamTermination } from './modules.ts';
import { kindSchema, metadata, ref, secret, type Schema } from './parts.ts';

interface Overlay {
  /** The kind's description in editors (default: from the contract's label). */
  text?: string;
  /** Fields a manifest must set although the service's create does not require them. */
  required?: string[];
  /** Fields that may be read from a file or variable: `{file}`/`{env}` (their description). */
  files?: Record<string, string>;
  /** Fields of the create body a manifest does not write (another document kind manages them). */
  omit?: string[];
  /** Fields replaced or added. */
  fields?: Schema;
  /** Conditions across fields (if/then). */
  extra?: Schema;
}

const OVERLAYS: Record<string, Overlay> = {
  TCPEdge: { text: 'A TCP edge: hostports with backend, IP restriction and traffic policy modules.' },
  TLSEdge: {
    text: 'A TLS edge: hostports with backend, IP restriction, mutual TLS, TLS termination and traffic policy modules.',
    extra: upstreamTermination,
  },
  HTTPSEdge: { text: 'An HTTPS edge; its routes are HTTPSEdgeRoute documents.' },
  // Its response_headers module is a document of its own (RouteResponseHeaders).
  HTTPSEdgeRoute: { text: 'A route of an HTTPS edge, matching requests by path.', omit: ['response_headers'] },
  IPPolicy: { text: 'An IP policy; its rules are IPPolicyRule documents.' },
  IPPolicyRule: { text: 'Allows or denies one CIDR range in an IP policy.' },
  TunnelGroupBackend: { text: 'A backend that sends traffic to the tunnels carrying the given labels.', required: ['labels'] },
  HTTPResponseBackend: {
    text: 'A backend that answers every request with a fixed response.',
    required: ['body'],
    files: { body: 'The response body: a string, {file: path} or {env: VARIABLE}.' },
  },
  TLSCertificate: {
    text: 'An uploaded certificate chain (leaf first) with its private key.',
    files: {
      certificate_pem: 'PEM chain, leaf first: a string, {file: path} or {env: VARIABLE}.',
      private_key_pem: 'PEM private key. Use {env: VARIABLE} or {file: path} outside git; an inline key is accepted but discouraged.',
    },
  },
  CertificateAuthority: {
    text: 'A certificate authority, for mutual TLS.',
    files: { ca_pem: 'PEM CA certificate(s): a string, {file: path} or {env: VARIABLE}.' },
  },
  EventSubscription: {
    text: 'An event subscription; its event types are an EventSources document.',
    omit: ['sources'],
    fields: {
      destination_ids: {
        type: 'array',
        items: { type: 'string', pattern: '^ed_[A-Za-z0-9]+$', errorMessage: 'must be an event destination id (ed_...)' },
        uniqueItems: true,
      },
    },
  },
};

/** The contract kind of a reconciler kind with ids: the one with its id prefix. */
function contractKindOf(kind: ResourceKind): ContractKind | undefined {
  return CONTRACT_KINDS.find((c) => `${c.prefix}_` === kind.idPrefix);
}

/** The schema of a kind whose documents are the contract kind's create requests. */
function fromContract(kind: ResourceKind, contract: ContractKind): Schema {
  const overlay = OVERLAYS[kind.kind] ?? {};
  const ctx = { refs: new Set(kind.refs.map((r) => patternField(r.pointer))), modules: new Set(contract.modules.map((m) => m.name)) };
  const body = translate(contract.create, '', ctx);
  const properties: Schema = {};
  // A child collection's parent is named in the path (`:edge_id`); a manifest names it as a field.
  const parentField = parentParam(contract.path);
  if (parentField) properties[parentField] = { ...ref };
  for (const [field, schema] of Object.entries(body.properties as Schema)) {
    if (overlay.omit?.includes(field)) continue;
    properties[field] = overlay.files?.[field] !== undefined ? secret(overlay.files[field]) : schema;
  }
  properties.metadata = metadata;
  Object.assign(properties, overlay.fields);
  const required = [...(parentField ? [parentField] : []), ...((body.required as string[] | undefined) ?? []), ...(overlay.required ?? [])];
  return kindSchema(kind.kind, overlay.text ?? `A ${contract.label}.`, properties, required, overlay.extra);
}

const bodyCtx = { refs: new Set<string>(), modules: new Set<string>() };

/** The response-headers module of a route, as its own document: the module's PUT body plus the route it is of. */
function routeResponseHeaders(): Schema {
  const module = contractKind('https_edge_route').modules.find((m) => m.name === 'response_headers')!;
  // As a module's fields: each may be null for "unset".
  const body = translate(module.schema, '', bodyCtx, true);
  return kindSchema('RouteResponseHeaders', 'The response-headers module of one HTTPS edge route.', { edge_id: ref, route_id: ref, ...(body.properties as Schema) }, ['edge_id', 'route_id']);
}

/** A subscription's event sources as one document: the set of the source create bodies' types. */
function eventSources(): Schema {
  const source = contractKind('event_subscription').subresources!.sources!.create.properties!.type as BodySchema;
  return kindSchema('EventSources', 'The full set of event types one event subscription triggers on.', {
    subscription_id: ref,
    types: {
      type: 'array',
      // An empty set has no live counterpart (a subscription without sources lists none), so it could never
      // converge; to remove every source, delete the document.
      description: 'Event types, e.g. ip_policy_created.v0 (at least one; delete the document to remove every source).',
      minItems: 1,
      items: translate(source, 'types[]', bodyCtx),
      uniqueItems: true,
    },
  }, ['subscription_id', 'types']);
}

const MANIFEST_ONLY: Record<string, () => Schema> = { RouteResponseHeaders: routeResponseHeaders, EventSources: eventSources };

/** The schema node a pointer of the document leads to (`*` = the items of a list). */
export function nodeAt(schema: Schema, pointer: string): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const seg of splitPointer(pointer)) {
    if (!node) return undefined;
    node = (seg === '*' ? node.items : (node.properties as Schema | undefined)?.[seg]) as Schema | undefined;
  }
  return node;
}

function refText(kinds: readonly string[]): string {
  const prefixes = kinds.map((k) => kindByName(k)?.idPrefix).filter(Boolean).map((p) => `${p}...`);
  return `The name of a resource of kind ${kinds.join(' or ')} in these manifests, or a literal id (${prefixes.join(', ')}).`;
}

/** Every kind's schema, with reference descriptions filled in from the kind's refs. Throws on a mismatch. */
export function kindSchemas(): Map<string, Schema> {
  const out = new Map<string, Schema>();
  for (const kind of KINDS) {
    const contract = contractKindOf(kind);
    const make = MANIFEST_ONLY[kind.kind];
    if (!contract && !make) throw new Error(`no contract kind with id prefix ${kind.idPrefix ?? '(none)'} for kind ${kind.kind}`);
    // A JSON copy, not structuredClone: that would keep the sharing of `ref` between fields.
    const schema = JSON.parse(JSON.stringify(contract ? fromContract(kind, contract) : make!())) as Schema;
    for (const refField of kind.refs) {
      const node = nodeAt(schema, refField.pointer);
      if (!node || node.type !== 'string') throw new Error(`${kind.kind}: ref ${refField.pointer} is not a string field of the schema`);
      node.description = refText(refField.kinds);
    }
    out.set(kind.kind, schema);
  }
  for (const k of [...Object.keys(OVERLAYS), ...Object.keys(MANIFEST_ONLY)]) if (!kindByName(k)) throw new Error(`manifest schema for unknown kind ${k}`);
  return out;
}
