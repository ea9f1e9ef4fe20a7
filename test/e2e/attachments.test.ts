// What others attach to a stack's resources, end to end through the CLI against the real service: a rule added
// by hand to a managed IP policy is reported (plan warns, drift exits 2 naming it), deleted by apply once the
// stack is authoritative for its children (the plan shows the delete and why); and a plan deleting a policy
// that a resource outside the stack still references (unmarked, or another stack's) is a plan error: plan exits
// 1 naming the referrer, and apply writes nothing, not even its lock record (every write goes through a
// request log in front of the service).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeops, type RunResult } from '../cli/run.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { startRequestLog, type RequestLog } from '../support/round-robin-proxy.ts';

let svc: TestService;
let log: RequestLog;
let http: ApiClient;
const root = mkdtempSync(join(tmpdir(), 'edgeops-attachments-'));

const run = (dir: string, args: string[]): Promise<RunResult> =>
  edgeops(args, { cwd: dir, env: { EDGEOPS_API_URL: log.url, EDGEOPS_API_KEY: svc.apiKey, NO_COLOR: '1' } });

/** A stack's directory: edgeops.yaml with these settings, m.yaml with these lines. */
function stackDir(name: string, settings: string[], lines: string[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'edgeops.yaml'), `${settings.join('\n')}\n`);
  writeFileSync(join(dir, 'm.yaml'), `${lines.join('\n')}\n`);
  return dir;
}

/** A backend that stays, so that removing the policy is no destroy of the stack. */
const backend = (stack: string): string[] => ['kind: TunnelGroupBackend', 'name: web', `labels: {app: ${stack}}`];
const office = (stack: string): string[] => [
  ...backend(stack),
  '---', 'kind: IPPolicy', 'name: office', `description: ${stack} office networks`,
  '---', 'kind: IPPolicyRule', 'name: lan', 'ip_policy_id: office', 'cidr: 10.1.0.0/16', 'action: allow',
];
/** The stack without its policy. */
const withoutPolicy = (dir: string, stack: string): void => writeFileSync(join(dir, 'm.yaml'), `${backend(stack).join('\n')}\n`);

async function post(path: string, body: object): Promise<string> {
  const r = await http.post(path, body);
  expect(r.status, r.text).toBe(201);
  return (r.body as { id: string }).id;
}

/** The live id of a stack's resource, by its marker. */
async function managedId(path: string, key: string, stack: string, address: string): Promise<string> {
  const items = (await http.listAll(path, key)) as { id: string; metadata?: string }[];
  const found = items.filter((i) => i.metadata && (JSON.parse(i.metadata) as { edgeops?: { stack: string; name: string } }).edgeops?.name === address
    && (JSON.parse(i.metadata) as { edgeops: { stack: string } }).edgeops.stack === stack);
  expect(found).toHaveLength(1);
  return found[0]!.id;
}

async function applied(dir: string): Promise<void> {
  const r = await run(dir, ['apply', '.', '--auto-approve']);
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(async () => {
  svc = await startTestService();
  log = await startRequestLog(svc.url, async () => undefined);
  http = api(svc);
});
afterAll(async () => {
  await log.close();
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a rule added by hand to a managed IP policy', () => {
  it('is reported by plan and drift, and deleted by apply once the stack is authoritative for its children', async () => {
    const dir = stackDir('hand-rule', ['stack: hand'], office('hand'));
    await applied(dir);
    const policy = await managedId('/ip_policies', 'ip_policies', 'hand', 'IPPolicy/office');
    const rule = await post('/ip_policy_rules', { ip_policy_id: policy, cidr: '0.0.0.0/0', action: 'allow' });
    const warning = `unmanaged IPPolicyRule ${rule} 0.0.0.0/0 allow is one of the rules of IPPolicy/office (ip_policy_id): apply leaves it (\`authoritative: children\` in edgeops.yaml makes apply delete it)`;

    const plan = await run(dir, ['plan', '.', '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout).toContain(`Warning: ${warning}`);
    const json = JSON.parse((await run(dir, ['plan', '.', '--format', 'json'])).stdout) as { warnings: string[] };
    expect(json.warnings).toContain(warning);
    expect((await run(dir, ['plan', '.', '--format', 'markdown'])).stdout).toContain('> **Warning:** unmanaged IPPolicyRule');

    const drift = await run(dir, ['drift', '.']);
    expect(drift.code, drift.stderr).toBe(2);
    expect(drift.stdout).toContain(`unmanaged IPPolicyRule 0.0.0.0/0 allow (${rule}): apply leaves it`);
    expect(drift.stdout).toContain('unmanaged  one of the rules of IPPolicy/office (ip_policy_id); managed by no stack');
    expect(drift.stdout).not.toContain('Warning:');
    const driftJson = JSON.parse((await run(dir, ['drift', '.', '--format', 'json'])).stdout) as {
      in_sync: boolean; resources: { live_id: string; apply: string; findings: { direction: string; action: string; attachment: Record<string, unknown> }[] }[];
    };
    expect(driftJson.in_sync).toBe(false);
    expect(driftJson.resources).toEqual([expect.objectContaining({ live_id: rule, apply: 'none' })]);
    expect(driftJson.resources[0]!.findings).toEqual([expect.objectContaining({
      direction: 'unmanaged', action: 'none',
      attachment: { id: rule, kind: 'IPPolicyRule', summary: '0.0.0.0/0 allow', stack: null, name: null, relation: 'part', field: 'ip_policy_id', touches: 'IPPolicy/office', touches_id: policy },
    })]);

    // Authoritative: the plan deletes it, saying why, within the delete limits; apply does; drift is clean.
    writeFileSync(join(dir, 'edgeops.yaml'), 'stack: hand\nauthoritative: children\n');
    const reason = 'not in the manifests; the stack is authoritative for the rules of IPPolicy/office';
    const pruning = await run(dir, ['plan', '.']);
    expect(pruning.code, pruning.stderr).toBe(0);
    expect(pruning.stdout).toContain(`  - unmanaged IPPolicyRule 0.0.0.0/0 allow (${reason})  # ${rule}`);
    expect(pruning.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 1 to delete.');
    expect(pruning.stdout).not.toContain('Warning:');
    const pruningJson = JSON.parse((await run(dir, ['plan', '.', '--format', 'json'])).stdout) as { resources: { action: string; live_id: string; reason: string }[] };
    expect(pruningJson.resources).toEqual([expect.objectContaining({ action: 'delete', live_id: rule, reason })]);
    const pruningDrift = JSON.parse((await run(dir, ['drift', '.', '--format', 'json'])).stdout) as { resources: { apply: string; reason: string; findings: { action: string }[] }[] };
    expect(pruningDrift.resources).toEqual([expect.objectContaining({ apply: 'delete', reason, findings: [expect.objectContaining({ action: 'delete' })] })]);

    // A saved plan carries the delete like any other.
    expect((await run(dir, ['plan', '.', '--out', 'saved.json'])).code).toBe(0);
    const apply = await run(dir, ['apply', '.', '--plan', 'saved.json']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain(`deleted unmanaged IPPolicyRule 0.0.0.0/0 allow (${rule})`);
    expect((await http.get(`/ip_policy_rules/${rule}`)).status).toBe(404);
    expect((await run(dir, ['drift', '.'])).code).toBe(0);
  });

  it('a route added by hand to a managed HTTPS edge is one of its routes, deleted the same way', async () => {
    const dir = stackDir('hand-route', ['stack: hand-route', 'authoritative: children'], ['kind: HTTPSEdge', 'name: www', 'hostports: ["www.example.com:443"]']);
    await applied(dir);
    const edge = await managedId('/edges/https', 'https_edges', 'hand-route', 'HTTPSEdge/www');
    const route = await post(`/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/admin' });
    const plan = await run(dir, ['plan', '.']);
    expect(plan.stdout).toContain(`  - unmanaged HTTPSEdgeRoute path_prefix /admin (not in the manifests; the stack is authoritative for the routes of HTTPSEdge/www)  # ${route}`);
    await applied(dir);
    expect((await http.get(`/edges/https/${edge}/routes/${route}`)).status).toBe(404);
    expect((await http.get(`/edges/https/${edge}`)).status).toBe(200);
  });

  it('a delete limit counts such deletes like any other', async () => {
    const dir = stackDir('limit', ['stack: limit', 'authoritative: children', 'max_deletes_per_kind: {IPPolicyRule: 0}'], office('limit'));
    await applied(dir);
    const policy = await managedId('/ip_policies', 'ip_policies', 'limit', 'IPPolicy/office');
    const rule = await post('/ip_policy_rules', { ip_policy_id: policy, cidr: '192.0.2.0/24', action: 'deny' });
    log.writes.length = 0;
    const apply = await run(dir, ['apply', '.', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('max_deletes_per_kind.IPPolicyRule (0)');
    expect((await http.get(`/ip_policy_rules/${rule}`)).status).toBe(200);
  });
});

describe('deleting a policy a resource outside the stack references is a plan error; apply writes nothing', () => {
  async function expectRefused(dir: string, message: string): Promise<void> {
    log.writes.length = 0;
    const plan = await run(dir, ['plan', '.']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(`Error: IPPolicy/office: ${message}`);
    expect(plan.stdout).toContain('Plan has 1 error; apply would be refused.');
    const json = JSON.parse((await run(dir, ['plan', '.', '--format', 'json'])).stdout) as { errors: { file: string; address: string; message: string }[] };
    expect(json.errors).toEqual([{ file: '', line: 0, col: 0, address: 'IPPolicy/office', message }]);
    const apply = await run(dir, ['apply', '.', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(`IPPolicy/office: ${message}`);
    // Not one write: no delete, and no lock record.
    expect(log.writes).toEqual([]);
  }

  it('an unmanaged edge restricted by the policy', async () => {
    const dir = stackDir('referenced', ['stack: referenced'], office('referenced'));
    await applied(dir);
    const policy = await managedId('/ip_policies', 'ip_policies', 'referenced', 'IPPolicy/office');
    const edge = await post('/edges/tcp', { hostports: ['5.tcp.example.com:25001'], ip_restriction: { ip_policy_ids: [policy] } });

    // Kept: reported as what it is.
    const plan = await run(dir, ['plan', '.']);
    expect(plan.stdout).toContain(`Warning: unmanaged TCPEdge ${edge} 5.tcp.example.com:25001 references IPPolicy/office (ip_restriction.ip_policy_ids): apply leaves it`);

    withoutPolicy(dir, 'referenced');
    await expectRefused(dir,
      `this plan deletes it, but the unmanaged TCPEdge ${edge} (5.tcp.example.com:25001) references it (ip_restriction.ip_policy_ids), ` +
      'and the service refuses to delete a resource still referenced (409 ERR_RESOURCE_IN_USE): remove the reference there first');
    expect((await http.get(`/ip_policies/${policy}`)).status).toBe(200);

    // Once the edge lets go, the same manifests apply.
    expect((await http.del(`/edges/tcp/${edge}/ip_restriction`)).status).toBe(204);
    await applied(dir);
    expect((await http.get(`/ip_policies/${policy}`)).status).toBe(404);
  });

  it("another stack's edge restricted by the policy, named by Kind/name and stack", async () => {
    const dir = stackDir('shared', ['stack: shared'], office('shared'));
    await applied(dir);
    const other = stackDir('borrower', ['stack: borrower'], []);
    const policy = await managedId('/ip_policies', 'ip_policies', 'shared', 'IPPolicy/office');
    writeFileSync(join(other, 'm.yaml'), ['kind: TCPEdge', 'name: ssh', 'hostports: ["5.tcp.example.com:25002"]', `ip_restriction: {ip_policy_ids: [${policy}]}`].join('\n'));
    await applied(other);

    const plan = await run(dir, ['plan', '.']);
    expect(plan.stdout).toContain('Warning: TCPEdge/ssh (stack borrower) references IPPolicy/office (ip_restriction.ip_policy_ids): apply leaves it');

    withoutPolicy(dir, 'shared');
    await expectRefused(dir,
      'this plan deletes it, but TCPEdge/ssh (stack borrower) references it (ip_restriction.ip_policy_ids), ' +
      'and the service refuses to delete a resource still referenced (409 ERR_RESOURCE_IN_USE): remove the reference in stack borrower first');
  });

  it('a rule added by hand blocks the delete too, unless the stack is authoritative for its children', async () => {
    const dir = stackDir('ruled', ['stack: ruled'], office('ruled'));
    await applied(dir);
    const policy = await managedId('/ip_policies', 'ip_policies', 'ruled', 'IPPolicy/office');
    const rule = await post('/ip_policy_rules', { ip_policy_id: policy, cidr: '0.0.0.0/0', action: 'allow' });
    withoutPolicy(dir, 'ruled');
    await expectRefused(dir,
      `this plan deletes it, but the unmanaged IPPolicyRule ${rule} (0.0.0.0/0 allow) references it (ip_policy_id), ` +
      'and the service refuses to delete a resource still referenced (409 ERR_RESOURCE_IN_USE): ' +
      'delete it there first, or set `authoritative: children` in edgeops.yaml so that apply deletes it');

    writeFileSync(join(dir, 'edgeops.yaml'), 'stack: ruled\nauthoritative: children\n');
    const apply = await run(dir, ['apply', '.', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    // The unmarked rule goes before its policy.
    const deletes = log.writes.filter((w) => w.method === 'DELETE').map((w) => w.path);
    expect(deletes).toContain(`/ip_policy_rules/${rule}`);
    expect(deletes.indexOf(`/ip_policy_rules/${rule}`)).toBeLessThan(deletes.indexOf(`/ip_policies/${policy}`));
    expect((await http.get(`/ip_policies/${policy}`)).status).toBe(404);
  });
});
