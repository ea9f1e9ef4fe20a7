// Export round trip on a populated service (every kind): the exported manifests load, validate and plan as
// "No changes." for the managed resources; with --all, resources made directly through the API are exported
// too, with readable generated names and references by name, and the written edgeops.yaml sets `adopt: true`,
// so the plan adopts each of them (no create, no field change); those adoption could not match are left out.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExport } from '../../src/export/build.ts';
import { takeSnapshot } from '../../src/export/snapshot.ts';
import { writeExport } from '../../src/export/write.ts';
import { attachmentWarning } from '../../src/engine/attachments.ts';
import { liveState } from '../../src/engine/live.ts';
import { computePlan, loadDesired } from '../../src/pipeline.ts';
import { ConfigError } from '../../src/errors.ts';
import { allKinds, makeCerts, type Certs } from './fixtures.ts';
import { idOf, planLines, startE2E, STACK, type Doc, type E2E } from './harness.ts';
import { dirText, makeByHand, serviceText, type HandMade } from './export-fixtures.ts';

let e: E2E;
let certs: Certs;
let hand: HandMade;
let unmanagedPolicyRuleDoc: Doc;
const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'edgeops-export-'));
  dirs.push(d);
  return d;
};

async function exportTo(all: boolean): Promise<{ dir: string; result: ReturnType<typeof buildExport> }> {
  const { live } = await takeSnapshot(e.api);
  const result = buildExport(live, { stack: STACK, all });
  const dir = tempDir();
  writeExport(dir, result);
  return { dir, result };
}

function docsOf(dir: string, file: string): Doc[] {
  return parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => d.toJS() as Doc);
}

beforeAll(async () => {
  e = await startE2E();
  certs = await makeCerts();
  // A managed rule inside a policy made by hand: its reference is a literal id in the manifests.
  const handPolicy = await e.http.post('/ip_policies', { description: 'hand policy for a managed rule' });
  unmanagedPolicyRuleDoc = { kind: 'IPPolicyRule', name: 'in-hand-policy', ip_policy_id: String(handPolicy.body.id), cidr: '10.9.0.0/16', action: 'deny' };
  await e.converge([...allKinds(certs), unmanagedPolicyRuleDoc]);
  const web = await idOf(e, '/backends/tunnel_group', 'backends', 'TunnelGroupBackend/web');
  hand = await makeByHand(e, certs, { managedBackendId: web });
}, 60_000);
afterAll(async () => {
  await e?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('export (managed resources)', () => {
  it('writes one file per kind with the manifests\' own names, and plan on it shows no changes', async () => {
    const before = await serviceText(e.http);
    const { dir, result } = await exportTo(false);
    expect(await serviceText(e.http)).toBe(before);
    expect(result.files.map((f) => f.file).sort()).toEqual([
      'certificate-authorities.yaml', 'event-sources.yaml', 'event-subscriptions.yaml', 'http-response-backends.yaml',
      'https-edge-routes.yaml', 'https-edges.yaml', 'ip-policies.yaml', 'ip-policy-rules.yaml', 'route-response-headers.yaml',
      'tcp-edges.yaml', 'tls-certificates.yaml', 'tls-edges.yaml', 'tunnel-group-backends.yaml',
    ]);
    expect(readFileSync(join(dir, 'edgeops.yaml'), 'utf8')).toContain(`stack: ${STACK}`);
    const exported = result.files.flatMap((f) => f.docs.map((d) => `${d.doc.kind}/${d.doc.name}`)).sort();
    const original = [...allKinds(certs), unmanagedPolicyRuleDoc].map((d) => `${d.kind}/${d.name}`).sort();
    expect(exported).toEqual(original);
    expect(result.unmanaged).toBe(0);

    // References by name, user metadata as a mapping without the marker, the key as a placeholder.
    const ssh = docsOf(dir, 'tcp-edges.yaml').find((d) => d.name === 'ssh')!;
    expect(ssh).toMatchObject({ kind: 'TCPEdge', metadata: { team: 'ops' }, backend: { backend_id: 'web' }, ip_restriction: { ip_policy_ids: ['office'] } });
    expect(JSON.stringify(ssh)).not.toContain('"edgeops"');
    const headers = docsOf(dir, 'route-response-headers.yaml');
    expect(headers).toEqual([{ kind: 'RouteResponseHeaders', name: 'root-headers', edge_id: 'www', route_id: 'root', enabled: true, add: { 'x-frame-options': 'DENY' }, remove: ['server'] }]);
    expect(docsOf(dir, 'event-sources.yaml')).toEqual([{ kind: 'EventSources', name: 'audit-sources', subscription_id: 'audit', types: ['ip_policy_created.v0', 'ip_policy_updated.v0'] }]);
    const rule = docsOf(dir, 'ip-policy-rules.yaml').find((d) => d.name === 'in-hand-policy')!;
    expect(rule.ip_policy_id).toBe(unmanagedPolicyRuleDoc.ip_policy_id);
    const wild = docsOf(dir, 'tls-certificates.yaml')[0]!;
    expect(wild.private_key_pem).toEqual({ env: 'EDGEOPS_KEY_WILD' });
    expect(result.placeholders).toEqual([{ envVar: 'EDGEOPS_KEY_WILD', address: 'TLSCertificate/wild', field: 'private_key_pem' }]);
    expect(dirText(dir)).not.toContain(certs.leaf.keyPem.split('\n')[1]!);

    // Unmanaged resources are not in a default export, and another stack's never.
    expect(dirText(dir)).not.toContain('legacy');

    const desired = await loadDesired([dir], { EDGEOPS_KEY_WILD: certs.leaf.keyPem });
    const { plan } = await computePlan(desired, e.api, { stack: STACK });
    expect(planLines(plan)).toEqual([]);
    // The only warning: the edge made by hand uses a managed backend (engine/attachments.ts).
    expect(plan.attachments?.map((a) => `${a.kind} ${a.relation} ${a.target.address} (${a.field})`)).toEqual(['TCPEdge reference TunnelGroupBackend/web (backend.backend_id)']);
    expect(plan.warnings).toEqual(plan.attachments!.map(attachmentWarning));
  });

  it('without the key variable, plan names it instead of planning', async () => {
    const { dir } = await exportTo(false);
    await expect(loadDesired([dir], {})).rejects.toThrow(/EDGEOPS_KEY_WILD is not set/);
  });

  it('a re-export replaces its own files and removes those of kinds gone since; other YAML files are refused', async () => {
    const { dir } = await exportTo(false);
    const empty = buildExport(liveState([], new Map()), { stack: STACK, all: false });
    writeExport(dir, empty);
    expect(dirText(dir)).toBe(`# written by edgeops export: the stack these manifests manage\nstack: ${STACK}\n`);
    writeFileSync(join(dir, 'mine.yaml'), 'kind: IPPolicy\nname: mine\n');
    expect(() => writeExport(dir, empty)).toThrow(ConfigError);
    expect(() => writeExport(dir, empty)).toThrow(/mine\.yaml/);
  });
});

describe('export --all', () => {
  it('also exports resources made through the API, named from what they are, referencing by name', async () => {
    const { dir, result } = await exportTo(true);
    const names = (file: string): string[] => docsOf(dir, file).map((d) => d.name).sort();
    // The two policies with no description (nothing to adopt them by) are left out, and named.
    expect(names('ip-policies.yaml')).toEqual(['hand-policy-for-a-managed-rule', 'made-by-hand', 'office', 'partners']);
    expect(result.leftOut.map((r) => r.id).sort()).toEqual([...hand.oddPolicies].sort());
    for (const r of result.leftOut) expect(r).toMatchObject({ kind: 'IPPolicy', why: expect.stringContaining('nothing to match it by') });
    for (const id of hand.oddPolicies) expect(dirText(dir)).not.toContain(id);
    expect(names('tcp-edges.yaml')).toEqual(['8-tcp-example-com-28888', '9-tcp-example-com-29999', 'ssh']);
    expect(names('tunnel-group-backends.yaml')).toEqual(['api', 'legacy', 'web']);
    expect(names('ip-policy-rules.yaml')).toEqual(['in-hand-policy', 'made-by-hand-192-0-2-0-24', 'office-v4', 'office-v6', 'partner-v4']);
    expect(names('https-edge-routes.yaml')).toEqual(['brew', 'legacy-example-com-443-root', 'root']);
    expect(names('route-response-headers.yaml')).toEqual(['legacy-example-com-443-root-headers', 'root-headers']);
    expect(names('event-sources.yaml')).toEqual(['audit-sources', 'hand-made-sources']);
    expect(names('tls-certificates.yaml')).toEqual(['wild', 'www-example-com']);
    expect(names('certificate-authorities.yaml')).toEqual(['clients', 'partner-ca']);

    const doc = (file: string, name: string): Doc => docsOf(dir, file).find((d) => d.name === name)!;
    // Unmanaged -> unmanaged and unmanaged -> managed references are by name.
    expect(doc('tcp-edges.yaml', '9-tcp-example-com-29999').backend).toEqual({ enabled: true, backend_id: 'legacy' });
    expect(doc('tcp-edges.yaml', '8-tcp-example-com-28888').backend).toEqual({ enabled: true, backend_id: 'web' });
    expect(doc('ip-policy-rules.yaml', 'made-by-hand-192-0-2-0-24').ip_policy_id).toBe('made-by-hand');
    expect(doc('route-response-headers.yaml', 'legacy-example-com-443-root-headers')).toMatchObject({ edge_id: 'legacy-example-com-443', route_id: 'legacy-example-com-443-root' });
    // A managed resource keeps its literal id for an unmanaged target, as its manifest said.
    expect(doc('ip-policy-rules.yaml', 'in-hand-policy').ip_policy_id).toBe(unmanagedPolicyRuleDoc.ip_policy_id);
    // Metadata: a JSON object is kept (without the marker).
    expect(doc('ip-policies.yaml', 'made-by-hand').metadata).toEqual({ owner: 'ops' });
    expect(result.otherStacks).toBe(1);
    expect(dirText(dir)).not.toContain(hand.otherStack);
    expect(dirText(dir)).toContain(`# live id: ${hand.edge}\n# unmanaged: no ownership marker`);
    expect(result.placeholders.map((p) => p.envVar)).toEqual(['EDGEOPS_KEY_WILD', 'EDGEOPS_KEY_WWW_EXAMPLE_COM']);
    expect(dirText(dir)).not.toContain(certs.leaf2.keyPem.split('\n')[1]!);

    // edgeops.yaml turns adoption on for the directory.
    expect(readFileSync(join(dir, 'edgeops.yaml'), 'utf8')).toMatch(new RegExp(`^stack: ${STACK}\n(#.*\n)*adopt: true\n$`, 'm'));
    const desired = await loadDesired([dir], { EDGEOPS_KEY_WILD: certs.leaf.keyPem, EDGEOPS_KEY_WWW_EXAMPLE_COM: certs.leaf2.keyPem });
    expect(desired.config).toMatchObject({ stack: STACK, adopt: true });

    // Plan with it: nothing for any managed resource; an adoption (an update writing the marker, no field
    // change) for each unmanaged one with an id; their response headers and event sources have nothing to do.
    const { plan } = await computePlan(desired, e.api, { stack: STACK, adopt: desired.config.adopt });
    const unmanaged = result.files.flatMap((f) => f.docs.filter((d) => !d.entry.managed).map((d) => `${d.doc.kind}/${d.doc.name}`)).sort();
    expect(unmanaged).toHaveLength(result.unmanaged);
    const withIds = unmanaged.filter((a) => !/^(RouteResponseHeaders|EventSources)\//.test(a));
    expect(plan.actions.map((a) => a.address).sort()).toEqual(withIds);
    for (const a of plan.actions) expect({ address: a.address, op: a.op, adopt: typeof a.adopt, changes: a.changes }).toEqual({ address: a.address, op: 'update', adopt: 'string', changes: [] });
    expect(plan.warnings).toEqual([]);

    // Without adopt the same directory would plan a second copy of each (what `adopt: true` prevents).
    const copies = await computePlan(desired, e.api, { stack: STACK, adopt: false });
    expect(copies.plan.actions.every((a) => a.op === 'create')).toBe(true);
    expect(copies.plan.actions.map((a) => a.address).sort()).toEqual(unmanaged);
  });

  it('an export of managed resources only writes no adopt setting', async () => {
    const { dir, result } = await exportTo(false);
    expect(result.unmanaged).toBe(0);
    expect(readFileSync(join(dir, 'edgeops.yaml'), 'utf8')).not.toContain('adopt');
  });
});
