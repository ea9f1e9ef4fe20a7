// plan and apply as child processes against the real service (startTestService), on a temporary copy of
// examples/basic: creates, convergence, every kind of change, the confirmation rule and exit codes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { copyExample, edgeops } from './run.ts';

let svc: TestService;
const example = copyExample('basic');
const env = () => ({ EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey });

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
  example.dispose();
});

function edit(file: string, from: string, to: string): void {
  const path = join(example.dir, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

describe('plan and apply against a service', () => {
  it('plans every resource as a create, in each format, and exits 2 with --detailed-exitcode', async () => {
    const text = await edgeops(['plan', example.dir, '--detailed-exitcode'], { env: env() });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('edgeops will perform these actions on stack "example-basic":');
    expect(text.stdout).toContain('  + TCPEdge/ssh\n');
    expect(text.stdout).toContain('      + hostports: ["1.tcp.example.com:20001"]\n');
    expect(text.stdout).toContain('Plan: 8 to create, 0 to update, 0 to replace, 0 to delete.\n');

    const json = await edgeops(['plan', example.dir, '--format', 'json'], { env: env() });
    expect(json.code).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.format_version).toBe(2);
    expect(plan.stack).toBe('example-basic');
    expect(plan.summary).toEqual({ create: 8, update: 0, replace: 0, delete: 0 });
    expect(plan.resources.map((r: { address: string }) => r.address).sort()).toEqual([
      'HTTPResponseBackend/maintenance', 'IPPolicy/office', 'IPPolicyRule/blocked-host', 'IPPolicyRule/office-v4',
      'IPPolicyRule/office-v6', 'TCPEdge/db', 'TCPEdge/ssh', 'TunnelGroupBackend/bastion',
    ]);

    const md = await edgeops(['plan', example.dir, '--format', 'markdown'], { env: env() });
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('| 8 | 0 | 0 | 0 |');
    expect(md.stdout).toContain('```diff\n+ ');
  });

  it('refuses to apply without --auto-approve when stdin is not a terminal, changing nothing', async () => {
    const r = await edgeops(['apply', example.dir], { env: env(), input: 'yes\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('refusing to apply without confirmation');
    expect(r.stderr).toContain('--auto-approve');
    const again = await edgeops(['plan', example.dir, '--detailed-exitcode'], { env: env() });
    expect(again.code).toBe(2);
    expect(again.stdout).toContain('Plan: 8 to create');
  });

  it('applies, printing a line per action and the summary, then the plan is empty (exit 0)', async () => {
    const r = await edgeops(['apply', example.dir, '--auto-approve'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^created TunnelGroupBackend\/bastion/m);
    expect(r.stdout).toMatch(/^created TCPEdge\/ssh/m);
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stdout).toContain('Apply complete: 8 created, 0 updated, 0 replaced, 0 deleted.\n');

    const plan = await edgeops(['plan', example.dir, '--detailed-exitcode'], { env: env() });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    const apply = await edgeops(['apply', example.dir], { env: env() });
    expect(apply.code).toBe(0); // nothing to do: no confirmation needed
    expect(apply.stdout).toContain('No changes.');
  });

  it('shows an update, a replace, a module delete and a delete, applies them and converges', async () => {
    edit('ip-policy.yaml', 'description: office networks', 'description: office and VPN networks');
    edit('ip-policy.yaml', 'cidr: 203.0.113.66/32\nip_policy_id: office\naction: deny', 'cidr: 203.0.113.66/32\nip_policy_id: office\naction: allow');
    edit('edges.yaml', 'ip_restriction: {ip_policy_ids: [office]}\n', '');
    edit('edges.yaml', '---\nkind: TCPEdge\nname: db\n', '---\nkind: TunnelGroupBackend\nname: spare\nlabels: {app: spare}\n---\nkind: TCPEdge\nname: dbx\n');
    edit('edges.yaml', '1.tcp.example.com:20002', '1.tcp.example.com:20003');
    const plan = await edgeops(['plan', example.dir, '--detailed-exitcode'], { env: env() });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('  ~ IPPolicy/office  # ipp_');
    expect(plan.stdout).toContain('      ~ description: "office networks" -> "office and VPN networks"\n');
    expect(plan.stdout).toMatch(/  -\/\+ IPPolicyRule\/blocked-host \(replace: [^)]*action[^)]*\)  # ipr_/);
    expect(plan.stdout).toContain('      ~ action: "deny" -> "allow"\n');
    expect(plan.stdout).toMatch(/  ~ TCPEdge\/ssh  # edgtcp_\w+\n      - module ip_restriction \(delete\)\n/);
    expect(plan.stdout).toMatch(/  - TCPEdge\/db  # edgtcp_/);
    expect(plan.stdout).toContain('  + TCPEdge/dbx\n');
    expect(plan.stdout).toContain('Plan: 2 to create, 2 to update, 1 to replace, 1 to delete.\n');

    const apply = await edgeops(['apply', example.dir, '--auto-approve'], { env: env() });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toMatch(/^deleted TCPEdge\/db \(edgtcp_\w+\)$/m);
    expect(apply.stdout).toMatch(/^replaced IPPolicyRule\/blocked-host/m);
    expect(apply.stdout).toContain('Apply complete: 2 created, 2 updated, 1 replaced, 1 deleted.\n');

    const after = await edgeops(['plan', example.dir, '--detailed-exitcode'], { env: env() });
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('No changes.');
  });

  it('keeps stacks apart: another stack plans every resource as a create and touches nothing', async () => {
    const other = await edgeops(['plan', example.dir, '--stack', 'other', '--format', 'json'], { env: env() });
    // Its edges would claim hostports the first stack's edges hold: plan errors, and the plan all the same.
    expect(other.code).toBe(1);
    const plan = JSON.parse(other.stdout);
    expect(plan.resources.every((r: { action: string }) => r.action === 'create')).toBe(true);
    expect(plan.errors.length).toBeGreaterThan(0);
    for (const e of plan.errors) expect(e.message).toMatch(/^hostport ".+" is held by \w+Edge\/\w+ \(stack example-basic\)/);
    const mine = await edgeops(['plan', example.dir, '--detailed-exitcode'], { env: env() });
    expect(mine.code).toBe(0);
  });
});
