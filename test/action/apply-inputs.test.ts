// The apply inputs, run as a process on push events against the real service: `allow-deletes` lets a plan over
// edgeops.yaml's max_deletes through (without it the job fails naming the count), and `adopt` adopts a resource
// made by hand instead of creating a second one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { api, serviceForFile } from '../helpers/service.ts';
import { push, runAction, workspace, type Doc } from './harness.ts';

const { svc } = serviceForFile();
// No pull request stands behind these pushes: on-stale: replan applies the fresh plan (review-to-apply.test.ts
// has the reviewed case).
const inputs = (extra: Record<string, string> = {}) => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, 'on-stale': 'replan', ...extra });
const policy = (name: string): Doc => ({ kind: 'IPPolicy', name, description: `policy ${name}` });

async function described(prefix: string): Promise<string[]> {
  const all = (await api(svc).listAll('/ip_policies', 'ip_policies')) as { description?: string }[];
  return all.map((p) => p.description ?? '').filter((d) => d.startsWith(prefix)).sort();
}

describe('apply inputs', () => {
  it('allow-deletes: a plan over max_deletes fails the job without it, and is applied with it', async () => {
    const ws = workspace('deletes');
    try {
      writeFileSync(join(ws.dir, 'infra', 'edgeops.yaml'), 'stack: deletes\nmax_deletes: 1\n');
      ws.write([policy('a'), policy('b'), policy('c')]);
      const created = await runAction({ event: push('main'), inputs: inputs(), cwd: ws.dir });
      expect(created.code, created.stdout + created.stderr).toBe(0);
      expect(await described('policy ')).toEqual(['policy a', 'policy b', 'policy c']);

      ws.write([policy('a')]);
      const refused = await runAction({ event: push('main'), inputs: inputs(), cwd: ws.dir });
      expect(refused.code).toBe(1);
      expect(refused.outputs.summary).toContain('it deletes 2 resources, more than max_deletes (1)');
      expect(refused.outputs.summary).toContain('In the action: allow-deletes: true.');
      expect(refused.stdout).toMatch(/^::error::edgeops apply failed: refusing to apply this plan/m);
      expect(await described('policy ')).toEqual(['policy a', 'policy b', 'policy c']);

      const allowed = await runAction({ event: push('main'), inputs: inputs({ 'allow-deletes': 'true' }), cwd: ws.dir });
      expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
      expect(allowed.stdout).toMatch(/^\$ edgeops apply infra --checksum sha256:[0-9a-f]{64} --allow-deletes$/m);
      expect(allowed.outputs.summary).toBe('Apply complete: 0 created, 0 updated, 0 replaced, 2 deleted (stack deletes).');
      expect(await described('policy ')).toEqual(['policy a']);
    } finally {
      ws.dispose();
    }
  });

  it('adopt: a resource made by hand is adopted, not created again', async () => {
    const made = await api(svc).post('/backends/tunnel_group', { labels: { app: 'legacy' } });
    expect(made.status, made.text).toBe(201);
    const ws = workspace('adopting');
    try {
      ws.write([{ kind: 'TunnelGroupBackend', name: 'legacy', labels: { app: 'legacy' } }]);
      const run = await runAction({ event: push('main'), inputs: inputs({ adopt: 'true' }), cwd: ws.dir });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^\$ edgeops apply infra --adopt --checksum sha256:[0-9a-f]{64}$/m);
      expect(JSON.parse(run.tempFiles['edgeops-plan-adopting.json']!).resources[0]).toMatchObject({ action: 'update', adopt: 'labels {"app":"legacy"}' });
      const backends = (await api(svc).listAll('/backends/tunnel_group', 'backends')) as { id: string; metadata?: string }[];
      expect(backends.map((b) => b.id)).toEqual([made.body.id]);
      expect(parseMetadata(backends[0]!.metadata).marker).toEqual({ stack: 'adopting', name: 'TunnelGroupBackend/legacy' });
    } finally {
      ws.dispose();
    }
  });
});
