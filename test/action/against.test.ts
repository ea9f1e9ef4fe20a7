// Input `against`: a job with no API key and no service URL (a pull request from a fork) plans against a
// snapshot that a trusted job took with `edgeops export --snapshot`, and still gets the plan comment. The live
// state is changed after the snapshot, so a plan that reached the service would show it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeops, output } from '../cli/run.ts';
import { api, serviceForFile } from '../helpers/service.ts';
import { gitHubForFile, pullRequest, push, runAction, schedule, workspace, type Doc, type Workspace } from './harness.ts';

const STACK = 'fork-stack';
const MARKER = `<!-- edgeops-plan:${STACK} -->`;
const SHA = 'abcdef0123456789abcdef0123456789abcdef01';

const base: Doc[] = [
  { kind: 'IPPolicy', name: 'office', description: 'office networks' },
  { kind: 'IPPolicyRule', name: 'office-v4', description: 'office v4', ip_policy_id: 'office', cidr: '203.0.113.0/24', action: 'allow' },
  { kind: 'TunnelGroupBackend', name: 'web', description: 'web tier', labels: { app: 'web' } },
];
// The fork's change: one rule's description, and a new backend.
const proposed: Doc[] = [base[0]!, { ...base[1]!, description: 'office v4, renumbered' }, base[2]!, { kind: 'TunnelGroupBackend', name: 'api', labels: { app: 'api' } }];

const { svc } = serviceForFile();
const gh = gitHubForFile();
let ws: Workspace;
let takenAt: string;

beforeAll(async () => {
  ws = workspace(STACK);
  ws.write(base);
  // What the trusted jobs do: apply on the default branch, then take the snapshot with the key.
  const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: STACK };
  const applied = await edgeops(['apply', 'infra', '--auto-approve'], { cwd: ws.dir, env });
  expect(applied.code, output(applied)).toBe(0);
  const exported = await edgeops(['export', '--snapshot', 'live.json'], { cwd: ws.dir, env });
  expect(exported.code, output(exported)).toBe(0);
  takenAt = JSON.parse(readFileSync(join(ws.dir, 'live.json'), 'utf8')).taken_at;
  // Live state moves on after the snapshot: only a plan against the service would see this edit.
  const c = api(svc);
  const [office] = (await c.listAll('/ip_policies', 'ip_policies')) as { id: string }[];
  expect((await c.patch(`/ip_policies/${office!.id}`, { description: 'edited after the snapshot' })).status).toBe(200);
});
afterAll(() => ws.dispose());

describe('against: a snapshot instead of the service', () => {
  it('a pull_request run with no API key posts the plan comment, planned against the snapshot', async () => {
    ws.write(proposed);
    const run = await runAction({ event: pullRequest(21, SHA), inputs: { path: 'infra', against: 'live.json' }, cwd: ws.dir, github: gh });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('edgeops plan (from the pull_request event) on infra against the snapshot live.json');

    const comments = gh.comments(21);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body.startsWith(MARKER)).toBe(true);
    expect(body).toContain('+ TunnelGroupBackend/api');
    expect(body).toContain('!     description: "office v4" -> "office v4, renumbered"');
    // The policy edited live after the snapshot is not in the plan: the service was never asked.
    expect(body).not.toMatch(/^\S IPPolicy\/office\s/m);
    expect(body).not.toContain('edited after the snapshot');
    expect(body).toContain('Plan: 1 to create, 1 to update, 0 to replace, 0 to delete.');
    expect(body).toContain(`edgeops plan against the snapshot \`live.json\` taken ${takenAt.replace(/\.\d{3}Z$/, 'Z')} for \`abcdef0\``);

    const json = JSON.parse(run.tempFiles[`edgeops-plan-${STACK}.json`]!);
    expect(json.resources.map((r: { address: string }) => r.address).sort()).toEqual(['IPPolicyRule/office-v4', 'TunnelGroupBackend/api']);
    expect(run.outputs['has-changes']).toBe('true');
    expect(run.outputs.summary).toBe(`Plan for stack ${STACK}: 1 to create, 1 to update, 0 to replace, 0 to delete.`);
  });

  it('drift on a schedule compares with the snapshot too', async () => {
    ws.write(base);
    const run = await runAction({ event: schedule(), inputs: { path: 'infra', against: 'live.json', 'fail-on-drift': 'true' }, cwd: ws.dir });
    // The service has drifted (the description edited after the snapshot); the snapshot has not.
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs['has-changes']).toBe('false');
    expect(run.outputs.summary).toBe(`No drift on stack ${STACK}: live state matches the manifests.`);
  });

  it('refuses against on apply, which needs the service, before running anything', async () => {
    ws.write(proposed);
    const before = await api(svc).listAll('/backends/tunnel_group', 'backends');
    const run = await runAction({ event: push('main'), inputs: { path: 'infra', against: 'live.json' }, cwd: ws.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error::edgeops action: input against plans from a snapshot, which apply cannot use: it changes the live service \(apply follows from the push event on refs\/heads\/main\)\. Use against with plan or drift$/m);
    expect(run.stdout).not.toContain('$ edgeops');
    expect(await api(svc).listAll('/backends/tunnel_group', 'backends')).toEqual(before);
  });
});
