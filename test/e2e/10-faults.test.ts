// Convergence under faults (issue 5): over 300 resources of every kind applied against a service that fails
// a fifth of the requests in every way it can (5xx before the write, 429 with Retry-After, commit then drop
// the connection, plus latency on everything) converge within three runs of plan + apply, with exactly one live
// resource per manifest document, and then the plan is empty. The checks read the database through a restart
// of the service without faults, so what they see is what was stored.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createApi, type HttpApi } from '../../src/client/http.ts';
import type { ApplyResult } from '../../src/engine/plan-data.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import { computePlan, executePlan, loadDesired } from '../../src/pipeline.ts';
import { api as rawClient, startTestService, tempDbFile } from '../helpers/service.ts';
import { LISTS, makeCerts, type Certs } from './fixtures.ts';
import { ownerOf, planLines, type Doc } from './harness.ts';

const STACK = 'faults';
const GROUPS = 21;
/** A fifth of the writes fail: 5xx 8%, 429 6%, dropped after commit 6%; reads likewise with retried 5xx only. */
const FAULTS = [
  'error=0.08,status=500|502|503,rate429=0.06,retryAfter=0,drop=0.06,latency=2,seed=5',
  'GET.error=0.1,GET.status=502|503,GET.rate429=0.05,GET.drop=0.05',
].join(',');

let certs: Certs;
let dir: string;
let db: { dbFile: string; cleanup(): void };
beforeAll(async () => {
  certs = await makeCerts();
  dir = mkdtempSync(join(tmpdir(), 'edgeops-e2e-faults-'));
  db = tempDbFile();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  db.cleanup();
});

/** Fifteen documents per group, every kind in each, wired together by references. */
function manifests(): Doc[] {
  const docs: Doc[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const pol = `pol${g}`;
    docs.push({ kind: 'IPPolicy', name: pol, description: `policy ${g}`, metadata: { group: g } });
    for (let j = 0; j < 2; j++) {
      docs.push({ kind: 'IPPolicyRule', name: `${pol}-r${j}`, ip_policy_id: pol, cidr: `10.${g}.${j}.0/24`, action: j === 0 ? 'allow' : 'deny' });
    }
    docs.push({ kind: 'TunnelGroupBackend', name: `tg${g}`, labels: { app: `app${g}` } });
    docs.push({ kind: 'HTTPResponseBackend', name: `hr${g}`, body: `group ${g}`, status_code: 503, headers: { 'Content-Type': 'text/plain' } });
    docs.push({ kind: 'CertificateAuthority', name: `ca${g}`, ca_pem: (g % 2 ? certs.ca : certs.ca2).certPem });
    const leaf = g % 2 ? certs.leaf : certs.leaf2;
    docs.push({ kind: 'TLSCertificate', name: `cert${g}`, certificate_pem: leaf.chainPem, private_key_pem: leaf.keyPem });
    docs.push({
      kind: 'TCPEdge', name: `tcp${g}`, hostports: [`1.tcp.example.com:${20000 + g}`],
      backend: { backend_id: `tg${g}` }, ip_restriction: { ip_policy_ids: [pol] },
      policy: { enabled: true, inbound: [{ name: 'no-22', expressions: ['conn.server_port == 22'], actions: [{ type: 'deny' }] }], outbound: [] },
    });
    docs.push({
      kind: 'TLSEdge', name: `tls${g}`, hostports: [`tls${g}.example.com:443`], backend: { backend_id: `hr${g}` },
      mutual_tls: { certificate_authority_ids: [`ca${g}`] }, tls_termination: { terminate_at: 'edge', min_version: '1.2' },
    });
    docs.push({ kind: 'HTTPSEdge', name: `web${g}`, hostports: [`web${g}.example.com:443`], mutual_tls: { certificate_authority_ids: [`ca${g}`] } });
    for (const [route, match] of [['root', '/'], ['api', '/api']] as const) {
      docs.push({
        kind: 'HTTPSEdgeRoute', name: `web${g}-${route}`, edge_id: `web${g}`, match_type: 'path_prefix', match,
        backend: { backend_id: route === 'root' ? `tg${g}` : `hr${g}` }, ip_restriction: { ip_policy_ids: [pol] },
      });
    }
    docs.push({ kind: 'RouteResponseHeaders', name: `web${g}-root-headers`, edge_id: `web${g}`, route_id: `web${g}-root`, add: { 'X-Group': String(g) }, remove: ['server'] });
    docs.push({ kind: 'EventSubscription', name: `sub${g}`, description: `subscription ${g}` });
    docs.push({ kind: 'EventSources', name: `sub${g}-sources`, subscription_id: `sub${g}`, types: ['ip_policy_created.v0', 'ip_policy_deleted.v0'] });
  }
  return docs;
}

describe('apply under 20% faults of every kind', () => {
  it('converges within 3 runs, with one live resource per document, then plans nothing', async () => {
    const docs = manifests();
    expect(docs.length).toBeGreaterThanOrEqual(300);
    expect(new Set(docs.map((d) => d.kind)).size).toBe(13);
    writeFileSync(join(dir, 'all.yaml'), docs.map((d) => stringify(d)).join('---\n'));
    const desired = await loadDesired([dir], {}, { stack: STACK });

    const faulty = await startTestService({ dbFile: db.dbFile, faults: FAULTS });
    const client = createApi({ url: faulty.url, apiKey: faulty.apiKey, concurrency: 8 });
    const runs: { actions: number; deletes?: number; result?: ApplyResult; error?: string }[] = [];
    try {
      for (let run = 0; run < 3; run++) {
        try {
          const ctx = await computePlan(desired, client, { stack: STACK });
          if (ctx.plan.actions.length === 0) break;
          const deletes = ctx.plan.actions.filter((a) => a.op === 'delete').length;
          const result = await executePlan(ctx, client, { stack: STACK, concurrency: 8 });
          runs.push({ actions: ctx.plan.actions.length, deletes, result });
        } catch (err) {
          // A run may die of faults (a list that kept failing): it counts as one of the three.
          runs.push({ actions: -1, error: String(err) });
        }
        // Never a duplicate, not even for a moment between runs (the engine would delete one later, hiding it).
        expect(await duplicates(client), `after run ${run + 1}`).toEqual([]);
      }
      // Only creates were ever needed: a delete would have been of a duplicate.
      expect(runs.map((r) => r.deletes ?? 0).reduce((a, b) => a + b, 0)).toBe(0);
      const final = await computePlan(desired, client, { stack: STACK });
      expect(planLines(final.plan), JSON.stringify(runs.map((r) => ({ ...r, result: r.result?.results.filter((x) => x.status !== 'done') })))).toEqual([]);
      expect(runs.length).toBeGreaterThanOrEqual(1);
      expect(runs[0]!.actions).toBeGreaterThanOrEqual(300);
      // The faults really happened, and the client met them.
      expect(client.stats().rateLimited).toBeGreaterThan(0);
    } finally {
      await client.close();
      await faulty.close();
    }

    const clean = await startTestService({ dbFile: db.dbFile });
    try {
      const http = rawClient(clean);
      const markerDocs = docs.filter((d) => d.kind in LISTS);
      const owners: string[] = [];
      for (const [path, key] of Object.values(LISTS)) {
        const items = (await http.listAll(path, key)) as Obj[];
        // Nothing unmarked (a create is always sent with its marker), so every item is one of ours.
        expect(items.filter((i) => ownerOf(i, STACK) === undefined)).toEqual([]);
        owners.push(...items.map((i) => ownerOf(i, STACK)!));
      }
      expect(owners.sort()).toEqual(markerDocs.map((d) => `${d.kind}/${d.name}`).sort());

      const routes = (await Promise.all(Object.values(await idsOf(http, '/edges/https', 'https_edges')).map((edgeId) =>
        http.listAll(`/edges/https/${edgeId}/routes`, 'routes')))).flat() as Obj[];
      expect(routes).toHaveLength(GROUPS * 2);
      const withHeaders = routes.filter((r) => r.response_headers !== null).map((r) => ownerOf(r, STACK));
      expect(withHeaders.sort()).toEqual(docs.filter((d) => d.kind === 'RouteResponseHeaders').map((d) => `HTTPSEdgeRoute/${String(d.route_id)}`).sort());

      const subs = (await http.listAll('/event_subscriptions', 'event_subscriptions')) as Obj[];
      for (const s of subs) {
        const types = ((s.sources ?? []) as Obj[]).map((x) => x.type);
        expect(types.sort(), String(s.id)).toEqual(['ip_policy_created.v0', 'ip_policy_deleted.v0']);
      }
    } finally {
      await clean.close();
    }
  }, 180_000);
});

/** Addresses of this stack with more than one live copy, read through the (retrying) client. */
async function duplicates(client: HttpApi): Promise<string[]> {
  const counts = new Map<string, number>();
  for (const [path, key] of Object.values(LISTS)) {
    for (const item of await client.list(path, key)) {
      const owner = ownerOf(item, STACK);
      if (owner) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
  }
  return [...counts].filter(([, n]) => n > 1).map(([address]) => address);
}

async function idsOf(http: ReturnType<typeof rawClient>, path: string, key: string): Promise<Record<string, string>> {
  const items = (await http.listAll(path, key)) as Obj[];
  return Object.fromEntries(items.map((i) => [ownerOf(i, STACK)!, String(i.id)]));
}
