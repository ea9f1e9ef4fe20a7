// Immutable fields: the plan shows a replace with its reason; apply creates the new resource, repoints the
// dependents, then deletes the old one (the service refuses to delete a referenced resource, so a wrong order
// fails the apply).
import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../src/engine/plan-data.ts';
import { allKinds } from './fixtures.ts';
import { e2eForFile, edit, idOf, listRaw, ownerOf, planLines } from './harness.ts';

const { e, certs } = e2eForFile();

const doneOrder = (events: ApplyEvent[]): string[] => events.filter((ev) => ev.type === 'done').map((ev) => ev.action.id);

describe('replace', () => {
  it('CertificateAuthority ca_pem: new CA, TLS and HTTPS edges repointed, old CA deleted', async () => {
    const base = allKinds(certs);
    await e.converge(base);
    const oldCa = await idOf(e, '/certificate_authorities', 'certificate_authorities', 'CertificateAuthority/clients');
    const changed = edit(base, 'CertificateAuthority/clients', (d) => (d.ca_pem = certs.ca2.certPem));
    const { plan } = await e.plan(changed);
    expect(planLines(plan)).toEqual([
      'replace CertificateAuthority/clients /ca_pem',
      'module-put HTTPSEdge/www:mutual_tls /mutual_tls/certificate_authority_ids',
      'module-put TLSEdge/secure:mutual_tls /mutual_tls/certificate_authority_ids',
    ]);
    const replace = plan.actions[0]!;
    expect(replace.reason).toBe('ca_pem cannot be updated');
    expect(replace.deleteDependsOn).toEqual(['module-put:HTTPSEdge/www:mutual_tls', 'module-put:TLSEdge/secure:mutual_tls']);
    expect(plan.actions[1]!.changes[0]!.knownAfterApply).toBe(true);
    expect(plan.summary).toEqual({ create: 0, update: 2, replace: 1, delete: 0 });

    const events: ApplyEvent[] = [];
    await e.apply(changed, undefined, { events });
    const done = doneOrder(events);
    expect(done.indexOf('module-put:TLSEdge/secure:mutual_tls')).toBeLessThan(done.indexOf('replace:CertificateAuthority/clients'));
    expect(done.indexOf('module-put:HTTPSEdge/www:mutual_tls')).toBeLessThan(done.indexOf('replace:CertificateAuthority/clients'));

    const newCa = await idOf(e, '/certificate_authorities', 'certificate_authorities', 'CertificateAuthority/clients');
    expect(newCa).not.toBe(oldCa);
    expect((await e.http.get(`/certificate_authorities/${oldCa}`)).status).toBe(404);
    const tls = await idOf(e, '/edges/tls', 'tls_edges', 'TLSEdge/secure');
    const mtls = (await e.http.get(`/edges/tls/${tls}`)).body.mutual_tls as { certificate_authorities: { id: string }[] };
    expect(mtls.certificate_authorities.map((c) => c.id)).toEqual([newCa]);
    expect(planLines((await e.plan(changed)).plan)).toEqual([]);
  });

  it('IPPolicyRule action: replaced by a rule with a new id', async () => {
    const base = allKinds(certs);
    await e.converge(base);
    const oldRule = await idOf(e, '/ip_policy_rules', 'ip_policy_rules', 'IPPolicyRule/office-v4');
    const changed = edit(base, 'IPPolicyRule/office-v4', (d) => ((d.action = 'deny'), (d.description = 'now denied')));
    const { plan } = await e.plan(changed);
    expect(planLines(plan)).toEqual(['replace IPPolicyRule/office-v4 /action,/description']);
    expect(plan.actions[0]!.reason).toBe('action cannot be updated');
    await e.converge(changed);
    const rules = (await listRaw(e, '/ip_policy_rules', 'ip_policy_rules')).filter((r) => ownerOf(r) === 'IPPolicyRule/office-v4');
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ action: 'deny', description: 'now denied' });
    expect(rules[0]!.id).not.toBe(oldRule);
  });

  it('IPPolicyRule ip_policy_id: moved to another policy by replace', async () => {
    const base = allKinds(certs);
    await e.converge(base);
    const changed = edit(base, 'IPPolicyRule/office-v6', (d) => (d.ip_policy_id = 'partners'));
    const { plan } = await e.plan(changed);
    expect(planLines(plan)).toEqual(['replace IPPolicyRule/office-v6 /ip_policy_id']);
    await e.converge(changed);
    const partners = await idOf(e, '/ip_policies', 'ip_policies', 'IPPolicy/partners');
    const rule = (await listRaw(e, '/ip_policy_rules', 'ip_policy_rules')).find((r) => ownerOf(r) === 'IPPolicyRule/office-v6')!;
    expect((rule.ip_policy as { id: string }).id).toBe(partners);
  });

  it('TLSCertificate certificate_pem: replaced, the private key never shown', async () => {
    const base = allKinds(certs);
    await e.converge(base);
    const changed = edit(base, 'TLSCertificate/wild', (d) => ((d.certificate_pem = certs.leaf2.chainPem), (d.private_key_pem = certs.leaf2.keyPem)));
    const { plan } = await e.plan(changed);
    expect(planLines(plan)).toEqual(['replace TLSCertificate/wild /certificate_pem']);
    const shown = JSON.stringify(plan.actions.map((a) => a.changes));
    for (const line of certs.leaf2.keyPem.split('\n').filter((l) => l.length > 20)) expect(shown).not.toContain(line);
    await e.converge(changed);
  });

  it('HTTPSEdgeRoute edge_id: the route moves edges, its response headers follow', async () => {
    const base = allKinds(certs);
    await e.converge(base);
    const changed = edit(edit(base, 'HTTPSEdgeRoute/root', (d) => (d.edge_id = 'shop')), 'RouteResponseHeaders/root-headers', (d) => (d.edge_id = 'shop'));
    const { plan } = await e.plan(changed);
    const lines = planLines(plan);
    expect(lines).toContain('replace HTTPSEdgeRoute/root /edge_id');
    expect(lines).toContain('create RouteResponseHeaders/root-headers');
    expect(lines.filter((l) => l.startsWith('delete RouteResponseHeaders/'))).toHaveLength(1);
    await e.converge(changed);
    const shop = await idOf(e, '/edges/https', 'https_edges', 'HTTPSEdge/shop');
    const routes = (await e.http.get(`/edges/https/${shop}`)).body.routes as { match: string; response_headers: { add: object } | null }[];
    expect(routes.find((r) => r.match === '/')!.response_headers!.add).toEqual({ 'x-frame-options': 'DENY' });
    const www = await idOf(e, '/edges/https', 'https_edges', 'HTTPSEdge/www');
    expect(((await e.http.get(`/edges/https/${www}`)).body.routes as { match: string }[]).map((r) => r.match)).toEqual(['/brew']);
  });
});
