// /edges/tls: TLS edges, which add mutual_tls and tls_termination to the TCP edge's modules. With
// tls_termination.terminate_at = upstream only backend and ip_restriction may be set: a rule of the contract
// (upstreamTermination), held for the merged document of every write (create, PATCH, module PUT).
import { tlsEdge } from '../../contract/kinds/edges.ts';
import { modulesOf } from '../modules/modules-by-kind.ts';
import { defineEdgeResource } from '../edge-resource.ts';

export default defineEdgeResource({ kind: tlsEdge, modules: modulesOf(tlsEdge) });
