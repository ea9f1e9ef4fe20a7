// Deleting documents deletes the resources, dependents first (the service answers 409 for a referenced
// resource, so a wrong order fails the apply).
import { describe, expect, it } from 'vitest';
import { allKinds, LISTS } from './fixtures.ts';
import { e2eForFile, edit, listRaw, ownerOf, planLines, without } from './harness.ts';

const { e, certs } = e2eForFile();

const managed = async (): Promise<string[]> => {
  const lists = await Promise.all(Object.values(LISTS).map((l) => listRaw(e, ...l)));
  return lists.flat().map((r) => ownerOf(r)).filter((a): a is string => a !== undefined).sort();
};

describe('delete', () => {
  it('a policy, its rules and an edge using it go; the others are repointed first', async () => {
    const base = allKinds(certs);
    await e.converge(base);
    let changed = without(base, 'IPPolicy/office', 'IPPolicyRule/office-v4', 'IPPolicyRule/office-v6', 'TCPEdge/ssh');
    changed = edit(changed, 'TLSEdge/secure', (d) => (d.ip_restriction = { ip_policy_ids: ['partners'] }));
    changed = edit(changed, 'HTTPSEdgeRoute/root', (d) => (d.ip_restriction = { ip_policy_ids: ['partners'] }));
    const { plan } = await e.plan(changed);
    expect(planLines(plan).sort()).toEqual([
      'delete IPPolicy/office',
      'delete IPPolicyRule/office-v4',
      'delete IPPolicyRule/office-v6',
      'delete TCPEdge/ssh',
      'module-put HTTPSEdgeRoute/root:ip_restriction /ip_restriction/ip_policy_ids',
      'module-put TLSEdge/secure:ip_restriction /ip_restriction/ip_policy_ids',
    ]);
    const office = plan.actions.find((a) => a.address === 'IPPolicy/office')!;
    expect(office.dependsOn).toEqual([
      'delete:IPPolicyRule/office-v4',
      'delete:IPPolicyRule/office-v6',
      'delete:TCPEdge/ssh',
      'module-put:HTTPSEdgeRoute/root:ip_restriction',
      'module-put:TLSEdge/secure:ip_restriction',
    ]);
    const ids = plan.actions.map((a) => a.id);
    expect(ids.indexOf('delete:IPPolicy/office')).toBe(ids.length - 1);
    expect(plan.summary).toEqual({ create: 0, update: 2, replace: 0, delete: 4 });
    await e.converge(changed);
    expect(await managed()).not.toContain('IPPolicy/office');
  });

  it('an HTTPS edge with its routes and headers: children first', async () => {
    const base = allKinds(certs);
    await e.converge(base);
    const changed = without(base, 'HTTPSEdge/www', 'HTTPSEdgeRoute/root', 'HTTPSEdgeRoute/brew', 'RouteResponseHeaders/root-headers');
    const { plan } = await e.plan(changed);
    const ids = plan.actions.map((a) => a.id);
    expect(ids.indexOf('delete:RouteResponseHeaders/root-headers')).toBe(-1); // a natural-key item has no name of its own live
    const headers = plan.actions.find((a) => a.kind === 'RouteResponseHeaders')!;
    expect(headers.op).toBe('delete');
    const root = plan.actions.find((a) => a.address === 'HTTPSEdgeRoute/root')!;
    expect(root.dependsOn).toEqual([headers.id]);
    expect(plan.actions.find((a) => a.address === 'HTTPSEdge/www')!.dependsOn).toEqual([headers.id, 'delete:HTTPSEdgeRoute/brew', 'delete:HTTPSEdgeRoute/root'].sort());
    await e.converge(changed);
  });

  it('every document removed: everything this stack manages is deleted', async () => {
    const base = allKinds(certs);
    await e.converge(base);
    const { plan } = await e.plan([]);
    expect(plan.summary.delete).toBe(base.length);
    expect(plan.warnings).toEqual([expect.stringContaining(`deletes ${base.length} resources, more than max_deletes (10)`)]);
    await e.converge([]);
    expect(await managed()).toEqual([]);
  });
});
