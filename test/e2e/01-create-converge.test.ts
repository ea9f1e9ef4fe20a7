// Every kind: plan shows creates -> apply -> plan has no actions; what landed carries the marker and the
// user's metadata, and references point at the ids created in the same run.
import { describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { allKinds, LISTS } from './fixtures.ts';
import { e2eForFile, idOf, listRaw, planLines, STACK } from './harness.ts';

const { e, certs } = e2eForFile();

describe('create every kind, then converge', () => {
  it('the first plan creates every document, dependencies first', async () => {
    const docs = allKinds(certs);
    const { plan } = await e.plan(docs);
    expect(plan.summary).toEqual({ create: docs.length, update: 0, replace: 0, delete: 0 });
    expect(planLines(plan).sort()).toEqual(docs.map((d) => `create ${d.kind}/${d.name}`).sort());
    const order = plan.actions.map((a) => a.address);
    for (const a of plan.actions) for (const dep of a.dependsOn) expect(order.indexOf(dep.replace(/^create:/, ''))).toBeLessThan(order.indexOf(a.address));
    // Secrets never appear in what a user is shown.
    expect(JSON.stringify(plan.actions.map((a) => a.changes))).not.toContain(certs.leaf.keyPem.split('\n')[1]!);
  });

  it('apply, then the next plan is empty', async () => {
    const docs = allKinds(certs);
    const again = await e.converge(docs);
    expect(again.plan.summary).toEqual({ create: 0, update: 0, replace: 0, delete: 0 });
  });

  it('live resources carry the marker and the user metadata, and reference the created ids', async () => {
    for (const d of allKinds(certs)) {
      const list = LISTS[d.kind];
      if (!list) continue;
      const raw = (await listRaw(e, ...list)).find((r) => parseMetadata(r.metadata).marker?.name === `${d.kind}/${d.name}`);
      expect(raw, `${d.kind}/${d.name}`).toBeDefined();
      const parsed = parseMetadata(raw!.metadata);
      expect(parsed.marker).toEqual({ stack: STACK, name: `${d.kind}/${d.name}` });
      const { edgeops: _m, ...user } = parsed.user ?? {};
      expect(user).toEqual(d.metadata ?? {});
    }
    const office = await idOf(e, '/ip_policies', 'ip_policies', 'IPPolicy/office');
    const web = await idOf(e, '/backends/tunnel_group', 'backends', 'TunnelGroupBackend/web');
    const ssh = (await listRaw(e, '/edges/tcp', 'tcp_edges')).find((r) => parseMetadata(r.metadata).marker?.name === 'TCPEdge/ssh')!;
    expect((ssh.backend as { backend: { id: string } }).backend.id).toBe(web);
    expect((ssh.ip_restriction as { ip_policies: { id: string }[] }).ip_policies.map((p) => p.id)).toEqual([office]);
    const sub = await idOf(e, '/event_subscriptions', 'event_subscriptions', 'EventSubscription/audit');
    const sources = await e.http.get(`/event_subscriptions/${sub}/sources`);
    expect((sources.body.sources as { type: string }[]).map((s) => s.type).sort()).toEqual(['ip_policy_created.v0', 'ip_policy_updated.v0']);
  });

  it('applying the same manifests again changes nothing', async () => {
    const before = await Promise.all(Object.values(LISTS).map((l) => listRaw(e, ...l)));
    const { result } = await e.apply(allKinds(certs));
    expect(result.results).toEqual([]);
    const after = await Promise.all(Object.values(LISTS).map((l) => listRaw(e, ...l)));
    expect(after).toEqual(before);
  });
});
