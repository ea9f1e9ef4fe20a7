// The plan predicts what the service would refuse: a literal id naming nothing live (or of the wrong kind), a
// hostport held by a resource this stack does not manage, a hostport in two documents, a body over the service's
// limit. Each fails `plan` with the document's position (text, JSON, Markdown) and `apply` with exit 1 and no
// write at all, not even the lock record (a recording proxy in front of the real service counts every request).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REQUEST_BODY_MAX_BYTES } from '../../src/contract/limits.ts';
import { startProxy, type RoundRobinProxy as RecordingProxy } from '../support/round-robin-proxy.ts';
import { edgeops, type RunResult } from '../cli/run.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';

const STACK = 'checks';
const MISSING = { policy: `ipp_${'Q'.repeat(27)}`, backend: `bkdtg_${'Q'.repeat(27)}` };
const BIG = 'x'.repeat(REQUEST_BODY_MAX_BYTES + 1000);

let svc: TestService;
let proxy: RecordingProxy;
let http: ApiClient;
const root = mkdtempSync(join(tmpdir(), 'edgeops-plan-checks-'));
const ids = { other: '', hand: '', policy: '' };

const env = (stack = STACK): Record<string, string> => ({ EDGEOPS_API_URL: proxy.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: stack, NO_COLOR: '1' });
const run = (dir: string, args: string[], stack = STACK): Promise<RunResult> => edgeops(args, { cwd: dir, env: env(stack) });
const writes = (): { method: string; path: string }[] => proxy.requests.filter((h) => h.method !== 'GET');

/** A directory holding `m.yaml` with these lines. */
function manifests(name: string, lines: string[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'm.yaml'), `${lines.join('\n')}\n`);
  return dir;
}

async function post(path: string, body: object): Promise<string> {
  const r = await http.post(path, body);
  expect(r.status, r.text).toBe(201);
  return (r.body as { id: string }).id;
}

beforeAll(async () => {
  svc = await startTestService();
  proxy = await startProxy(svc.url);
  http = api(svc);
  const marker = (stack: string, name: string): string => JSON.stringify({ edgeops: { stack, name } });
  ids.other = await post('/edges/tcp', { hostports: ['9.tcp.example.com:29001'], metadata: marker('other', 'TCPEdge/x') });
  ids.hand = await post('/edges/tcp', { hostports: ['9.tcp.example.com:29002'] });
  ids.policy = await post('/ip_policies', { description: 'made by hand' });
});
afterAll(async () => {
  await proxy.close();
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  proxy.requests.length = 0;
});

interface Expected {
  /** `m.yaml:L:C: Kind/name: message` of each error, in order. */
  errors: RegExp[];
}

/** plan (text, JSON, Markdown) exits 1 with the positioned errors; apply exits 1 and writes nothing. */
async function expectRefused(dir: string, { errors }: Expected): Promise<void> {
  const n = errors.length;
  const closing = `Plan has ${n} error${n === 1 ? '' : 's'}; apply would be refused`;

  const text = await run(dir, ['plan', '.']);
  expect(text.code, text.stderr).toBe(1);
  const errorLines = text.stdout.split('\n').filter((l) => l.startsWith('Error: '));
  expect(errorLines).toHaveLength(n);
  errors.forEach((re, i) => expect(errorLines[i]).toMatch(new RegExp(`^Error: ${re.source}$`)));
  expect(text.stdout).toContain(`${closing}.`);
  expect(text.stderr).toBe(`edgeops: ${closing}\n`);
  expect(text.stdout).not.toMatch(/checksum/i);

  const json = await run(dir, ['plan', '.', '--format', 'json']);
  expect(json.code).toBe(1);
  const plan = JSON.parse(json.stdout) as { format_version: number; errors: { file: string; line: number; col: number; address: string; message: string }[] };
  expect(plan.format_version).toBe(2);
  expect(plan.errors).toHaveLength(n);
  plan.errors.forEach((e, i) => expect(`${e.file}:${e.line}:${e.col}: ${e.address}: ${e.message}`).toMatch(new RegExp(`^${errors[i]!.source}$`)));

  const markdown = await run(dir, ['plan', '.', '--format', 'markdown', '--out', 'saved.json']);
  expect(markdown.code).toBe(1);
  expect(markdown.stdout).toContain(`> [!CAUTION]\n> **${closing}.**`);
  expect(markdown.stdout.split('\n').filter((l) => l.startsWith('> - m.yaml:'))).toHaveLength(n);
  expect(markdown.stderr).toContain('Not saved to saved.json: a plan with errors cannot be applied.');
  expect(existsSync(join(dir, 'saved.json'))).toBe(false);
  expect(writes()).toEqual([]);

  const applied = await run(dir, ['apply', '.', '--auto-approve']);
  expect(applied.code).toBe(1);
  const stderr = applied.stderr.trimEnd().split('\n');
  expect(stderr).toHaveLength(n + 1);
  errors.forEach((re, i) => expect(stderr[i]).toMatch(new RegExp(`^${re.source}$`)));
  expect(stderr[n]).toBe(`edgeops: Plan has ${n} error${n === 1 ? '' : 's'}, so apply refused it and changed nothing`);
  // Not one write: no resource, and no lock record (the lock is taken only once the plan has no errors).
  expect(writes()).toEqual([]);
}

describe('plan errors, each with its position, and apply writes nothing', () => {
  it('a literal id that names no live resource', async () => {
    const dir = manifests('missing-ids', [
      'kind: IPPolicyRule',
      'name: office',
      `ip_policy_id: ${MISSING.policy}`,
      'cidr: 10.0.0.0/8',
      'action: allow',
      '---',
      'kind: TCPEdge',
      'name: ssh',
      'backend:',
      `  backend_id: ${MISSING.backend}`,
    ]);
    await expectRefused(dir, {
      errors: [
        new RegExp(`m\\.yaml:3:15: IPPolicyRule/office: ip_policy_id: "${MISSING.policy}" names no IPPolicy in the account \\(the plan listed every live IPPolicy\\)`),
        new RegExp(`m\\.yaml:10:15: TCPEdge/ssh: backend.backend_id: "${MISSING.backend}" names no TunnelGroupBackend in the account \\(the plan listed every live TunnelGroupBackend\\)`),
      ],
    });
  });

  it('a literal id of the wrong kind for its field (a manifest problem: no request at all)', async () => {
    const dir = manifests('wrong-kind', ['kind: TCPEdge', 'name: ssh', 'backend:', `  backend_id: ${ids.policy}`]);
    for (const args of [['plan', '.'], ['plan', '.', '--format', 'json'], ['apply', '.', '--auto-approve']]) {
      const r = await run(dir, args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`m.yaml:4:15: TCPEdge/ssh: backend.backend_id: wrong kind: "${ids.policy}" is an id of kind IPPolicy, but this field takes TunnelGroupBackend or HTTPResponseBackend`);
    }
    expect(writes()).toEqual([]);
  });

  it("a hostport held by another stack's edge, or by an unmanaged one", async () => {
    const dir = manifests('held', [
      'kind: TCPEdge',
      'name: taken',
      'hostports:',
      '  - 9.tcp.example.com:29001',
      '---',
      'kind: TCPEdge',
      'name: by-hand',
      'hostports:',
      '  - 1.tcp.example.com:21000',
      '  - 9.TCP.example.com:29002',
    ]);
    await expectRefused(dir, {
      errors: [
        new RegExp(`m\\.yaml:4:5: TCPEdge/taken: hostport "9\\.tcp\\.example\\.com:29001" is held by TCPEdge/x \\(stack other\\), and the service lets one resource hold it at a time: remove it from stack other first`),
        new RegExp(`m\\.yaml:10:5: TCPEdge/by-hand: hostport "9\\.TCP\\.example\\.com:29002" is held by the unmanaged TCPEdge ${ids.hand}, and the service lets one resource hold it at a time: run plan/apply with --adopt to bring it under management, or remove it there first`),
      ],
    });
  });

  it('one hostport in two documents (validate reports it too, with both positions)', async () => {
    const dir = manifests('twice', [
      'kind: TCPEdge',
      'name: a',
      'hostports:',
      '  - 1.tcp.example.com:21001',
      '---',
      'kind: TLSEdge',
      'name: b',
      'hostports:',
      '  - 1.TCP.example.com:21001',
    ]);
    const error = /m\.yaml:9:5: TLSEdge\/b: hostport "1\.TCP\.example\.com:21001" is also claimed by TCPEdge\/a at m\.yaml:4:5; the service lets one resource hold it at a time/;
    await expectRefused(dir, { errors: [error] });
    const validated = await run(dir, ['validate', '.']);
    expect(validated.code).toBe(1);
    expect(validated.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(new RegExp(`^${error.source}$`)), 'edgeops: 1 problem in the manifests']);
  });

  it('a request body over the service limit, the error giving sizes and no value', async () => {
    const dir = manifests('big', ['kind: HTTPResponseBackend', 'name: huge', `body: "${BIG}"`]);
    await expectRefused(dir, {
      errors: [/m\.yaml:3:7: HTTPResponseBackend\/huge: the request body would be 1\.0 MiB \(\d+ bytes, body 1\.0 MiB of it\); the service refuses bodies over 1\.0 MiB \(1048576 bytes\) with 413/],
    });
    // The error says sizes only (the largest field may be a secret); the plan above it shows the (non-secret)
    // body in full, as it shows every non-secret value.
    const text = await run(dir, ['plan', '.']);
    const errors = text.stdout.split('\n').filter((l) => l.startsWith('Error: '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).not.toContain('xxxxxxxx');
    expect(text.stderr).not.toContain('xxxxxxxx');
    expect(text.stdout).toContain(`+ body: "${BIG}"`);
  });

  it('apply --plan and --checksum refuse the same way when live state changed since the plan', async () => {
    const dir = manifests('later', ['kind: TCPEdge', 'name: late', 'hostports:', '  - 9.tcp.example.com:29005']);
    const planned = await run(dir, ['plan', '.', '--out', 'saved.json']);
    expect(planned.code, planned.stderr).toBe(0);
    const checksum = /sha256:[0-9a-f]{64}/.exec(planned.stdout)![0];
    const taker = await post('/edges/tcp', { hostports: ['9.tcp.example.com:29005'] });
    try {
      proxy.requests.length = 0;
      for (const args of [['apply', '--plan', 'saved.json'], ['apply', '.', '--checksum', checksum]]) {
        const r = await run(dir, args);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`m.yaml:4:5: TCPEdge/late: hostport "9.tcp.example.com:29005" is held by the unmanaged TCPEdge ${taker}`);
        expect(r.stderr).toContain('edgeops: Plan has 1 error, so apply refused it and changed nothing');
      }
      expect(writes()).toEqual([]);
    } finally {
      await http.del(`/edges/tcp/${taker}`);
    }
  });
});

describe('valid plans are unaffected', () => {
  it('a hostport moved between two edges of this stack, and a literal id of an existing resource of the right kind', async () => {
    const before = manifests('swap-1', [
      'kind: TCPEdge', 'name: a', 'hostports: ["2.tcp.example.com:22001"]',
      '---', 'kind: TCPEdge', 'name: b', 'hostports: ["2.tcp.example.com:22002"]',
    ]);
    expect((await run(before, ['apply', '.', '--auto-approve'], 'swap')).code).toBe(0);
    const after = manifests('swap-2', [
      'kind: TCPEdge', 'name: a', 'hostports: ["2.tcp.example.com:22002"]',
      '---', 'kind: TCPEdge', 'name: b', 'hostports: ["2.tcp.example.com:22001"]',
      '---', 'kind: IPPolicyRule', 'name: office', `ip_policy_id: ${ids.policy}`, 'cidr: 10.0.0.0/8', 'action: allow',
    ]);
    const plan = await run(after, ['plan', '.', '--format', 'json'], 'swap');
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as { errors: unknown[] }).errors).toEqual([]);
    const applied = await run(after, ['apply', '.', '--auto-approve'], 'swap');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('1 created, 2 updated');
    expect((await run(after, ['plan', '.', '--detailed-exitcode'], 'swap')).code).toBe(0);
  });
});
