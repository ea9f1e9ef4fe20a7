// Renames keep the resource: a document with `moved_from` takes over the live resource of its old name. The
// plan is one update (the marker, plus any field change) with no delete and no create, the live id stays, the
// next plan is clean with `moved_from` left in place, and resources that reference the renamed one (edges of a
// backend, rules and restrictions of an IP policy) follow without any change of their own.
import { describe, expect, it } from 'vitest';
import { groupByAddress, groupLines } from '../../src/render/wording.ts';
import { VIEWS } from '../../src/render/views.ts';
import { e2eForFile, idOf, listRaw, ownerOf, planLines } from './harness.ts';
import type { Doc } from './harness.ts';

const { e } = e2eForFile({ certs: false });

const header = (plan: Parameters<typeof groupByAddress>[0], address: string): string => {
  const group = groupByAddress(plan).find((g) => g.address === address)!;
  const first = groupLines(group)[0]!;
  return `${first.sign} ${first.text}`;
};

describe('moved_from', () => {
  it('an edge renamed keeps its id; a field change rides along; the old marker is gone', async () => {
    await e.converge([{ kind: 'TCPEdge', name: 'ssh', description: 'bastion', hostports: ['1.tcp.example.com:23001'] }]);
    const id = await idOf(e, '/edges/tcp', 'tcp_edges', 'TCPEdge/ssh');
    const renamed: Doc[] = [{ kind: 'TCPEdge', name: 'ssh-bastion', moved_from: 'ssh', description: 'the bastion', hostports: ['1.tcp.example.com:23001'] }];
    const { plan } = await e.plan(renamed);
    expect(planLines(plan)).toEqual(['update TCPEdge/ssh-bastion /description']);
    expect(plan.summary).toEqual({ create: 0, update: 1, replace: 0, delete: 0 });
    expect(header(plan, 'TCPEdge/ssh-bastion')).toBe('~ TCPEdge/ssh-bastion (moved from TCPEdge/ssh)');
    expect(JSON.parse(VIEWS.json({ color: false }).plan(plan)).resources[0]).toMatchObject({ address: 'TCPEdge/ssh-bastion', action: 'update', moved_from: 'TCPEdge/ssh', live_id: id });
    await e.converge(renamed); // moved_from left in place: the next plan is clean
    expect(await idOf(e, '/edges/tcp', 'tcp_edges', 'TCPEdge/ssh-bastion')).toBe(id);
    const owners = (await listRaw(e, '/edges/tcp', 'tcp_edges')).map((r) => ownerOf(r));
    expect(owners).not.toContain('TCPEdge/ssh');
    // Renamed back with the list form: again one update, no delete or create.
    const back: Doc[] = [{ kind: 'TCPEdge', name: 'ssh', moved_from: ['TCPEdge/ssh-bastion'], description: 'the bastion', hostports: ['1.tcp.example.com:23001'] }];
    expect(planLines((await e.plan(back)).plan)).toEqual(['update TCPEdge/ssh ']);
    await e.converge(back);
    expect(await idOf(e, '/edges/tcp', 'tcp_edges', 'TCPEdge/ssh')).toBe(id);
  });

  it('a backend referenced by edges: only the backend is updated, the edges keep pointing at it', async () => {
    const docs = (backend: Doc): Doc[] => [
      backend,
      { kind: 'TCPEdge', name: 'mqtt-a', hostports: ['1.tcp.example.com:23101'], backend: { backend_id: backend.name } },
      { kind: 'TLSEdge', name: 'mqtt-b', hostports: ['mqtt-b.example.com:443'], backend: { backend_id: backend.name } },
    ];
    await e.converge(docs({ kind: 'TunnelGroupBackend', name: 'mqtt', labels: { app: 'mqtt' } }));
    const id = await idOf(e, '/backends/tunnel_group', 'backends', 'TunnelGroupBackend/mqtt');
    const renamed = docs({ kind: 'TunnelGroupBackend', name: 'broker', moved_from: 'mqtt', labels: { app: 'mqtt' } });
    const { plan } = await e.plan(renamed);
    expect(planLines(plan)).toEqual(['update TunnelGroupBackend/broker ']);
    await e.converge(renamed);
    expect(await idOf(e, '/backends/tunnel_group', 'backends', 'TunnelGroupBackend/broker')).toBe(id);
    const edge = (await listRaw(e, '/edges/tcp', 'tcp_edges')).find((r) => ownerOf(r) === 'TCPEdge/mqtt-a')!;
    expect((edge.backend as { backend: { id: string } }).backend.id).toBe(id);
  });

  it('an IP policy with rules and an edge restricted by it: the rules follow the rename without delete or create', async () => {
    const docs = (policy: Doc): Doc[] => [
      policy,
      { kind: 'IPPolicyRule', name: 'office-v4', ip_policy_id: policy.name, cidr: '198.51.100.0/24', action: 'allow' },
      { kind: 'IPPolicyRule', name: 'office-v6', ip_policy_id: policy.name, cidr: '2001:db8::/32', action: 'allow' },
      { kind: 'TCPEdge', name: 'admin', hostports: ['1.tcp.example.com:23201'], ip_restriction: { ip_policy_ids: [policy.name] } },
    ];
    await e.converge(docs({ kind: 'IPPolicy', name: 'office', description: 'office' }));
    const id = await idOf(e, '/ip_policies', 'ip_policies', 'IPPolicy/office');
    const rules = (await listRaw(e, '/ip_policy_rules', 'ip_policy_rules')).map((r) => r.id).sort();
    const renamed = docs({ kind: 'IPPolicy', name: 'office-vpn', moved_from: 'office', description: 'office' });
    const { plan } = await e.plan(renamed);
    expect(planLines(plan)).toEqual(['update IPPolicy/office-vpn ']);
    await e.converge(renamed);
    expect(await idOf(e, '/ip_policies', 'ip_policies', 'IPPolicy/office-vpn')).toBe(id);
    expect((await listRaw(e, '/ip_policy_rules', 'ip_policy_rules')).map((r) => r.id).sort()).toEqual(rules);
  });

  it('a rename whose old resource is gone is a create; an old name still live next to the new one is deleted', async () => {
    const fresh: Doc[] = [{ kind: 'IPPolicy', name: 'lab', moved_from: 'nowhere' }];
    expect(planLines((await e.plan(fresh, 'moves-2')).plan)).toEqual(['create IPPolicy/lab']);
    await e.converge([...fresh, { kind: 'IPPolicy', name: 'old-lab' }], 'moves-2');
    // Both names live: the document's own resource is kept and the old one is an ordinary orphan.
    const both: Doc[] = [{ kind: 'IPPolicy', name: 'lab', moved_from: 'old-lab' }];
    expect(planLines((await e.plan(both, 'moves-2')).plan)).toEqual(['delete IPPolicy/old-lab']);
    await e.converge(both, 'moves-2');
  });
});
