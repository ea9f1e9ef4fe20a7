// The document schema of every kind (DESIGN 3): fields named as in the service's create request, each with
// its type and limit. Which kinds a reference field may name comes from the kinds' declared `refs`, and is
// written into the field's description here rather than repeated by hand.
import { KINDS, kindByName } from '../kinds/index.ts';
import {
  backendModule,
  httpsTlsTerminationModule,
  ipRestrictionModule,
  mutualTlsModule,
  policyModule,
  tlsTerminationModule,
  trafficPolicyModule,
  HTTP_PHASES,
  TCP_PHASES,
  upstreamTermination,
} from './schema-modules.ts';
import {
  HEADER_NAME_PATTERN,
  description,
  enabled,
  hostports,
  kindSchema,
  metadata,
  ref,
  secret,
  stringMap,
  unsettable,
  type Schema,
} from './schema-parts.ts';
import { segments } from './pointer.ts';

const common = { description, metadata };
const edgeCommon = {
  ...common, hostports, backend: backendModule, ip_restriction: ipRestrictionModule, policy: policyModule,
  traffic_policy: trafficPolicyModule(TCP_PHASES),
};

const SOURCES: Record<string, Schema> = {
  TCPEdge: kindSchema('TCPEdge', 'A TCP edge: hostports with backend, IP restriction and traffic policy modules.', edgeCommon, []),
  TLSEdge: kindSchema(
    'TLSEdge',
    'A TLS edge: hostports with backend, IP restriction, mutual TLS, TLS termination and traffic policy modules.',
    { ...edgeCommon, mutual_tls: mutualTlsModule, tls_termination: tlsTerminationModule },
    [],
    upstreamTermination,
  ),
  HTTPSEdge: kindSchema(
    'HTTPSEdge',
    'An HTTPS edge; its routes are HTTPSEdgeRoute documents.',
    { ...common, hostports, mutual_tls: mutualTlsModule, tls_termination: httpsTlsTerminationModule },
    [],
  ),
  HTTPSEdgeRoute: kindSchema(
    'HTTPSEdgeRoute',
    'A route of an HTTPS edge, matching requests by path.',
    {
      edge_id: ref,
      match_type: { type: 'string', enum: ['exact_path', 'path_prefix'] },
      match: { type: 'string', minLength: 1, description: 'The path, or path prefix, requests must have.' },
      ...common,
      backend: backendModule,
      ip_restriction: ipRestrictionModule,
      traffic_policy: trafficPolicyModule(HTTP_PHASES),
    },
    ['edge_id', 'match_type', 'match'],
  ),
  IPPolicy: kindSchema('IPPolicy', 'An IP policy; its rules are IPPolicyRule documents.', common, []),
  IPPolicyRule: kindSchema(
    'IPPolicyRule',
    'Allows or denies one CIDR range in an IP policy.',
    {
      ...common,
      cidr: { type: 'string', format: 'cidr', description: 'An IPv4 or IPv6 range in CIDR notation (10.0.0.0/8), or an address (10.0.0.1 means 10.0.0.1/32).' },
      ip_policy_id: ref,
      action: { type: 'string', enum: ['allow', 'deny'] },
    },
    ['cidr', 'ip_policy_id', 'action'],
  ),
  TunnelGroupBackend: kindSchema(
    'TunnelGroupBackend',
    'A backend that sends traffic to the tunnels carrying the given labels.',
    { ...common, labels: stringMap('Labels a tunnel must carry, e.g. {app: web, dc: eu-1}.') },
    ['labels'],
  ),
  HTTPResponseBackend: kindSchema(
    'HTTPResponseBackend',
    'A backend that answers every request with a fixed response.',
    {
      ...common,
      body: secret('The response body: a string, {file: path} or {env: VARIABLE}.'),
      headers: stringMap('Response headers, name to value (names are compared lower-cased).', HEADER_NAME_PATTERN),
      status_code: { type: 'integer', minimum: 100, maximum: 599, description: 'HTTP status (default 200).' },
    },
    ['body'],
  ),
  TLSCertificate: kindSchema(
    'TLSCertificate',
    'An uploaded certificate chain (leaf first) with its private key.',
    {
      ...common,
      certificate_pem: secret('PEM chain, leaf first: a string, {file: path} or {env: VARIABLE}.'),
      private_key_pem: secret(
        'PEM private key. Use {env: VARIABLE} or {file: path} outside git; an inline key is accepted but discouraged.',
      ),
    },
    ['certificate_pem', 'private_key_pem'],
  ),
  CertificateAuthority: kindSchema(
    'CertificateAuthority',
    'A certificate authority, for mutual TLS.',
    { ...common, ca_pem: secret('PEM CA certificate(s): a string, {file: path} or {env: VARIABLE}.') },
    ['ca_pem'],
  ),
  EventSubscription: kindSchema(
    'EventSubscription',
    'An event subscription; its event types are an EventSources document.',
    {
      ...common,
      destination_ids: {
        type: 'array',
        items: { type: 'string', pattern: '^ed_[A-Za-z0-9]+$', errorMessage: 'must be an event destination id (ed_...)' },
        uniqueItems: true,
      },
    },
    [],
  ),
  RouteResponseHeaders: kindSchema(
    'RouteResponseHeaders',
    'The response-headers module of one HTTPS edge route.',
    {
      edge_id: ref,
      route_id: ref,
      enabled,
      add: unsettable(stringMap('Headers added to responses, name to value.', HEADER_NAME_PATTERN)),
      remove: unsettable({
        type: 'array',
        description: 'Header names removed from responses.',
        items: { type: 'string', pattern: HEADER_NAME_PATTERN, errorMessage: 'is not a valid header name' },
        uniqueItems: true,
      }),
    },
    ['edge_id', 'route_id'],
  ),
  EventSources: kindSchema(
    'EventSources',
    'The full set of event types one event subscription triggers on.',
    {
      subscription_id: ref,
      types: {
        type: 'array',
        // An empty set has no live counterpart (a subscription without sources lists none), so it could never
        // converge; to remove every source, delete the document.
        description: 'Event types, e.g. ip_policy_created.v0 (at least one; delete the document to remove every source).',
        minItems: 1,
        items: { type: 'string', pattern: '^[a-z][a-z0-9_]*\\.v[0-9]+$', errorMessage: 'is not an event type (like ip_policy_created.v0)' },
        uniqueItems: true,
      },
    },
    ['subscription_id', 'types'],
  ),
};

/** The schema node a pointer of the document leads to (`*` = the items of a list). */
function nodeAt(schema: Schema, pointer: string): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const seg of segments(pointer)) {
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
    const source = SOURCES[kind.kind];
    if (!source) throw new Error(`no manifest schema for kind ${kind.kind}`);
    // A JSON copy, not structuredClone: that would keep the sharing of `ref` between fields.
    const schema = JSON.parse(JSON.stringify(source)) as Schema;
    for (const refField of kind.refs) {
      const node = nodeAt(schema, refField.pointer);
      if (!node || node.type !== 'string') throw new Error(`${kind.kind}: ref ${refField.pointer} is not a string field of the schema`);
      node.description = refText(refField.kinds);
    }
    out.set(kind.kind, schema);
  }
  for (const k of Object.keys(SOURCES)) if (!kindByName(k)) throw new Error(`manifest schema for unknown kind ${k}`);
  return out;
}
