// Resolved documents are checked with the contract's request-body schemas and rules, as the service will check
// the requests their kinds send: what a document schema cannot say is reported at the manifest value's position,
// before any request. References to resources that do not exist yet hold placeholder ids of their kind.
import { describe, expect, it } from 'vitest';
import { readDesiredState } from '../../src/manifest/read-desired.ts';
import { errorLines, writeTree, yaml } from './tree.ts';

const cases: { name: string; doc: string; lines: string[] }[] = [
  {
    name: 'a header value with a control character (header injection)',
    doc: yaml('kind: HTTPResponseBackend', 'name: b', 'body: hi', 'headers:', '  x-a: "one\\r\\nSet-Cookie: x"'),
    lines: ['m.yaml:5:8: HTTPResponseBackend/b: headers["x-a"]: header values must not contain control characters'],
  },
  {
    name: 'a route match that is not a path',
    doc: yaml(
      'kind: HTTPSEdge', 'name: www', '---',
      'kind: HTTPSEdgeRoute', 'name: r', 'edge_id: www', 'match_type: path_prefix', 'match: api',
    ),
    lines: ['m.yaml:8:8: HTTPSEdgeRoute/r: match: "api" must be a path starting with "/"'],
  },
  {
    name: 'one hostport twice in two spellings (the service compares without case)',
    doc: yaml('kind: TCPEdge', 'name: e', 'hostports: ["a.example.com:1", "A.Example.com:1"]'),
    lines: ['m.yaml:3:32: TCPEdge/e: hostports[1]: "A.Example.com:1" is listed twice'],
  },
  {
    name: 'an empty label name',
    doc: yaml('kind: TunnelGroupBackend', 'name: t', 'labels: {"": web}'),
    lines: ['m.yaml:3:9: TunnelGroupBackend/t: labels: keys must not be empty'],
  },
  {
    name: 'an event type the service does not take, at its item',
    doc: yaml('kind: EventSubscription', 'name: sub', '---', 'kind: EventSources', 'name: s', 'subscription_id: sub', 'types: [ip_policy_created.v0, Created.v1]'),
    lines: ['m.yaml:7:31: EventSources/s: types[1]: "Created.v1" is not an event type like ip_policy_created.v0'],
  },
  {
    name: 'a response header value of a route in another document',
    doc: yaml(
      'kind: HTTPSEdge', 'name: www', '---',
      'kind: HTTPSEdgeRoute', 'name: r', 'edge_id: www', 'match_type: path_prefix', 'match: /', '---',
      'kind: RouteResponseHeaders', 'name: h', 'edge_id: www', 'route_id: r', 'remove: [Server, x-powered-by]', 'add: {x-a: "\\u0000"}',
    ),
    lines: ['m.yaml:15:12: RouteResponseHeaders/h: add["x-a"]: header values must not contain control characters'],
  },
];

describe('the contract, after names are resolved', () => {
  it.each(cases)('$name', async ({ doc, lines }) => {
    expect(await errorLines({ 'm.yaml': doc })).toEqual(lines);
  });

  it('passes every document the contract takes, with placeholder ids for resources still to be created', async () => {
    const cwd = writeTree({
      'm.yaml': yaml(
        'kind: IPPolicy', 'name: a', '---', 'kind: IPPolicy', 'name: b', '---',
        'kind: TunnelGroupBackend', 'name: web', 'labels: {app: web}', '---',
        'kind: TCPEdge', 'name: e', 'hostports: ["a.example.com:1"]', 'backend: {backend_id: web}',
        'ip_restriction: {ip_policy_ids: [a, b, ipp_2abcdefghijklmnopqrstuvwxyz]}',
        'metadata: {team: net}',
        'traffic_policy: {value: {on_tcp_connect: [{actions: [{type: deny}]}]}}',
      ),
    });
    const state = await readDesiredState(['.'], { cwd, env: {} });
    expect(state.resources.map((r) => r.address)).toEqual(['IPPolicy/a', 'IPPolicy/b', 'TunnelGroupBackend/web', 'TCPEdge/e']);
  });

  it('does not report a field again that an earlier stage found wrong', async () => {
    const lines = await errorLines({ 'm.yaml': yaml('kind: HTTPResponseBackend', 'name: b', 'body: hi', 'headers: {"bad name": x}') });
    expect(lines).toEqual(['m.yaml:4:11: HTTPResponseBackend/b: headers: "bad name" is not a valid header name']);
  });
});
