// /edges/tcp: TCP edges with the backend, ip_restriction, policy and traffic_policy modules (and their module endpoints).
import { tcpEdge } from '../../contract/kinds/edges.ts';
import { modulesOf } from '../modules/modules-by-kind.ts';
import { defineEdgeResource } from '../edge-resource.ts';

export default defineEdgeResource({ kind: tcpEdge, modules: modulesOf(tcpEdge) });
