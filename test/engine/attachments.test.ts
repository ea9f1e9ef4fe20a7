// Resources outside the stack attached to its managed ones, on the fake kinds: found from the lists alone,
// warned about by the plan, reported by drift, deleted (the unmarked parts) when the stack is authoritative for
// its children; and a delete or replacement of what they reference is a plan error naming them, also in
// apply's pre-check, from the lists it reads while the manifests load.
import { describe, expect, it } from 'vitest';
import { planWithAdoption } from '../../src/engine/adopt-plan.ts';
import { runAll } from '../../src/pace.ts';
import { attachmentWarning, findAttachments } from '../../src/engine/attachments.ts';
import { driftReport } from '../../src/engine/drift.ts';
import { foreignReferenceErrors } from '../../src/engine/foreign-references.ts';
import { fetchLive } from '../../src/engine/live.ts';
import { StepGraph } from '../../src/engine/graph.ts';
import { precheckForeignReferences } from '../../src/engine/reference-precheck.ts';
import { formatIssue } from '../../src/errors.ts';
import type { DesiredResource, ProjectConfig } from '../../src/manifest/document.ts';
import { fakeWorld, marked, nullApi, ref, res, state } from './fakes.ts';

/** Pol/office managed by stack s with one managed rule; a rule added by hand; another stack's edge using the policy. */
function world() {
  const w = fakeWorld();
  const office = w.store.seed('Pol', 'pol_', { metadata: marked('s', 'Pol/office') });
  const lan = w.store.seed('Rule', 'rul_', { pol_id: office, cidr: '10.0.0.0/8', action: 'allow', metadata: marked('s', 'Rule/lan') });
  const hand = w.store.seed('Rule', 'rul_', { pol_id: office, cidr: '0.0.0.0/0', action: 'allow' });
  const theirs = w.store.seed('Edge', 'edg_', { ip: { pol_ids: [office] }, metadata: marked('other', 'Edge/ssh') });
  const elsewhere = w.store.seed('Pol', 'pol_', { description: 'not ours' });
  w.store.seed('Rule', 'rul_', { pol_id: elsewhere, cidr: '1.0.0.0/8', action: 'deny' });
  return { w, ids: { office, lan, hand, theirs } };
}

const docs = (withPolicy = true): DesiredResource[] => [
  res('Back/keep', {}),
  ...(withPolicy ? [res('Pol/office', {}), res('Rule/lan', { pol_id: ref('Pol/office'), cidr: '10.0.0.0/8', action: 'allow' })] : []),
];

async function planOf(w: ReturnType<typeof fakeWorld>, resources: DesiredResource[], config: ProjectConfig = {}) {
  const desired = state(resources, config);
  const { plan, live } = runAll(planWithAdoption({ kinds: w.kinds, desired, live: await fetchLive(w.kinds, nullApi), stack: 's', adopt: false }));
  return { desired, live, plan };
}

describe('attachments', () => {
  it('are the parts and referrers of managed resources that the stack does not manage, once each', async () => {
    const { w, ids } = world();
    const found = findAttachments(w.kinds, await fetchLive(w.kinds, nullApi), 's');
    expect(found).toEqual([
      { kind: 'Rule', id: ids.hand, summary: '', relation: 'part', field: 'pol_id', target: { address: 'Pol/office', id: ids.office }, noun: 'Rule resources' },
      { kind: 'Edge', id: ids.theirs, summary: '', owner: { stack: 'other', name: 'Edge/ssh' }, relation: 'reference', field: 'ip.pol_ids', target: { address: 'Pol/office', id: ids.office } },
    ]);
  });

  it('are warned about by the plan and reported by drift as unmanaged, which is drift even with no action', async () => {
    const { w, ids } = world();
    const { plan } = await planOf(w, docs());
    expect(plan.actions.filter((a) => a.address !== 'Back/keep')).toEqual([]);
    expect(plan.warnings).toEqual([
      `unmanaged Rule ${ids.hand} is one of the Rule resources of Pol/office (pol_id): apply leaves it (\`authoritative: children\` in edgeops.yaml makes apply delete it)`,
      "Edge/ssh (stack other) references Pol/office (ip.pol_ids): apply leaves it (another stack's resource is never changed)",
    ]);
    const report = driftReport({ ...plan, actions: [] });
    expect(report.inSync).toBe(false);
    expect(report.warnings).toEqual([]);
    expect(report.summary.unmanaged).toBe(2);
    expect(report.resources.map((r) => [r.address, r.label, r.apply, r.findings.map((f) => [f.direction, f.action, f.attachment?.target.address])])).toEqual([
      [`Rule/${ids.hand}`, 'unmanaged Rule', 'none', [['unmanaged', 'none', 'Pol/office']]],
      [`Edge/${ids.theirs}`, 'Edge/ssh (stack other)', 'none', [['unmanaged', 'none', 'Pol/office']]],
    ]);
  });

  it('with authoritative: children, unmarked parts are deleted with their reason, before their parent; other stacks are only reported', async () => {
    const { w, ids } = world();
    const { plan } = await planOf(w, docs(false), { authoritative: 'children' });
    const prune = plan.actions.find((a) => a.liveId === ids.hand)!;
    expect(prune).toMatchObject({ op: 'delete', address: `Rule/${ids.hand}`, label: 'unmanaged Rule', reason: 'not in the manifests; the stack is authoritative for the Rule resources of Pol/office' });
    const policyDelete = plan.actions.find((a) => a.liveId === ids.office)!;
    expect(new StepGraph(plan.actions).reaches(policyDelete.id, prune.id)).toBe(true);
    expect(plan.attachments?.map((a) => a.id)).toEqual([ids.theirs]);
    expect(plan.warnings).toContain(attachmentWarning(plan.attachments![0]!));
    expect(driftReport(plan).resources.find((r) => r.liveId === ids.hand)).toMatchObject({ apply: 'delete', findings: [{ direction: 'unmanaged', action: 'delete' }] });
    // The other stack's edge still uses the policy the plan deletes.
    expect(plan.errors).toBeUndefined();
  });
});

describe('references from outside the stack to what a plan deletes or replaces', () => {
  it('are plan errors naming the referrer, by Kind/name and stack or by id, without a position for a delete', async () => {
    const { w, ids } = world();
    const { desired, live, plan } = await planOf(w, docs(false));
    const errors = foreignReferenceErrors(w.kinds, desired, live, 's', plan.actions);
    const refused = 'and the service refuses to delete a resource still referenced (409 ERR_RESOURCE_IN_USE)';
    expect(errors.map(formatIssue)).toEqual([
      `Pol/office: this plan deletes it, but the unmanaged Rule ${ids.hand} references it (pol_id), ${refused}: delete it there first, or set \`authoritative: children\` in edgeops.yaml so that apply deletes it`,
      `Pol/office: this plan deletes it, but Edge/ssh (stack other) references it (ip.pol_ids), ${refused}: remove the reference in stack other first`,
    ]);
    expect(errors[0]!.pos).toEqual({ file: '', line: 0, col: 0 });
  });

  it("are no error when the plan deletes the referrer itself, or the reference is this stack's", async () => {
    const { w } = world();
    const { desired, live, plan } = await planOf(w, docs(false), { authoritative: 'children' });
    expect(foreignReferenceErrors(w.kinds, desired, live, 's', plan.actions).map((e) => e.message)).toEqual([
      expect.stringContaining('Edge/ssh (stack other)'),
    ]);
    // The other stack deletes its edge's restriction: nothing outside the stack references the policy.
    w.store.table('Edge').forEach((raw) => delete raw.ip);
    const again = await planOf(w, docs(false), { authoritative: 'children' });
    expect(foreignReferenceErrors(w.kinds, again.desired, again.live, 's', again.plan.actions)).toEqual([]);
  });

  it("a replacement's error stands at its document", async () => {
    const w = fakeWorld();
    const cert = w.store.seed('Cert', 'crt_', { pem: 'old', metadata: marked('s', 'Cert/ca') });
    w.store.seed('Edge', 'edg_', { mtls: { cert_ids: [cert] } });
    const desired = [{ ...res('Cert/ca', { pem: 'new', key: 'k' }), pos: { file: 'certs.yaml', line: 4, col: 1 } }];
    const { live, plan } = await planOf(w, desired);
    const errors = foreignReferenceErrors(w.kinds, state(desired), live, 's', plan.actions);
    expect(errors.map(formatIssue)).toEqual([expect.stringMatching(/^certs\.yaml:4:1: Cert\/ca: this plan replaces it \(pem cannot be updated\) and then deletes the old one, but the unmanaged Edge edg_\d+ references it \(mtls\.cert_ids\)/)]);
  });

  it("are found by apply's pre-check from every kind's lists, before any plan of the whole stack", async () => {
    const { w } = world();
    const live = await fetchLive(w.kinds, nullApi);
    expect(precheckForeignReferences(w.kinds, state(docs()), live, { stack: 's', adopt: false })).toEqual([]);
    const errors = precheckForeignReferences(w.kinds, state(docs(false)), live, { stack: 's', adopt: false });
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('the unmanaged Rule'), expect.stringContaining('Edge/ssh (stack other)')]);
    // Authoritative: the unmarked rule is deleted first, so only the other stack's edge is in the way.
    const pruned = precheckForeignReferences(w.kinds, state(docs(false), { authoritative: 'children' }), live, { stack: 's', adopt: false });
    expect(pruned.map((e) => e.message)).toEqual([expect.stringContaining('Edge/ssh (stack other)')]);
    // A stack with none of the referenced kinds live yet (its first apply) has nothing to remove.
    expect(precheckForeignReferences(w.kinds, state(docs(false)), live, { stack: 'new', adopt: false })).toEqual([]);
  });
});
