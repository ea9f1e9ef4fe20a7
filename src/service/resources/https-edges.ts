// /edges/https: HTTPS edges (description, metadata, hostports, mutual_tls, tls_termination without terminate_at),
// returned with their routes (oldest first, [] when none). Deleting an edge deletes its routes with it, as
// the public API does; nothing references a route, so nothing can dangle.
import { httpsEdge } from '../../contract/kinds/edges.ts';
import { deleteDoc } from '../collection.ts';
import { modulesOf } from '../modules/modules-by-kind.ts';
import { defineEdgeResource } from '../edge-resource.ts';
import { renderRoute, routesDef, routesOf } from './https-edge-routes.ts';

export default defineEdgeResource({
  kind: httpsEdge,
  modules: modulesOf(httpsEdge),
  renderExtra: async (doc, ctx) => ({ routes: (await routesOf(ctx, doc.id)).map((r) => renderRoute(r, ctx)) }),
  async beforeDelete(doc, ctx) {
    for (const route of await routesOf(ctx, doc.id)) await deleteDoc(ctx, routesDef, route);
  },
});
