// Manifest problems as annotations on their lines: `::error file=...,line=...,col=...::` with the file relative
// to the workspace, from the CLI's --json-out error document, so they show on the pull request's diff.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { gitHubForFile, pullRequest, runAction, schedule, workspace } from './harness.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
const inputs = (extra: Record<string, string> = {}) => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, ...extra });

const BAD = [
  'kind: IPPolicy',
  'name: office',
  '---',
  'kind: TCPEdge',
  'name: ssh',
  'hostports: ["1.tcp.example.com:20001"]',
  'bakend: {backend_id: web}',
  '---',
  'kind: IPPolicyRule',
  'name: v4',
  'ip_policy_id: no-such-policy',
  'cidr: 10.0.0.0/8',
  'action: allow',
  '',
].join('\n');

describe('annotations', () => {
  it('every manifest problem is an error annotation with file, line and column', async () => {
    const ws = workspace('annotated');
    try {
      writeFileSync(join(ws.dir, 'infra', 'all.yaml'), BAD);
      const run = await runAction({ event: pullRequest(41, '1'.repeat(40)), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code).toBe(1);
      const located = run.stdout.split('\n').filter((l) => l.startsWith('::error file='));
      expect(located.length).toBeGreaterThanOrEqual(2);
      expect(located.some((l) => /^::error file=infra\/all\.yaml,line=7,col=1,title=edgeops::TCPEdge\/ssh: .*bakend/.test(l))).toBe(true);
      expect(located.some((l) => /^::error file=infra\/all\.yaml,line=11,col=\d+,title=edgeops::IPPolicyRule\/v4: .*no-such-policy/.test(l))).toBe(true);
      // The overall failure is still there, without a location.
      expect(run.stdout).toMatch(/^::error::edgeops plan failed: \d+ problems in the manifests$/m);
    } finally {
      ws.dispose();
    }
  });

  it('paths are relative to the workspace when edgeops runs in a working directory, for drift too', async () => {
    const ws = workspace('annotated-sub');
    try {
      mkdirSync(join(ws.dir, 'deploy'));
      const sub = join(ws.dir, 'deploy');
      mkdirSync(join(sub, 'infra'));
      writeFileSync(join(sub, 'infra', 'edge.yaml'), BAD);
      const run = await runAction({ event: schedule(), inputs: inputs({ 'working-directory': 'deploy', 'drift-issue': 'false' }), cwd: ws.dir, github: gh });
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^::error file=deploy\/infra\/edge\.yaml,line=7,col=1,title=edgeops::TCPEdge\/ssh: /m);
    } finally {
      ws.dispose();
    }
  });
});
