import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyExample, edgeops } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'edgeops-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('edgeops validate', () => {
  it('exits 0 and counts the resources of a valid set', async () => {
    const r = await edgeops(['validate', 'examples/basic']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('8 resources valid\n');
  });

  it('takes the options the README lists for it (--local, --api-url, --stack, --timeout), checks them, and sends nothing', async () => {
    const example = copyExample('basic');
    try {
      const local = await edgeops(['validate', example.dir, '--local', '--stack', 'ci', '--concurrency', '4']);
      expect(local.code, local.stderr).toBe(0);
      expect(local.stdout).toBe('8 resources valid\n');
      expect(existsSync(join(example.dir, '.edgeops'))).toBe(false); // no embedded service was started
      // Port 9 has no service: a request would fail the run.
      const remote = await edgeops(['validate', example.dir, '--api-url', 'http://127.0.0.1:9', '--api-key', 'k', '--timeout', '5']);
      expect(remote.code, remote.stderr).toBe(0);
      const bad = await edgeops(['validate', example.dir, '--timeout', 'never']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^edgeops: --timeout: timeout must be a number of seconds/);
      const both = await edgeops(['validate', example.dir, '--local', '--api-url', 'http://127.0.0.1:9']);
      expect(both.code).toBe(1);
      expect(both.stderr).toContain('--local runs the embedded service');
    } finally {
      example.dispose();
    }
  });

  it('exits 1 and prints every problem of every file with its position, without any network', async () => {
    const bad = join(dir, 'bad');
    const edges = join(bad, 'edges.yaml');
    const backends = join(bad, 'backends.yaml');
    mkdirSync(bad);
    writeFileSync(backends, ['kind: TunnelGroupBackend', 'name: web', 'labels: {app: web}', 'colour: blue', ''].join('\n'));
    writeFileSync(edges, [
      'kind: TCPEdge',
      'name: ssh',
      'hostports: ["1.tcp.example.com:20001"]',
      'backend: {backend_id: nope}',
      '---',
      'kind: TCPEgde',
      'name: other',
      '',
    ].join('\n'));
    // An unreachable service URL: validate must not try it.
    const r = await edgeops(['validate', bad], { cwd: dir, env: { EDGEOPS_API_URL: 'http://127.0.0.1:1' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^edgeops: \d+ problems? in the manifests$/);
    const issues = lines.slice(0, -1);
    expect(issues.length).toBeGreaterThanOrEqual(3);
    for (const line of issues) expect(line).toMatch(/^bad\/(edges|backends)\.yaml:\d+:\d+: /);
    expect(r.stderr).toMatch(/bad\/backends\.yaml:4:1: TunnelGroupBackend\/web: .*colour/);
    expect(r.stderr).toMatch(/bad\/edges\.yaml:4:\d+: TCPEdge\/ssh: .*nope/);
    expect(r.stderr).toMatch(/bad\/edges\.yaml:6:\d+: .*TCPEgde/);
  });

  it('exits 1 when a path does not exist', async () => {
    const r = await edgeops(['validate', join(dir, 'missing')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('missing');
  });
});
