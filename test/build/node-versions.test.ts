// The supported Node versions, each fetched from the npm registry (scripts/fetch-node.ts) unless it is the one
// running: 22 and 24 run the embedded service on node:sqlite, with nothing on stderr (Node 22 marks node:sqlite
// experimental and would say so; the driver keeps that one warning quiet). The whole suite runs on the
// machine's Node and on Node 24 (`npm run test:node24`); this is Node 22's share, and a quick look at 24's.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchNode } from '../../scripts/fetch-node.ts';
import { cleanEnv, copyExample, ROOT } from '../cli/run.ts';
import { api } from '../helpers/service.ts';
import { nodeVersion, startServe } from './serve-process.ts';

const temp = mkdtempSync(join(tmpdir(), 'edgeops-node-versions-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const nodeOf = (major: number): Promise<string> => (Number(process.versions.node.split('.')[0]) === major ? Promise.resolve(process.execPath) : fetchNode(major));

function cli(node: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(node, [join(ROOT, 'bin/edgeops.js'), ...args], { cwd, env: cleanEnv({ NO_COLOR: '1' }) }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe.each([22, 24])('Node %i', (major) => {
  it('serves on node:sqlite and converges --local, printing no warning', async () => {
    const node = await nodeOf(major);
    expect(await nodeVersion(node)).toMatch(new RegExp(`^v${major}\\.`));
    const s = await startServe(node, ['--port', '0', '--api-key', 'k', '--db', join(temp, `node${major}.db`)]);
    try {
      expect(s.storage).toContain('sqlite (node:sqlite)');
      const c = api({ url: s.url, apiKey: 'k' });
      const made = await c.post('/ip_policies', { description: `node ${major}` });
      expect(made.status, made.text).toBe(201);
      expect((await c.get(`/ip_policies/${made.body.id}`)).body.description).toBe(`node ${major}`);
    } finally {
      expect((await s.stop()).code).toBe(0);
    }
    expect(s.stderr()).toMatch(/^(edgeops serve: (POST|GET) \S+ 20[01] \d+ms account=default\n)+$/);

    const example = copyExample('basic');
    try {
      const applied = await cli(node, ['apply', example.dir, '--local', '--auto-approve'], temp);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      expect(applied.stderr).toBe('');
      const planned = await cli(node, ['plan', example.dir, '--local', '--detailed-exitcode'], temp);
      expect(planned.code, planned.stdout + planned.stderr).toBe(0);
      expect(planned.stdout).toContain('No changes. Live state matches the manifests.');
      expect(planned.stderr).toBe('');
    } finally {
      example.dispose();
    }
  }, 120_000);
});
