// Bringing an existing account under management: resources of every kind made directly through the API,
// `export --all` (whose edgeops.yaml sets `adopt: true`), then a plain `plan` on the export adopts each of them
// (updates writing the marker, no creates, no field changes), `drift` reports them as unmanaged, `apply` writes
// the markers without making a single new resource, and `plan` then shows no changes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import { edgeops } from '../cli/run.ts';
import { makeByHand, type HandMade } from './export-fixtures.ts';
import { LISTS, allKinds, makeCerts, type Certs } from './fixtures.ts';
import { idOf, startE2E, STACK, type E2E } from './harness.ts';

let e: E2E;
let certs: Certs;
let hand: HandMade;
const out = mkdtempSync(join(tmpdir(), 'edgeops-adopt-export-'));
let env: Record<string, string> = {};
let exported: Awaited<ReturnType<typeof edgeops>>;

async function liveById(): Promise<Map<string, Obj>> {
  const all = new Map<string, Obj>();
  for (const [path, key] of Object.values(LISTS)) for (const item of (await e.http.listAll(path, key)) as Obj[]) all.set(String(item.id), item);
  return all;
}

beforeAll(async () => {
  e = await startE2E();
  certs = await makeCerts();
  await e.converge(allKinds(certs));
  const managedBackendId = await idOf(e, '/backends/tunnel_group', 'backends', 'TunnelGroupBackend/web');
  hand = await makeByHand(e, certs, { managedBackendId });
  env = { EDGEOPS_API_URL: e.svc.url, EDGEOPS_API_KEY: e.svc.apiKey, EDGEOPS_STACK: STACK };
  exported = await edgeops(['export', '--all', '--out', out], { env });
  expect(exported.code, exported.stderr).toBe(0);
  // Private keys are never exported: each certificate names a variable to set (plan never compares the key).
  // Each variable gets the key of the certificate its document holds (the manifests refuse a key that does not match).
  const files = readFileSync(join(out, 'tls-certificates.yaml'), 'utf8');
  for (const [, name] of exported.stdout.matchAll(/^ {2}(EDGEOPS_KEY_[A-Z0-9_]+) /gm)) {
    const doc = files.split(/^---$/m).find((d) => d.includes(name!))!;
    env[name!] = [certs.leaf, certs.leaf2].find((c) => doc.includes(c.certPem.split('\n')[1]!))!.keyPem;
  }
}, 60_000);
afterAll(async () => {
  await e?.close();
  rmSync(out, { recursive: true, force: true });
});


describe('export --all, then adopt', () => {
  const ids = () => [hand.policy, hand.rule, hand.backend, hand.edge, hand.httpsEdge, hand.route, hand.subscription, hand.cert, hand.ca];

  it('export says the directory adopts, and names what adoption could not match', () => {
    expect(readFileSync(join(out, 'edgeops.yaml'), 'utf8')).toContain(`stack: ${STACK}\n`);
    expect(readFileSync(join(out, 'edgeops.yaml'), 'utf8')).toMatch(/^adopt: true$/m);
    expect(exported.stdout).toContain(`edgeops.yaml sets adopt: true, so plan and apply on ${out} adopt them`);
    // The two policies with nothing to know them by (no description; metadata that is not exportable).
    expect(exported.stdout).toContain('Left out 2 unmanaged resources that adoption cannot match');
    for (const id of hand.oddPolicies) expect(exported.stdout).toMatch(new RegExp(`^  IPPolicy ${id}: nothing to match it by`, 'm'));
  });

  it('plan (adopt from edgeops.yaml) adopts every exported resource, with no create and no field change', async () => {
    const r = await edgeops(['plan', out, '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const resources = JSON.parse(r.stdout).resources as { address: string; live_id: string | null }[];
    for (const id of ids()) expect(resources.map((x) => x.live_id), id).toContain(id);
    for (const x of resources) expect(x, x.address).toMatchObject({ action: 'update', adopt: expect.any(String), changes: [] });

    // --no-adopt overrides the file: copies, with the hint.
    const copies = await edgeops(['plan', out, '--no-adopt'], { env });
    expect(copies.stdout).toMatch(/Plan: \d+ to create, 0 to update, 0 to replace, 0 to delete\./);
    expect(copies.stdout).toContain('run plan/apply with --adopt');
  });

  it('drift reports the resources to adopt as unmanaged, not as missing', async () => {
    const r = await edgeops(['drift', out, '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(2);
    const report = JSON.parse(r.stdout) as { summary: Record<string, number>; resources: { live_id: string; findings: { direction: string; adopt?: string }[] }[] };
    expect(report.summary).toMatchObject({ changed: 0, missing: 0, live_only: 0, unmanaged: report.resources.length });
    for (const res of report.resources) expect(res.findings.map((f) => f.direction)).toEqual(['unmanaged']);
    expect(report.resources.find((x) => x.live_id === hand.edge)!.findings[0]!.adopt).toBe('hostport 9.tcp.example.com:29999');
    const text = await edgeops(['drift', out], { env });
    expect(text.stdout).toContain(`TCPEdge/9-tcp-example-com-29999 (${hand.edge}): apply would adopt it`);
    expect(text.stdout).toContain('unmanaged  live without an ownership marker, matched to the manifests by hostport 9.tcp.example.com:29999');
    expect(text.stdout).toMatch(/Drift: 0 changed, 0 missing, 0 live-only, \d+ unmanaged/);
  });

  it('apply writes the markers and makes nothing new; then plan shows no changes and drift none', async () => {
    const before = await liveById();
    const applied = await edgeops(['apply', out, '--auto-approve'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const after = await liveById();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const id of ids()) {
      if (id === hand.route) continue; // routes are not in the top-level lists; checked through their edge below
      expect(parseMetadata(after.get(id)!.metadata).marker?.stack, id).toBe(STACK);
    }
    const edge = after.get(hand.httpsEdge)! as { routes: Obj[] };
    expect(parseMetadata(edge.routes[0]!.metadata).marker?.stack).toBe(STACK);
    expect(parseMetadata(after.get(hand.otherStack)!.metadata).marker?.stack).toBe('someone-else');
    for (const id of hand.oddPolicies) expect(parseMetadata(after.get(id)!.metadata).marker, id).toBeUndefined();

    const plan = await edgeops(['plan', out, '--detailed-exitcode'], { env });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const drift = await edgeops(['drift', out], { env });
    expect(drift.code, drift.stdout).toBe(0);
  });
});
