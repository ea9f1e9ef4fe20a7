// KINDS: the one explicit list of resource kinds. Listed referenced-before-referencing for readability only;
// the engine derives the real order from each kind's declared refs.
import { certificateAuthority } from './certificate-authority.ts';
import { eventSources } from './event-sources.ts';
import { eventSubscription } from './event-subscription.ts';
import { httpResponseBackend } from './http-response-backend.ts';
import { httpsEdgeRoute } from './https-edge-route.ts';
import { httpsEdge } from './https-edge.ts';
import { ipPolicyRule } from './ip-policy-rule.ts';
import { ipPolicy } from './ip-policy.ts';
import type { ResourceKind } from './resource-kind.ts';
import { routeResponseHeaders } from './route-response-headers.ts';
import { tcpEdge } from './tcp-edge.ts';
import { tlsCertificate } from './tls-certificate.ts';
import { tlsEdge } from './tls-edge.ts';
import { tunnelGroupBackend } from './tunnel-group-backend.ts';

export const KINDS: readonly ResourceKind[] = [
  ipPolicy,
  ipPolicyRule,
  certificateAuthority,
  tlsCertificate,
  tunnelGroupBackend,
  httpResponseBackend,
  tcpEdge,
  tlsEdge,
  httpsEdge,
  httpsEdgeRoute,
  routeResponseHeaders,
  eventSubscription,
  eventSources,
];

const BY_NAME = new Map(KINDS.map((k) => [k.kind, k]));

export function kindByName(kind: string): ResourceKind | undefined {
  return BY_NAME.get(kind);
}
