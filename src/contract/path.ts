// The API's path templates: a collection path names a child collection's parent as its one `:param`
// ('/edges/https/:edge_id/routes'). Both sides read templates only through these.

const PARAM = /:([a-z_]+)/;
const PARAMS = /:[a-z_]+/g;

/** One segment of a template: a literal, or the name of a `:param`. */
export type TemplateSegment = { literal: string; param: null } | { literal: null; param: string };

/** The one `:param` of a child collection's path (`/edges/https/:edge_id/routes` -> `edge_id`). */
export function parentParam(path: string): string | undefined {
  return PARAM.exec(path)?.[1];
}

/** The template with every `:param` replaced by `fill` (encoded): a concrete path, or a routing key. */
export function fillParams(path: string, fill: string): string {
  return path.replace(PARAMS, () => fill);
}

/** The collection path of a document: its parent's id put in place of the `:param`, encoded. */
export function collectionPath(path: string, parentId: string | null): string {
  return path.includes(':') ? fillParams(path, encodeURIComponent(parentId ?? '')) : path;
}

/** The segments of a template after its leading `/`: `/edges/https/:edge_id` -> edges, https, (edge_id). */
export function templateSegments(path: string): TemplateSegment[] {
  return path.split('/').slice(1).map((s) => (s.startsWith(':') ? { literal: null, param: s.slice(1) } : { literal: s, param: null }));
}

/** What matches the concrete paths of a template: each `:param` stands for one whole segment. */
export function templatePattern(path: string): RegExp {
  return new RegExp(`^${fillParams(path, '[^/]+')}$`);
}
