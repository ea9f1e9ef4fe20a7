// Settings follow the files, through the real CLI against the real service: a file path uses the edgeops.yaml
// of its directory or the nearest one above it (up to the repository root), as a directory does; naming the
// edgeops.yaml too changes nothing; paths whose settings disagree are an error naming both; `export PATH`
// uses PATH's settings and its --local database and leaves nothing behind in the current directory. And a
// short API key does not block `plan --out`.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { startService } from '../../src/service/server.ts';
import { makeCert } from '../helpers/certs.ts';
import { api, startTestService, type TestService } from '../helpers/service.ts';
import { edgeops, output, type RunResult } from './run.ts';

let svc: TestService;
const base = mkdtempSync(join(tmpdir(), 'edgeops-settings-'));

const run = (args: string[], env: Record<string, string> = {}): Promise<RunResult> =>
  edgeops(args, { cwd: base, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, ...env } });

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(base, path, '..'), { recursive: true });
    writeFileSync(join(base, path), text);
  }
}

async function stacksOf(path: string, key: string): Promise<string[]> {
  const items = (await api(svc).listAll(path, key)) as { metadata?: string }[];
  return items.map((i) => parseMetadata(i.metadata).marker).filter((m) => m !== undefined).map((m) => `${m.stack} ${m.name}`).sort();
}

beforeAll(async () => {
  svc = await startTestService();
  write({
    'infra/edgeops.yaml': 'stack: infra\n',
    'infra/backends.yaml': 'kind: TunnelGroupBackend\nname: mqtt\nlabels: {app: mqtt}\n',
    'infra/policies.yaml': 'kind: IPPolicy\nname: office\n',
  });
  const r = await run(['apply', 'infra', '--auto-approve']);
  expect(r.code, output(r)).toBe(0);
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('a file path', () => {
  it('uses the edgeops.yaml beside it: no duplicate creates, and naming the edgeops.yaml too changes nothing', async () => {
    // Alone, backends.yaml is part of the stack whose root is infra: its plan would delete the policy, so it is refused.
    const alone = await run(['plan', 'infra/backends.yaml']);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('  infra/backends.yaml is inside the stack root infra (infra/edgeops.yaml), which also holds this manifest:\n    infra/policies.yaml\n');
    const both = await run(['plan', 'infra/backends.yaml', 'infra/edgeops.yaml']);
    expect(both.stderr).toContain('  infra/backends.yaml, infra/edgeops.yaml are inside the stack root infra');
    const dir = await run(['plan', 'infra/backends.yaml', 'infra/policies.yaml']);
    expect(dir.stdout).toContain('No changes.');
    const withSettings = await run(['plan', 'infra/backends.yaml', 'infra/policies.yaml', 'infra/edgeops.yaml']);
    expect(withSettings.stdout).toBe(dir.stdout);
    expect(await stacksOf('/backends/tunnel_group', 'backends')).toEqual(['infra TunnelGroupBackend/mqtt']);
  });

  it('and a directory below use the nearest edgeops.yaml above, up to the repository root', async () => {
    write({
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/edgeops.yaml': 'stack: repo\n',
      'repo/infra/edge/a.yaml': 'kind: IPPolicy\nname: a\n',
      'repo/infra/b.yaml': 'kind: IPPolicy\nname: b\n',
    });
    for (const paths of [['repo/infra/edge/a.yaml', 'repo/infra/b.yaml'], ['repo/infra/edge', 'repo/infra/b.yaml'], ['repo/infra']]) {
      const r = await run(['plan', ...paths]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('on stack "repo":');
    }
    // Its stack root is the repository's: without b.yaml, a.yaml is part of it.
    const part = await run(['plan', 'repo/infra/edge/a.yaml']);
    expect(part.stderr).toContain('  repo/infra/edge/a.yaml is inside the stack root repo (repo/edgeops.yaml), which also holds this manifest:\n    repo/infra/b.yaml\n');
    // Above the repository root nothing is looked for: "outer" is not this repository's.
    write({ 'outer/edgeops.yaml': 'stack: outer\n', 'outer/repo2/.git/HEAD': 'x\n', 'outer/repo2/p.yaml': 'kind: IPPolicy\nname: p\n' });
    const r = await run(['plan', 'outer/repo2/p.yaml']);
    expect(r.stdout).toContain('on stack "default":');
  });
});

describe('paths whose settings disagree', () => {
  it('are an error naming both files, unless each path is a stack root of its own: then each stack is planned on its own', async () => {
    write({ 'other/edgeops.yaml': 'stack: other\n', 'other/p.yaml': 'kind: IPPolicy\nname: p\n' });
    const r = await run(['plan', 'infra', 'other']);
    expect(r.code, output(r)).toBe(0);
    expect(r.stdout).toContain('on stack "other":');
    expect(r.stdout).toMatch(/^infra +infra +0 +0 +0 +0 +-$/m);
    expect(r.stdout).toMatch(/^other +other +1 +0 +0 +0 +sha256:/m);
    // Two roots of one stack are one run: their settings must agree.
    write({ 'one/edgeops.yaml': 'stack: one\nconcurrency: 2\n', 'one/p.yaml': 'kind: IPPolicy\nname: one\n', 'two/edgeops.yaml': 'stack: one\nconcurrency: 3\n', 'two/p.yaml': 'kind: IPPolicy\nname: two\n' });
    const same = await run(['plan', 'one', 'two']);
    expect(same.code).toBe(1);
    expect(same.stderr).toContain('two/edgeops.yaml:2:1: concurrency: differs from the value in one/edgeops.yaml (the paths of one run must use the same settings)');
    expect(same.stdout).not.toContain('Plan:');
  });

  it('are an error when one path uses no edgeops.yaml and the other sets the stack or the service', async () => {
    write({ 'loose.yaml': 'kind: IPPolicy\nname: loose\n', 'svc/edgeops.yaml': `api_url: ${'http://127.0.0.1:1'}\n`, 'svc/p.yaml': 'kind: IPPolicy\nname: q\n' });
    const r = await run(['plan', 'infra', 'loose.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('infra/edgeops.yaml:1:1: stack: set here, but loose.yaml uses no edgeops.yaml (its stack would be the default)');
    const u = await run(['validate', 'svc', 'loose.yaml']);
    expect(u.code).toBe(1);
    expect(u.stderr).toContain('svc/edgeops.yaml:1:1: api_url: set here, but loose.yaml uses no edgeops.yaml');
  });
});

describe('export PATH', () => {
  it('uses PATH\'s settings and --local database, and leaves no database in the current directory', async () => {
    write({ 'local/edgeops.yaml': 'stack: local-one\n', 'local/p.yaml': 'kind: IPPolicy\nname: office\ndescription: office\n' });
    const applied = await edgeops(['apply', 'local', '--local', '--auto-approve'], { cwd: base });
    expect(applied.code, output(applied)).toBe(0);
    const exported = await edgeops(['export', 'local', '--local', '--out', 'exported'], { cwd: base });
    expect(exported.code, output(exported)).toBe(0);
    expect(exported.stdout).toContain('Exported 1 resource of stack "local-one" (1 managed) to exported:');
    expect(readFileSync(join(base, 'exported/edgeops.yaml'), 'utf8')).toContain('stack: local-one');
    expect(existsSync(join(base, '.edgeops'))).toBe(false);

    // No database at PATH: an error, and none is created.
    const none = await edgeops(['export', '--local', '--out', 'nothing'], { cwd: base });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--local: there is no embedded service database at .edgeops/local.db');
    expect(existsSync(join(base, '.edgeops'))).toBe(false);
    expect(readdirSync(base)).not.toContain('nothing');
  });

  it('against a service, exports the stack of PATH\'s edgeops.yaml', async () => {
    const r = await run(['export', 'infra', '--out', 'infra-export']);
    expect(r.code, output(r)).toBe(0);
    expect(r.stdout).toContain('Exported 2 resources of stack "infra" (2 managed) to infra-export:');
  });
});

describe('a short API key', () => {
  it('does not block plan --out, and never appears in the saved plan\'s secret fields', async () => {
    const short = await startService({ host: '127.0.0.1', port: 0, apiKeys: ['dev'], db: join(base, 'short.db'), quiet: true });
    try {
      const cert = await makeCert();
      write({
        'devices/edgeops.yaml': 'stack: devices\n',
        'devices/edge.yaml': 'kind: TLSEdge\nname: devices\ndescription: devices of the dev team\nhostports: ["devices.example.com:443"]\n',
        'devices/cert.yaml': 'kind: TLSCertificate\nname: dev-cert\ncertificate_pem: {file: cert.pem}\nprivate_key_pem: {env: DEV_KEY}\n',
        'devices/cert.pem': cert.certPem,
      });
      const env = { EDGEOPS_API_URL: short.url, EDGEOPS_API_KEY: 'dev', DEV_KEY: cert.keyPem };
      const file = join(base, 'devices.plan.json');
      const r = await edgeops(['plan', 'devices', '--out', file], { cwd: base, env });
      expect(r.code, output(r)).toBe(0);
      expect(r.stdout).toContain(`Saved the plan to ${file}`);
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { plan: { actions: { address: string; body: Record<string, unknown> }[] } };
      expect(saved.plan.actions.map((a) => a.address).sort()).toEqual(['TLSCertificate/dev-cert', 'TLSEdge/devices']);
      const key = saved.plan.actions.find((a) => a.address === 'TLSCertificate/dev-cert')!.body.private_key_pem as { $secret: string };
      expect(Object.keys(key)).toEqual(['$secret']);
      expect(key.$secret).toMatch(/^hmac-sha256:[0-9a-f]+$/);
      expect(JSON.stringify(key)).not.toContain('dev');
      const applied = await edgeops(['apply', '--plan', file], { cwd: base, env });
      expect(applied.code, output(applied)).toBe(0);
    } finally {
      await short.close();
    }
  });
});
