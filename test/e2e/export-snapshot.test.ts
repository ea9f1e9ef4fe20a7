// `export --snapshot FILE` + `plan --against FILE`: the same plan as a live plan, with no service URL, no API key
// and no network; and `export --out DIR` through the CLI, planned back as "No changes.".
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSnapshotApi } from '../../src/client/snapshot.ts';
import { ApiError, EdgeopsError } from '../../src/errors.ts';
import { takeSnapshot } from '../../src/export/snapshot.ts';
import { computePlan, loadDesired } from '../../src/pipeline.ts';
import { edgeops } from '../cli/run.ts';
import { allKinds, makeCerts, type Certs } from './fixtures.ts';
import { edit, planLines, startE2E, STACK, without, type Doc, type E2E } from './harness.ts';
import { dirText, serviceText, writeDocs } from './export-fixtures.ts';

let e: E2E;
let certs: Certs;
let work: string;
let changed: Doc[];
const env = () => ({ EDGEOPS_API_URL: e.svc.url, EDGEOPS_API_KEY: e.svc.apiKey, EDGEOPS_STACK: STACK });

beforeAll(async () => {
  e = await startE2E();
  certs = await makeCerts();
  await e.converge(allKinds(certs));
  work = mkdtempSync(join(tmpdir(), 'edgeops-snap-'));
  // Manifests that differ from live state in every way: an update, a module change, a replace, a delete, a create.
  changed = [
    ...without(
      edit(edit(edit(allKinds(certs), 'TCPEdge/ssh', (d) => {
        d.description = 'ssh, edited';
      }), 'TLSEdge/secure', (d) => {
        d.tls_termination = { terminate_at: 'edge', min_version: '1.3' };
      }), 'IPPolicyRule/office-v6', (d) => {
        d.action = 'allow';
      }),
      'IPPolicyRule/partner-v4',
    ),
    { kind: 'IPPolicy', name: 'new-one', description: 'not yet live' },
  ];
}, 60_000);
afterAll(async () => {
  await e?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('snapshots', () => {
  it('a plan against a snapshot equals the live plan', async () => {
    const desired = await loadDesired([writeDocs(changed)], {});
    const { snapshot } = await takeSnapshot(e.api);
    const live = await computePlan(desired, e.api, { stack: STACK });
    const file = join(work, 'same-plan.json');
    writeFileSync(file, JSON.stringify(snapshot));
    const offline = await computePlan(desired, openSnapshotApi(file), { stack: STACK });
    expect([...planLines(live.plan)].sort()).toEqual([
      'create IPPolicy/new-one',
      'delete IPPolicyRule/partner-v4',
      'module-put TLSEdge/secure:tls_termination /tls_termination/min_version',
      'replace IPPolicyRule/office-v6 /action',
      'update TCPEdge/ssh /description',
    ]);
    expect(offline.plan).toEqual(live.plan);
    expect(snapshot.lists.map((l) => l.path)).toEqual([
      '/backends/http_response', '/backends/tunnel_group', '/certificate_authorities', '/edges/https', '/edges/tcp', '/edges/tls',
      '/event_subscriptions', '/ip_policies', '/ip_policy_rules', '/tls_certificates',
    ]);
  });

  it('the snapshot Api reads by list and id, refuses writes, and names what it lacks', async () => {
    const { snapshot } = await takeSnapshot(e.api);
    const file = join(work, 's.json');
    writeFileSync(file, JSON.stringify(snapshot));
    const api = openSnapshotApi(file);
    const policies = await api.list('/ip_policies', 'ip_policies');
    expect((await api.get(`/ip_policies/${String(policies[0]!.id)}`)).id).toBe(policies[0]!.id);
    await expect(api.get('/ip_policies/ipp_nope')).rejects.toMatchObject({ status: 404 });
    await expect(api.get('/ip_policies/ipp_nope')).rejects.toBeInstanceOf(ApiError);
    await expect(api.list('/nowhere', 'x')).rejects.toBeInstanceOf(EdgeopsError);
    await expect(api.list('/nowhere', 'x')).rejects.toMatchObject({ name: 'SnapshotError', code: 'E_SNAPSHOT' });
    await expect(api.list('/ip_policies', 'wrong_key')).rejects.toThrow(/under "ip_policies"/);
    await expect(api.post('/ip_policies', {})).rejects.toBeInstanceOf(EdgeopsError);
    await expect(api.post('/ip_policies', {})).rejects.toMatchObject({ name: 'ReadOnlyError', code: 'E_READ_ONLY' });
    await expect(api.delete('/ip_policies/x')).rejects.toThrow(`the snapshot ${file} is read-only`);
    const other = join(work, 'f.json');
    writeFileSync(other, JSON.stringify({ format: 'edgeops-snapshot', format_version: 9, lists: [] }));
    expect(() => openSnapshotApi(other)).toThrow(/format_version 9 is not supported/);
    writeFileSync(other, JSON.stringify({ lists: [] }));
    expect(() => openSnapshotApi(other)).toThrow(`${other}: not an edgeops snapshot`);
  });

  it('through the CLI: export --snapshot, then plan --against with no URL and no key prints the live plan', async () => {
    const dir = writeDocs(changed, mkdtempSync(join(tmpdir(), 'edgeops-snapdocs-')));
    const file = join(work, 'live.json');
    const before = await serviceText(e.http);
    const snap = await edgeops(['export', '--snapshot', file], { env: env() });
    expect(snap.stderr).toBe('');
    expect(snap.code).toBe(0);
    expect(snap.stdout).toContain(`to ${file}. Plan against it with: edgeops plan PATH --against ${file}`);
    expect(await serviceText(e.http)).toBe(before);
    expect(readFileSync(file, 'utf8')).not.toContain(certs.leaf.keyPem.split('\n')[1]!);

    const live = await edgeops(['plan', dir, '--format', 'json'], { env: env() });
    expect(live.code).toBe(0);
    const offline = await edgeops(['plan', dir, '--format', 'json', '--against', file], { env: { EDGEOPS_STACK: STACK } });
    expect(offline.stderr).toBe('');
    expect(offline.code).toBe(0);
    expect(offline.stdout).toBe(live.stdout);
    expect(JSON.parse(offline.stdout).summary).toEqual({ create: 1, update: 2, replace: 1, delete: 1 });
    const drift = await edgeops(['drift', dir, '--format', 'json', '--against', file], { env: { EDGEOPS_STACK: STACK } });
    expect(drift.code).toBe(2);
    expect(JSON.parse(drift.stdout).summary).toEqual({ changed: 3, missing: 1, live_only: 1, resources: 5 });
    rmSync(dir, { recursive: true, force: true });
  });

  it('plan --against a file that is not a snapshot exits 1 naming the file', async () => {
    const bad = join(work, 'bad.json');
    writeFileSync(bad, '{"not": "a snapshot"}');
    const r = await edgeops(['plan', writeDocs(changed), '--against', bad], { env: {} });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`edgeops: ${bad}: not an edgeops snapshot (write one with \`edgeops export --snapshot FILE\`)\n`);
    const missing = await edgeops(['plan', writeDocs(changed), '--against', join(work, 'nope.json')], { env: {} });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read the snapshot: no such file');
  });
});

describe('export through the CLI', () => {
  it('writes the manifests, names the key variables, and plan on them shows no changes', async () => {
    const out = join(work, 'exported');
    const r = await edgeops(['export', '--out', out], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Exported ${allKinds(certs).length} resources of stack "${STACK}" (${allKinds(certs).length} managed) to ${out}:\n`);
    expect(r.stdout).toContain('  tcp-edges.yaml (1)\n');
    expect(r.stdout).toContain('  EDGEOPS_KEY_WILD  TLSCertificate/wild private_key_pem\n');
    const key = certs.leaf.keyPem.split('\n')[1]!;
    expect(r.stdout).not.toContain(key);
    expect(dirText(out)).not.toContain(key);

    const plan = await edgeops(['plan', out, '--detailed-exitcode'], { env: { ...env(), EDGEOPS_STACK: undefined, EDGEOPS_KEY_WILD: certs.leaf.keyPem } });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const drift = await edgeops(['drift', out], { env: { ...env(), EDGEOPS_KEY_WILD: certs.leaf.keyPem } });
    expect(drift.code).toBe(0);
  });

  it('refuses a directory holding other YAML files', async () => {
    const out = join(work, 'busy');
    mkdirSync(out);
    writeDocs([{ kind: 'IPPolicy', name: 'x' }], out);
    const r = await edgeops(['export', '--out', out], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('holds YAML files an export does not write (all.yaml)');
  });
});
