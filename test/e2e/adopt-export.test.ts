// Bringing an existing account under management: resources of every kind made directly through the API,
// `export --all`, then `plan --adopt` on the export adopts each of them (updates writing the marker, no
// creates, no field changes), `apply --adopt` writes the markers without making a single new resource, and a
// plain `plan` then shows no changes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/engine/ownership.ts';
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
  const exported = await edgeops(['export', '--all', '--out', out], { env });
  expect(exported.code, exported.stderr).toBe(0);
  // Private keys are never exported: each certificate names a variable to set (plan never compares the key).
  for (const [, name] of exported.stdout.matchAll(/^ {2}(EDGEOPS_KEY_[A-Z0-9_]+) /gm)) env[name!] = certs.leaf.keyPem;
}, 60_000);
afterAll(async () => {
  await e?.close();
  rmSync(out, { recursive: true, force: true });
});

interface JsonResource {
  address: string;
  action: string;
  live_id: string | null;
  adopt?: string;
  changes: unknown[];
}

describe('export --all, then adopt', () => {
  it('plan --adopt adopts every exported resource that has a natural key, with no field change', async () => {
    const r = await edgeops(['plan', out, '--adopt', '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const resources = JSON.parse(r.stdout).resources as JsonResource[];
    const adopted = resources.filter((x) => x.adopt);
    const ids = [hand.policy, hand.rule, hand.backend, hand.edge, hand.httpsEdge, hand.route, hand.subscription, hand.cert, hand.ca];
    for (const id of ids) expect(adopted.map((x) => x.live_id), id).toContain(id);
    for (const x of adopted) expect(x, x.address).toMatchObject({ action: 'update', changes: [] });
    // The two policies with nothing to know them by (no description; metadata that is not exportable) stay creates.
    const others = resources.filter((x) => !x.adopt);
    expect(others.map((x) => x.action)).toEqual(['create', 'create']);
    expect(others.every((x) => x.address.startsWith('IPPolicy/'))).toBe(true);

    // Without a natural key there is nothing to adopt: drop those documents before applying.
    const file = join(out, 'ip-policies.yaml');
    const docs = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Obj);
    const drop = new Set(others.map((x) => x.address.split('/')[1]));
    writeFileSync(file, docs.filter((d) => !drop.has(String(d.name))).map((d) => stringify(d)).join('---\n'));
  });

  it('apply --adopt writes the markers and makes nothing new; then plan shows no changes', async () => {
    const before = await liveById();
    const applied = await edgeops(['apply', out, '--adopt', '--auto-approve'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const after = await liveById();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const id of [hand.policy, hand.rule, hand.backend, hand.edge, hand.httpsEdge, hand.route, hand.subscription, hand.cert, hand.ca]) {
      if (id === hand.route) continue; // routes are not in the top-level lists; checked through their edge below
      expect(parseMetadata(after.get(id)!.metadata).marker?.stack, id).toBe(STACK);
    }
    const edge = after.get(hand.httpsEdge)! as { routes: Obj[] };
    expect(parseMetadata(edge.routes[0]!.metadata).marker?.stack).toBe(STACK);
    expect(parseMetadata(after.get(hand.otherStack)!.metadata).marker?.stack).toBe('someone-else');

    const plan = await edgeops(['plan', out, '--detailed-exitcode'], { env });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });
});
