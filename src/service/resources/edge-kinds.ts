// The KindDefs of the four edge kinds, in one file so that HTTPS edges and their routes can name each other
// without an import cycle.
import type { KindDef } from '../resource-def.ts';

export const tcpEdgeKind: KindDef = {
  kind: 'tcp_edge', prefix: 'edgtcp', label: 'TCP edge', path: '/edges/tcp', notFound: 'ERR_TCP_EDGE_NOT_FOUND',
};

export const tlsEdgeKind: KindDef = {
  kind: 'tls_edge', prefix: 'edgtls', label: 'TLS edge', path: '/edges/tls', notFound: 'ERR_TLS_EDGE_NOT_FOUND',
};

export const httpsEdgeKind: KindDef = {
  kind: 'https_edge', prefix: 'edghts', label: 'HTTPS edge', path: '/edges/https', notFound: 'ERR_HTTPS_EDGE_NOT_FOUND',
};

export const httpsEdgeRouteKind: KindDef = {
  kind: 'https_edge_route',
  prefix: 'edghtsrt',
  label: 'HTTPS edge route',
  path: '/edges/https/:edge_id/routes',
  notFound: 'ERR_HTTPS_EDGE_ROUTE_NOT_FOUND',
};
