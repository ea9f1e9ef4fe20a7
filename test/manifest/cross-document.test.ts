// Checks that need several documents or a whole mapping at once, reported by validate with exact positions
// (no API call): one natural-key document per parent, a route's headers on that route's edge, header names
// that differ only in case, null for "unset" in modules, and the wording of bad names.
import { describe, expect, it } from 'vitest';
import { errorLines, readTree, yaml } from './tree.ts';

const site = yaml(
  'kind: HTTPSEdge', 'name: www', 'hostports: ["www.example.com:443"]',
  '---', 'kind: HTTPSEdge', 'name: shop', 'hostports: ["shop.example.com:443"]',
  '---', 'kind: HTTPSEdgeRoute', 'name: root', 'edge_id: www', 'match_type: path_prefix', 'match: /',
);
const headers = (name: string, edge: string, route: string, ...more: string[]) =>
  yaml('kind: RouteResponseHeaders', `name: ${name}`, `edge_id: ${edge}`, `route_id: ${route}`, ...more);

describe('one natural-key document per parent', () => {
  it('reports a second RouteResponseHeaders for a named route at its route_id, naming the first', async () => {
    expect(await errorLines({
      'site.yaml': site,
      'a.yaml': headers('first', 'www', 'root', 'add: {x-a: "1"}'),
      'b.yaml': yaml('kind: IPPolicy', 'name: p', '---') + headers('second', 'www', 'root', 'remove: [server]'),
    })).toEqual([
      'b.yaml:7:11: RouteResponseHeaders/second: route_id: the RouteResponseHeaders of HTTPSEdgeRoute/root are already managed by RouteResponseHeaders/first (a.yaml:4:11); one document states them all, so merge the two',
    ]);
  });

  it('reports two documents naming one route by the same literal id', async () => {
    expect(await errorLines({
      'a.yaml': headers('first', 'edghts_1', 'edghtsrt_9') + '---\n' + headers('second', 'edghts_1', 'edghtsrt_9'),
    })).toEqual([
      'a.yaml:9:11: RouteResponseHeaders/second: route_id: the RouteResponseHeaders of edghtsrt_9 are already managed by RouteResponseHeaders/first (a.yaml:4:11); one document states them all, so merge the two',
    ]);
  });

  it('reports a second EventSources of one subscription', async () => {
    expect(await errorLines({
      'a.yaml': yaml(
        'kind: EventSubscription', 'name: audit',
        '---', 'kind: EventSources', 'name: one', 'subscription_id: audit', 'types: [ip_policy_created.v0]',
        '---', 'kind: EventSources', 'name: two', 'subscription_id: audit', 'types: [ip_policy_deleted.v0]',
        '---', 'kind: EventSources', 'name: three', 'subscription_id: esb_1', 'types: [ip_policy_deleted.v0]',
        '---', 'kind: EventSources', 'name: four', 'subscription_id: esb_1', 'types: [ip_policy_updated.v0]',
      ),
    })).toEqual([
      'a.yaml:11:18: EventSources/two: subscription_id: the EventSources of EventSubscription/audit are already managed by EventSources/one (a.yaml:6:18); one document states them all, so merge the two',
      'a.yaml:21:18: EventSources/four: subscription_id: the EventSources of esb_1 are already managed by EventSources/three (a.yaml:16:18); one document states them all, so merge the two',
    ]);
  });

  it('accepts one document per parent, and a name and a literal id that validate cannot compare', async () => {
    const state = await readTree({
      'site.yaml': site,
      'h.yaml': headers('by-name', 'www', 'root') + '---\n' + headers('by-id', 'edghts_1', 'edghtsrt_1'),
    });
    expect(state.resources.filter((r) => r.kind === 'RouteResponseHeaders').map((r) => r.name)).toEqual(['by-name', 'by-id']);
  });
});

describe("a route's headers on that route's edge", () => {
  it('reports an edge_id naming another edge than the route does, with the route’s edge and its position', async () => {
    expect(await errorLines({ 'site.yaml': site, 'h.yaml': headers('h', 'shop', 'root') })).toEqual([
      'h.yaml:3:10: RouteResponseHeaders/h: edge_id: HTTPSEdge/shop is not the edge_id of HTTPSEdgeRoute/root, which is HTTPSEdge/www (site.yaml:11:10); they must name the same resource',
    ]);
  });

  it('compares literal ids too, and leaves a name against a literal id to the service', async () => {
    const route = yaml('kind: HTTPSEdgeRoute', 'name: api', 'edge_id: edghts_1', 'match_type: exact_path', 'match: /api');
    expect(await errorLines({ 'r.yaml': route, 'h.yaml': headers('h', 'edghts_2', 'api') })).toEqual([
      'h.yaml:3:10: RouteResponseHeaders/h: edge_id: edghts_2 is not the edge_id of HTTPSEdgeRoute/api, which is edghts_1 (r.yaml:3:10); they must name the same resource',
    ]);
    await expect(readTree({ 'site.yaml': site, 'h.yaml': headers('h', 'edghts_1', 'root') })).resolves.toBeDefined();
  });
});

describe('header names ignore case', () => {
  it('reports names differing only in case in HTTPResponseBackend headers and RouteResponseHeaders add and remove', async () => {
    expect(await errorLines({
      'site.yaml': site,
      'b.yaml': yaml('kind: HTTPResponseBackend', 'name: hr', 'body: x', 'headers: {Content-Type: a, X-Tea: b, content-type: c}'),
      'h.yaml': headers('h', 'www', 'root', 'add: {X-Frame-Options: DENY, x-frame-options: SAMEORIGIN}', 'remove: [Server, x-powered-by, SERVER]'),
    })).toEqual([
      'b.yaml:4:38: HTTPResponseBackend/hr: headers: "Content-Type" and "content-type" are the same header (header names ignore case)',
      'h.yaml:5:30: RouteResponseHeaders/h: add: "X-Frame-Options" and "x-frame-options" are the same header (header names ignore case)',
      'h.yaml:6:32: RouteResponseHeaders/h: remove: "Server" and "SERVER" are the same header (header names ignore case)',
    ]);
  });

  it('leaves exact repeats in remove to the schema, reported once', async () => {
    expect(await errorLines({ 'site.yaml': site, 'h.yaml': headers('h', 'www', 'root', 'remove: [server, server]') })).toEqual([
      'h.yaml:5:9: RouteResponseHeaders/h: remove: items 0 and 1 are the same',
    ]);
  });
});

describe('null for "unset"', () => {
  it('accepts null for optional module fields and modules, as absent', async () => {
    const state = await readTree({
      'e.yaml': yaml(
        'kind: TLSEdge', 'name: pass', 'hostports: ["pass.example.com:443"]',
        'tls_termination: {terminate_at: upstream, min_version: null}', 'mutual_tls: null', 'policy: null',
        '---', 'kind: TLSEdge', 'name: term', 'hostports: ["term.example.com:443"]',
        'backend: {enabled: null, backend_id: bkdtg_1}', 'tls_termination: {enabled: null, terminate_at: edge, min_version: null}',
        'policy: {inbound: [{name: null, expressions: null, actions: [{type: deny, config: null}]}], outbound: null}',
        '---', 'kind: HTTPSEdge', 'name: web', 'tls_termination: {min_version: null}', 'mutual_tls: null',
        '---', 'kind: RouteResponseHeaders', 'name: h', 'edge_id: web', 'route_id: edghtsrt_1', 'enabled: null', 'add: null', 'remove: null',
      ),
    });
    expect(state.resources.map((r) => r.spec)).toEqual([
      { hostports: ['pass.example.com:443'], tls_termination: { terminate_at: 'upstream' } },
      {
        hostports: ['term.example.com:443'],
        backend: { backend_id: 'bkdtg_1' },
        tls_termination: { terminate_at: 'edge' },
        policy: { inbound: [{ actions: [{ type: 'deny' }] }] },
      },
      { tls_termination: {} },
      { edge_id: { $ref: 'HTTPSEdge/web' }, route_id: 'edghtsrt_1' },
    ]);
  });

  it('still refuses a set min_version with upstream termination, and null where a value is required', async () => {
    expect(await errorLines({
      'e.yaml': yaml(
        'kind: TLSEdge', 'name: pass', 'tls_termination: {terminate_at: upstream, min_version: "1.2"}', 'backend: {backend_id: null}',
        '---', 'kind: TLSEdge', 'name: t', 'tls_termination: {min_version: "1.1"}', 'hostports: null', 'description: null',
      ),
    })).toEqual([
      'e.yaml:3:56: TLSEdge/pass: tls_termination.min_version: must be unset when terminate_at is upstream',
      'e.yaml:4:23: TLSEdge/pass: backend.backend_id: must be a string',
      'e.yaml:9:12: TLSEdge/t: hostports: must be a list',
      'e.yaml:10:14: TLSEdge/t: description: must be a string',
    ]);
  });

  it('keeps the messages of values that are not null', async () => {
    expect(await errorLines({
      'e.yaml': yaml('kind: TLSEdge', 'name: t', 'tls_termination: {terminate_at: edge, min_version: 1.2, enabled: "yes"}'),
    })).toEqual([
      'e.yaml:3:52: TLSEdge/t: tls_termination.min_version: must be one of 1.0, 1.1, 1.2, 1.3 (put it in quotes)',
      'e.yaml:3:66: TLSEdge/t: tls_termination.enabled: must be true or false',
    ]);
  });
});

describe('bad names', () => {
  it('names upper case as well as "_", and any other problem', async () => {
    expect(await errorLines({
      'm.yaml': yaml('kind: IPPolicy', 'name: Bad_Name', '---', 'kind: IPPolicy', 'name: bad_name', '---', 'kind: IPPolicy', 'name: _bad'),
    })).toEqual([
      'm.yaml:2:7: IPPolicy/Bad_Name: name "Bad_Name" must not contain "_" (a value with "_" is read as a literal id) or upper-case letters',
      'm.yaml:5:7: IPPolicy/bad_name: name "bad_name" must not contain "_" (a value with "_" is read as a literal id)',
      'm.yaml:8:7: IPPolicy/_bad: name "_bad" must not contain "_" (a value with "_" is read as a literal id), and must be lower-case letters, digits and "-", at most 64 characters, starting and ending with a letter or digit',
    ]);
  });
});
