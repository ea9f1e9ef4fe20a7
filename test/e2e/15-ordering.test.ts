// Ordering guarantees, checked against the service's request log: after every write edgeops sends, the live
// state is read, and no resource restricted by IP policies may be less restricted than both where it started
// and where the plan takes it: a new or repointed edge or route never meets a policy whose rules are not all
// made yet, a policy keeps its old rules until its new ones exist, and dependents leave a policy before its
// rules are deleted. "Less restricted": unrestricted is below any rule set, a strict subset below its superset,
// and a resource that does not exist (serves nothing) is above everything.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/client/http.ts';
import type { Obj } from '../../src/kinds/resource-kind.ts';
import { computePlan, executePlan, loadDesired } from '../../src/pipeline.ts';
import { e2eForFile, ownerOf, planLines, STACK } from './harness.ts';
import type { Doc } from './harness.ts';
import { startRequestLog } from '../support/round-robin-proxy.ts';

const { e } = e2eForFile({ certs: false });
const dir = mkdtempSync(join(tmpdir(), 'edgeops-ordering-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A resource's effective IP restriction: null when unrestricted, else the rules of all its policies. */
type Restriction = Set<string> | null;
type Snapshot = Map<string, Restriction>;

const EDGE_LISTS: [string, string][] = [['/edges/tcp', 'tcp_edges'], ['/edges/tls', 'tls_edges'], ['/edges/https', 'https_edges']];

async function snapshot(): Promise<Snapshot> {
  const rules = new Map<string, string[]>();
  for (const r of (await e.http.listAll('/ip_policy_rules', 'ip_policy_rules')) as Obj[]) {
    const policy = String((r.ip_policy as Obj).id);
    rules.set(policy, [...(rules.get(policy) ?? []), `${String(r.action)} ${String(r.cidr)}`]);
  }
  const out: Snapshot = new Map();
  const holder = (raw: Obj): void => {
    const owner = ownerOf(raw);
    if (!owner) return;
    const ip = raw.ip_restriction as { enabled?: boolean; ip_policies?: { id: string }[] } | null | undefined;
    const restriction = !ip || ip.enabled === false ? null : new Set((ip.ip_policies ?? []).flatMap((p) => rules.get(p.id) ?? []));
    out.set(owner, restriction);
    // Each hostport an edge serves is held to its edge's restriction.
    for (const h of Array.isArray(raw.hostports) ? raw.hostports : []) out.set(`hostport ${String(h)}`, restriction);
  };
  for (const [path, key] of EDGE_LISTS) {
    for (const edge of (await e.http.listAll(path, key)) as Obj[]) {
      holder(edge);
      for (const route of (Array.isArray(edge.routes) ? edge.routes : []) as Obj[]) holder(route);
    }
  }
  return out;
}

const ABSENT = undefined;

/** Whether `a` lets strictly more through than `b`. */
function weaker(a: Restriction | typeof ABSENT, b: Restriction | typeof ABSENT): boolean {
  if (a === ABSENT) return false;
  if (b === ABSENT) return true;
  if (b === null) return false;
  if (a === null) return true;
  return a.size < b.size && [...a].every((r) => b.has(r));
}

const show = (r: Restriction | typeof ABSENT): string => (r === ABSENT ? 'absent' : r === null ? 'unrestricted' : `{${[...r].sort().join(', ')}}`);

/** Plan and apply through the request log; after every write, no holder is weaker than both its start and end. */
async function applyLogged(docs: Doc[]): Promise<number> {
  writeFileSync(join(dir, 'all.yaml'), docs.map((d) => stringify(d)).join('---\n'));
  const before = await snapshot();
  const states: { after: string; state: Snapshot }[] = [];
  const log = await startRequestLog(e.svc.url, async (w) => void states.push({ after: `${w.method} ${w.path} -> ${w.status}`, state: await snapshot() }));
  const api = createApi({ url: log.url, apiKey: e.svc.apiKey });
  try {
    const ctx = await computePlan(await loadDesired([dir], {}, { allowEmpty: docs.length === 0 }), api, { stack: STACK });
    const result = await executePlan(ctx, api, { stack: STACK, concurrency: 8 });
    expect(result.results.filter((r) => r.status !== 'done')).toEqual([]);
  } finally {
    await api.close();
    await log.close();
  }
  const after = await snapshot();
  const holders = new Set([...before.keys(), ...after.keys()]);
  for (const { after: write, state } of states) {
    for (const h of holders) {
      const now = state.get(h);
      const message = `${h} after ${write}: ${show(now)}, started ${show(before.get(h))}, ends ${show(after.get(h))}`;
      expect(weaker(now, before.get(h)) && weaker(now, after.get(h)), message).toBe(false);
    }
  }
  expect(planLines((await e.plan(docs)).plan)).toEqual([]);
  return log.writes.length;
}

const policy = (name: string, rules: Record<string, string>): Doc[] => [
  { kind: 'IPPolicy', name },
  ...Object.entries(rules).map(([rule, cidr]) => ({ kind: 'IPPolicyRule', name: rule, ip_policy_id: name, cidr, action: 'allow' })),
];

const holders = (policies: string[], route: string[] | null = policies, tls: Obj = {}): Doc[] => [
  { kind: 'TunnelGroupBackend', name: 'app', labels: { app: 'admin' } },
  { kind: 'TCPEdge', name: 'admin', hostports: ['1.tcp.example.com:24001'], backend: { backend_id: 'app' }, ip_restriction: { ip_policy_ids: policies } },
  { kind: 'HTTPSEdge', name: 'site', hostports: ['site.example.com:443'] },
  { kind: 'TLSEdge', name: 'tls', hostports: ['tls.example.com:443'], ...tls },
  {
    kind: 'HTTPSEdgeRoute', name: 'root', edge_id: 'site', match_type: 'path_prefix', match: '/', backend: { backend_id: 'app' },
    ...(route ? { ip_restriction: { ip_policy_ids: route } } : {}),
  },
];

describe('no weaker state in between', () => {
  it('new edges and routes meet their policy with every rule made', async () => {
    expect(await applyLogged([...policy('office', { v4: '198.51.100.0/24', v6: '2001:db8::/32' }), ...holders(['office'])])).toBeGreaterThan(5);
  });

  it('a policy renamed without moved_from: the new one is complete before the edge and route move to it', async () => {
    await applyLogged([...policy('office-new', { v4: '198.51.100.0/24', v6: '2001:db8::/32' }), ...holders(['office-new'])]);
  });

  it('a rule set changed under a restriction: new rules before old ones go', async () => {
    await applyLogged([...policy('office-new', { v6: '2001:db8::/32', v4b: '203.0.113.0/24' }), ...holders(['office-new'])]);
  });

  it('repointed to another policy while the old one is removed: the holders leave before its rules go', async () => {
    await applyLogged([...policy('partners', { p1: '192.0.2.0/24' }), ...holders(['partners'], null)]);
  });

  it('an edge given a hostport and a restriction at once: restricted before it serves the new hostport', async () => {
    const tls = { hostports: ['tls.example.com:443', 'www.example.com:443'], ip_restriction: { ip_policy_ids: ['partners'] } };
    const docs = [...policy('partners', { p1: '192.0.2.0/24' }), ...holders(['partners'], null, tls)];
    const { plan } = await e.plan(docs);
    expect(plan.actions.find((a) => a.id === 'update:TLSEdge/tls')!.dependsOn).toContain('module-put:TLSEdge/tls:ip_restriction');
    await applyLogged(docs);
  });

  it('the same hostport and restriction removed at once: the hostport goes before the restriction', async () => {
    const docs = [...policy('partners', { p1: '192.0.2.0/24' }), ...holders(['partners'], null)];
    const { plan } = await e.plan(docs);
    expect(plan.actions.find((a) => a.id === 'module-delete:TLSEdge/tls:ip_restriction')!.dependsOn).toContain('update:TLSEdge/tls');
    await applyLogged(docs);
  });

  it('rules replaced in place while the holders swap policies: each old rule goes once its successor is in', async () => {
    const deny = (docs: Doc[]): Doc[] => docs.map((d) => (d.kind === 'IPPolicyRule' ? { ...d, action: 'deny' } : d));
    const two = (flip: boolean): Doc[] => (flip ? deny : (d: Doc[]) => d)([...policy('partners', { p1: '192.0.2.0/24' }), ...policy('office', { o1: '198.51.100.0/24' })]);
    await applyLogged([...two(false), ...holders(['partners'], ['office'])]);
    const docs = [...two(true), ...holders(['office'], ['partners'])];
    const { plan } = await e.plan(docs);
    // The old rule's delete waits for nobody leaving its policy: its successor is in that policy already.
    expect(plan.actions.filter((a) => a.op === 'replace').map((a) => [a.id, a.deleteDependsOn])).toEqual([
      ['replace:IPPolicyRule/o1', []],
      ['replace:IPPolicyRule/p1', []],
    ]);
    await applyLogged(docs);
  });

  it('everything removed', async () => {
    await applyLogged([]);
  });
});
