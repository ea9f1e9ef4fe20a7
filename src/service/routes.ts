// What the service serves: every kind of the contract. A kind the service does more for than its contract says
// (defaults on create, fields it computes, modules, sub-resources, checks across documents) has a resource module
// in resources/, listed here; every other kind is a plain collection, the five standard routes with responses
// as stored (collection.ts).
import { CONTRACT_KINDS } from '../contract/index.ts';
import { defineCollection } from './collection.ts';
import type { ResourceModule } from './resource-def.ts';
import eventSources from './resources/event-sources.ts';
import eventSubscriptions from './resources/event-subscriptions.ts';
import httpResponseBackends from './resources/http-response-backends.ts';
import ipPolicyRules from './resources/ip-policy-rules.ts';
import tunnelGroupBackends from './resources/tunnel-group-backends.ts';
import tlsCertificates from './resources/tls-certificates.ts';
import certificateAuthorities from './resources/certificate-authorities.ts';
import tcpEdges from './resources/tcp-edges.ts';
import tlsEdges from './resources/tls-edges.ts';
import httpsEdges from './resources/https-edges.ts';
import httpsEdgeRoutes from './resources/https-edge-routes.ts';

const MODULES: ResourceModule[] = [
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

export const RESOURCES: ResourceModule[] = [
  ...MODULES,
  ...CONTRACT_KINDS.filter((kind) => !MODULES.some((m) => m.kinds.includes(kind))).map((kind) => defineCollection({ kind })),
];
