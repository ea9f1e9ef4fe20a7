// A TLS edge moving between terminating TLS upstream and at the edge in one apply. With upstream termination
// the service takes only backend and ip_restriction, so going upstream the other modules go before
// tls_termination changes, and going back tls_termination is put before policy and traffic_policy. One apply
// converges either way, one request at a time (the plan's order alone) or concurrently.
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/engine/plan-data.ts';
import { e2eForFile, listRaw, type Doc } from './harness.ts';

const { e } = e2eForFile({ certs: false });

const backend: Doc = { kind: 'TunnelGroupBackend', name: 'tls', labels: { app: 'tls' } };

const atEdge = (name: string, hostport: string): Doc[] => [backend, {
  kind: 'TLSEdge',
  name,
  hostports: [hostport],
  backend: { backend_id: 'tls' },
  tls_termination: { terminate_at: 'edge', min_version: '1.2' },
  policy: { inbound: [{ name: 'no-scanners', expressions: ["conn.client_ip == '203.0.113.9'"], actions: [{ type: 'deny' }] }] },
  traffic_policy: { value: { on_tcp_connect: [{ name: 'log', actions: [{ type: 'log', config: { metadata: { edge: name } } }] }] } },
}];

const upstream = (name: string, hostport: string): Doc[] => [backend, {
  kind: 'TLSEdge',
  name,
  hostports: [hostport],
  backend: { backend_id: 'tls' },
  tls_termination: { terminate_at: 'upstream' },
}];

/** The ids of `address`'s module actions, by module and op. */
function moduleActions(plan: Plan, address: string): Record<string, { id: string; dependsOn: string[] }> {
  return Object.fromEntries(plan.actions.filter((a) => a.address === address && a.module).map((a) => [`${a.op} ${a.module}`, a]));
}

async function liveEdge(name: string): Promise<Record<string, unknown>> {
  const edges = await listRaw(e, '/edges/tls', 'tls_edges');
  const edge = edges.find((x) => (x.metadata as string).includes(`"name":"TLSEdge/${name}"`));
  expect(edge).toBeDefined();
  return edge!;
}

describe('TLS termination moves with policy and traffic_policy', () => {
  for (const concurrency of [1, 8]) {
    it(`edge -> upstream -> edge in one apply each (concurrency ${concurrency})`, async () => {
      const name = `moves-${concurrency}`;
      const hostport = `moves-${concurrency}.example.com:443`;
      const address = `TLSEdge/${name}`;
      await e.converge(atEdge(name, hostport));

      const toUpstream = await e.plan(upstream(name, hostport));
      const up = moduleActions(toUpstream.plan, address);
      expect(Object.keys(up).sort()).toEqual(['module-delete policy', 'module-delete traffic_policy', 'module-put tls_termination']);
      expect(up['module-put tls_termination']!.dependsOn).toEqual(expect.arrayContaining([up['module-delete policy']!.id, up['module-delete traffic_policy']!.id]));
      await e.apply(upstream(name, hostport), undefined, { concurrency });
      expect(await e.plan(upstream(name, hostport)).then((c) => c.plan.actions)).toEqual([]);
      const passthrough = await liveEdge(name);
      expect(passthrough.tls_termination).toMatchObject({ terminate_at: 'upstream' });
      expect(passthrough.policy ?? null).toBeNull();
      expect(passthrough.traffic_policy ?? null).toBeNull();

      const toEdge = await e.plan(atEdge(name, hostport));
      const down = moduleActions(toEdge.plan, address);
      expect(Object.keys(down).sort()).toEqual(['module-put policy', 'module-put tls_termination', 'module-put traffic_policy']);
      expect(down['module-put policy']!.dependsOn).toContain(down['module-put tls_termination']!.id);
      expect(down['module-put traffic_policy']!.dependsOn).toContain(down['module-put tls_termination']!.id);
      await e.apply(atEdge(name, hostport), undefined, { concurrency });
      expect(await e.plan(atEdge(name, hostport)).then((c) => c.plan.actions)).toEqual([]);
      const terminating = await liveEdge(name);
      expect(terminating.tls_termination).toMatchObject({ terminate_at: 'edge', min_version: '1.2' });
      expect(JSON.parse((terminating.traffic_policy as { value: string }).value).on_tcp_connect[0].name).toBe('log');
      expect((terminating.policy as { inbound: unknown[] }).inbound).toHaveLength(1);
    });
  }
});
