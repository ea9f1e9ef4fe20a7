// `--target Kind/name` through the pipeline against the real service: a targeted plan holds only the targets and
// what they reference (an edge's backend and IP policies, not a policy's rules), applies only that, deletes
// nothing else, plans the delete of a target whose document is gone, refuses an unknown target naming close
// matches, and has a checksum of its own for each list of targets.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { EdgeopsError } from '../../src/errors.ts';
import { secretsOfKinds } from '../../src/engine/saved-plan.ts';
import { planChecksum } from '../../src/engine/plan-meaning.ts';
import { KINDS } from '../../src/kinds/index.ts';
import { computePlan, executePlan, loadDesired, type PlanContext } from '../../src/pipeline.ts';
import { e2eForFile, listRaw, ownerOf, planLines, without, type Doc } from './harness.ts';

const { e } = e2eForFile({ certs: false });
const dir = mkdtempSync(join(tmpdir(), 'edgeops-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STACK = 'targets';
const DOCS: Doc[] = [
  { kind: 'TunnelGroupBackend', name: 'web', labels: { app: 'web' } },
  { kind: 'HTTPResponseBackend', name: 'maint', body: 'down', status_code: 503 },
  { kind: 'IPPolicy', name: 'office', description: 'office networks' },
  { kind: 'IPPolicyRule', name: 'office-v4', cidr: '203.0.113.0/24', ip_policy_id: 'office', action: 'allow' },
  { kind: 'TCPEdge', name: 'ssh', hostports: ['t1.tcp.example.com:20001'], backend: { backend_id: 'web' }, ip_restriction: { ip_policy_ids: ['office'] } },
  { kind: 'TCPEdge', name: 'db', hostports: ['t1.tcp.example.com:20002'], backend: { backend_id: 'maint' } },
];

async function plan(docs: Doc[], targets?: string[]): Promise<PlanContext> {
  writeFileSync(join(dir, 'all.yaml'), docs.map((d) => stringify(d)).join('---\n'));
  return computePlan(await loadDesired([dir], {}), e.api, { stack: STACK, targets });
}

async function apply(ctx: PlanContext): Promise<void> {
  const result = await executePlan(ctx, e.api, { stack: STACK, concurrency: 4 });
  expect(result.results.filter((r) => r.status !== 'done')).toEqual([]);
}

/** Every live resource of the stack, by its marker. */
async function managed(): Promise<string[]> {
  const lists: [string, string][] = [['/backends/tunnel_group', 'backends'], ['/backends/http_response', 'backends'], ['/ip_policies', 'ip_policies'], ['/ip_policy_rules', 'ip_policy_rules'], ['/edges/tcp', 'tcp_edges']];
  const items = (await Promise.all(lists.map(([path, key]) => listRaw(e, path, key)))).flat();
  return items.map((i) => ownerOf(i, STACK)).filter((a): a is string => a !== undefined).sort();
}

const checksum = (ctx: PlanContext): string => planChecksum(ctx.plan, secretsOfKinds(KINDS), Buffer.alloc(32));

describe('--target', () => {
  it('on an edge plans the edge and its backend only, and applying it creates only those', async () => {
    const { plan: targeted } = await plan(DOCS, ['TCPEdge/db']);
    expect(planLines(targeted)).toEqual(['create HTTPResponseBackend/maint', 'create TCPEdge/db']);
    expect(targeted.targets).toEqual({ addresses: ['TCPEdge/db'], resources: 2, of: 6 });
    expect(targeted.summary).toEqual({ create: 2, update: 0, replace: 0, delete: 0 });
    await apply(await plan(DOCS, ['TCPEdge/db']));
    expect(await managed()).toEqual(['HTTPResponseBackend/maint', 'TCPEdge/db']);
  });

  it('follows what a target references, not what references it: an edge keeps its IP policy, not the policy\'s rules', async () => {
    const { plan: targeted } = await plan(DOCS, ['TCPEdge/ssh']);
    expect(planLines(targeted).sort()).toEqual(['create IPPolicy/office', 'create TCPEdge/ssh', 'create TunnelGroupBackend/web']);
    expect(targeted.targets).toEqual({ addresses: ['TCPEdge/ssh'], resources: 3, of: 6 });
    // The edge's wait for the rules (complete before referenced) is cut, and said.
    expect(targeted.actions.find((a) => a.address === 'TCPEdge/ssh')!.dependsOn.sort()).toEqual(['create:IPPolicy/office', 'create:TunnelGroupBackend/web']);
    expect(targeted.warnings).toEqual([
      'TCPEdge/ssh: in the full plan it waits for create IPPolicyRule/office-v4, which --target leaves out; the targeted apply runs without it (add --target IPPolicyRule/office-v4 to include it)',
    ]);
    const { plan: policy } = await plan(DOCS, ['IPPolicy/office']);
    expect(planLines(policy)).toEqual(['create IPPolicy/office']);
  });

  it('never deletes anything else, and plans only the delete of a target whose document is gone', async () => {
    await apply(await plan(DOCS));
    expect(await managed()).toEqual(DOCS.map((d) => `${d.kind}/${d.name}`).sort());
    const fewer = without(DOCS, 'TCPEdge/db', 'IPPolicyRule/office-v4');
    expect(planLines((await plan(fewer)).plan).sort()).toEqual(['delete IPPolicyRule/office-v4', 'delete TCPEdge/db']);

    const { plan: targeted } = await plan(fewer, ['TCPEdge/db']);
    expect(planLines(targeted)).toEqual(['delete TCPEdge/db']);
    expect(targeted.targets).toEqual({ addresses: ['TCPEdge/db'], resources: 1, of: 6 });
    // Targeting the edge that stays plans nothing: the rule's delete is not its business.
    expect(planLines((await plan(fewer, ['TCPEdge/ssh'])).plan)).toEqual([]);

    await apply(await plan(fewer, ['TCPEdge/db']));
    expect(await managed()).toEqual(without(DOCS, 'TCPEdge/db').map((d) => `${d.kind}/${d.name}`).sort());
    await apply(await plan(fewer));
    expect(planLines((await plan(fewer)).plan)).toEqual([]);
  });

  it('refuses a target that names nothing, naming the close matches', async () => {
    const refusal = (targets: string[]): Promise<unknown> => plan(DOCS, targets).then(() => undefined, (err: unknown) => err);
    const err = await refusal(['TCPEdge/shh', 'TunnelGroupBackend/web']);
    expect(err).toBeInstanceOf(EdgeopsError);
    expect((err as EdgeopsError).code).toBe('E_UNKNOWN_TARGET');
    const says = (target: string, hint: string): string =>
      `--target ${target} names no resource of stack "targets": no document has that Kind/name, and no live resource of the stack carries it${hint}`;
    expect((err as Error).message).toBe(says('TCPEdge/shh', ' (did you mean TCPEdge/ssh?)'));
    // A kind mistyped, or the name under another kind; and nothing close at all.
    expect(((await refusal(['TcpEdge/db', 'TLSEdge/ssh', 'IPPolicy/nowhere'])) as Error).message).toBe([
      says('IPPolicy/nowhere', ''),
      says('TLSEdge/ssh', ' (did you mean TCPEdge/ssh?)'),
      says('TcpEdge/db', ' (did you mean TCPEdge/db?)'),
    ].join('\n'));
  });

  it('gives plans of different targets different checksums, even when they hold the same actions', async () => {
    await apply(await plan(DOCS));
    const changed = DOCS.map((d) => (d.name === 'maint' ? { ...d, body: 'back soon' } : d));
    const backend = await plan(changed, ['HTTPResponseBackend/maint']);
    const both = await plan(changed, ['HTTPResponseBackend/maint', 'TCPEdge/db']);
    const full = await plan(changed);
    expect(planLines(backend.plan)).toEqual(planLines(both.plan));
    expect(planLines(backend.plan)).toEqual(planLines(full.plan));
    const sums = new Set([checksum(backend), checksum(both), checksum(full)]);
    expect(sums.size).toBe(3);
    // The order targets are given in is no difference.
    expect(checksum(await plan(changed, ['TCPEdge/db', 'HTTPResponseBackend/maint']))).toBe(checksum(both));
  });
});
