// Edge modules: removing one from the manifest deletes it (DELETE on the module endpoint), adding one PUTs it
// whole, and both converge.
import { describe, expect, it } from 'vitest';
import { allKinds } from './fixtures.ts';
import { e2eForFile, edit, idOf, planLines } from './harness.ts';
import type { Doc } from './harness.ts';

const { e, certs } = e2eForFile({ converge: allKinds });

type Case = [label: string, address: string, change: (d: Doc) => void, expected: string[], check?: () => Promise<void>];

const cases: Case[] = [
  [
    'TCPEdge backend removed',
    'TCPEdge/ssh',
    (d) => delete d.backend,
    ['module-delete TCPEdge/ssh:backend /backend'],
    async () => {
      const id = await idOf(e, '/edges/tcp', 'tcp_edges', 'TCPEdge/ssh');
      expect((await e.http.get(`/edges/tcp/${id}`)).body.backend).toBeNull();
    },
  ],
  ['TCPEdge policy removed', 'TCPEdge/ssh', (d) => delete d.policy, ['module-delete TCPEdge/ssh:policy /policy']],
  ['TCPEdge two modules removed', 'TCPEdge/ssh', (d) => (delete d.ip_restriction, delete d.backend), ['module-delete TCPEdge/ssh:backend /backend', 'module-delete TCPEdge/ssh:ip_restriction /ip_restriction']],
  ['TLSEdge mutual_tls removed', 'TLSEdge/secure', (d) => delete d.mutual_tls, ['module-delete TLSEdge/secure:mutual_tls /mutual_tls']],
  ['TLSEdge tls_termination removed', 'TLSEdge/secure', (d) => delete d.tls_termination, ['module-delete TLSEdge/secure:tls_termination /tls_termination']],
  ['TLSEdge ip_restriction added', 'TLSEdge/passthrough', (d) => (d.ip_restriction = { ip_policy_ids: ['partners'] }), ['module-put TLSEdge/passthrough:ip_restriction /ip_restriction']],
  ['HTTPSEdge mutual_tls removed', 'HTTPSEdge/www', (d) => delete d.mutual_tls, ['module-delete HTTPSEdge/www:mutual_tls /mutual_tls']],
  ['HTTPSEdge tls_termination added', 'HTTPSEdge/shop', (d) => (d.tls_termination = { min_version: '1.3' }), ['module-put HTTPSEdge/shop:tls_termination /tls_termination']],
  ['HTTPSEdgeRoute ip_restriction removed', 'HTTPSEdgeRoute/root', (d) => delete d.ip_restriction, ['module-delete HTTPSEdgeRoute/root:ip_restriction /ip_restriction']],
  ['HTTPSEdgeRoute backend removed', 'HTTPSEdgeRoute/brew', (d) => delete d.backend, ['module-delete HTTPSEdgeRoute/brew:backend /backend']],
  ['module changed and description changed together', 'TCPEdge/ssh', (d) => ((d.description = 'x'), (d.backend = { backend_id: 'api' })), ['update TCPEdge/ssh /description', 'module-put TCPEdge/ssh:backend /backend/backend_id']],
];

describe('modules', () => {
  it.each(cases)('%s', async (_label, address, change, expected, check) => {
    const base = allKinds(certs);
    const changed = edit(base, address, change);
    const { plan } = await e.plan(changed);
    expect(planLines(plan)).toEqual(expected);
    expect(plan.summary).toEqual({ create: 0, update: 1, replace: 0, delete: 0 });
    await e.converge(changed);
    await check?.();
    await e.converge(base);
  });

  it('a response-headers document removed -> the route module is deleted; the route stays', async () => {
    const base = allKinds(certs);
    const changed = base.filter((d) => d.kind !== 'RouteResponseHeaders');
    const { plan } = await e.plan(changed);
    const [action] = plan.actions;
    expect(plan.actions).toHaveLength(1);
    expect(action).toMatchObject({ op: 'delete', kind: 'RouteResponseHeaders' });
    await e.converge(changed);
    const edge = await idOf(e, '/edges/https', 'https_edges', 'HTTPSEdge/www');
    const routes = (await e.http.get(`/edges/https/${edge}`)).body.routes as { match: string; response_headers: unknown }[];
    expect(routes.find((r) => r.match === '/')!.response_headers).toBeNull();
    await e.converge(base);
  });
});
