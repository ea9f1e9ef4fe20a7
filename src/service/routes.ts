// The one explicit list of resource modules the service serves. Adding a resource = one import + one entry.
import type { ResourceModule } from './resource-def.ts';
import eventSources from './resources/event-sources.ts';
import eventSubscriptions from './resources/event-subscriptions.ts';
import httpResponseBackends from './resources/http-response-backends.ts';
import ipPolicies from './resources/ip-policies.ts';
import ipPolicyRules from './resources/ip-policy-rules.ts';
import tunnelGroupBackends from './resources/tunnel-group-backends.ts';
import tlsCertificates from './resources/tls-certificates.ts';
import certificateAuthorities from './resources/certificate-authorities.ts';
import tcpEdges from './resources/tcp-edges.ts';
import tlsEdges from './resources/tls-edges.ts';
import httpsEdges from './resources/https-edges.ts';
import httpsEdgeRoutes from './resources/https-edge-routes.ts';

export const RESOURCES: ResourceModule[] = [
  ipPolicies,
  ipPolicyRules,
  tunnelGroupBackends,
  httpResponseBackends,
  tlsCertificates,
  certificateAuthorities,
  eventSubscriptions,
  eventSources,
  tcpEdges,
  tlsEdges,
  httpsEdges,
  httpsEdgeRoutes,
];
