// `--target Kind/name` through the real CLI (child processes) against the real service: the header line in
// every format, the checksum's apply line naming the real paths and the targets, a saved targeted plan that
// applies only as targeted (its targets checked), `apply --target` with a checksum, and different targets
// giving different checksums.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { edgeops, type RunResult } from './run.ts';

let svc: TestService;
let http: ApiClient;
const base = mkdtempSync(join(tmpdir(), 'edgeops-targets-cli-'));
const dir = join(base, 'infra');

const DOCS = [
  'kind: HTTPResponseBackend', 'name: maint', 'body: down', 'status_code: 503',
  '---', 'kind: TunnelGroupBackend', 'name: web', 'labels: {app: web}',
  '---', 'kind: IPPolicy', 'name: office', 'description: office networks',
  '---', 'kind: IPPolicyRule', 'name: office-v4', 'cidr: 203.0.113.0/24', 'ip_policy_id: office', 'action: allow',
  '---', 'kind: TCPEdge', 'name: ssh', 'hostports: ["t2.tcp.example.com:20001"]', 'backend: {backend_id: web}', 'ip_restriction: {ip_policy_ids: [office]}',
  '---', 'kind: TCPEdge', 'name: db', 'hostports: ["t2.tcp.example.com:20002"]', 'backend: {backend_id: maint}',
];

const run = (args: string[], cwd = base): Promise<RunResult> =>
  edgeops(args, { cwd, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, NO_COLOR: '1' } });
const checksumIn = (r: RunResult): string => /^Checksum: (sha256:[0-9a-f]{64}) /m.exec(r.stdout)?.[1] ?? '';

/** Every live resource of stack "targeted", by its marker. */
async function managed(): Promise<string[]> {
  const lists: [string, string][] = [['/backends/tunnel_group', 'backends'], ['/backends/http_response', 'backends'], ['/ip_policies', 'ip_policies'], ['/ip_policy_rules', 'ip_policy_rules'], ['/edges/tcp', 'tcp_edges']];
  const items = (await Promise.all(lists.map(([path, key]) => http.listAll(path, key)))).flat() as { metadata?: string }[];
  return items.map((i) => parseMetadata(i.metadata).marker).filter((m) => m?.stack === 'targeted').map((m) => m!.name).sort();
}

beforeAll(async () => {
  svc = await startTestService();
  http = api(svc);
  mkdirSync(dir);
  writeFileSync(join(dir, 'edgeops.yaml'), 'stack: targeted\n');
  writeFileSync(join(dir, 'all.yaml'), `${DOCS.join('\n')}\n`);
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

const HEADLINE = 'targeted plan: 2 of 6 resources (--target TCPEdge/db and what it references; nothing else is planned)';

describe('plan --target', () => {
  it('says so in the header of every format, and its checksum line gives the real paths and the targets', async () => {
    const text = await run(['plan', 'infra', '--target', 'TCPEdge/db']);
    expect(text.code, text.stderr).toBe(0);
    const sum = checksumIn(text);
    expect(text.stdout).toBe([
      HEADLINE,
      '',
      'edgeops will perform these actions on stack "targeted":',
      '',
      '  + HTTPResponseBackend/maint',
      '      + body: "down"',
      '      + status_code: 503',
      '',
      '  + TCPEdge/db',
      '      + backend: {enabled: true, backend_id: id of HTTPResponseBackend/maint (known after apply)}',
      '      + hostports: ["t2.tcp.example.com:20002"]',
      '',
      'Plan: 2 to create, 0 to update, 0 to replace, 0 to delete.',
      `Checksum: ${sum} (to apply exactly this plan: edgeops apply infra --target TCPEdge/db --checksum ${sum})`,
      '',
    ].join('\n'));

    const markdown = await run(['plan', 'infra', '--target', 'TCPEdge/db', '--format', 'markdown']);
    expect(markdown.stdout.split('\n').slice(0, 3)).toEqual(['### edgeops plan for stack `targeted`', '', `> **${HEADLINE}**`]);
    expect(markdown.stdout).toContain(`Checksum: \`${sum}\` (to apply exactly this plan: \`edgeops apply infra --target TCPEdge/db --checksum ${sum}\`)`);

    const json = JSON.parse((await run(['plan', 'infra', '--target', 'TCPEdge/db', '--format', 'json'])).stdout);
    expect(Object.keys(json).slice(0, 4)).toEqual(['format_version', 'stack', 'destroy', 'target']);
    expect(json.target).toEqual({ addresses: ['TCPEdge/db'], resources: 2, of: 6, headline: HEADLINE });
    expect(json.resources.map((r: { address: string }) => r.address)).toEqual(['HTTPResponseBackend/maint', 'TCPEdge/db']);
    expect(json.checksum).toBe(sum);

    // An untargeted plan has no such line, and a checksum of its own.
    const full = await run(['plan', 'infra']);
    expect(full.stdout).not.toContain('targeted plan');
    expect(JSON.parse((await run(['plan', 'infra', '--format', 'json'])).stdout).target).toBeUndefined();
    expect(checksumIn(full)).not.toBe(sum);
  });

  it('gives plans of different targets different checksums', async () => {
    const sums = await Promise.all([['TCPEdge/db'], ['TCPEdge/db', 'HTTPResponseBackend/maint'], ['TCPEdge/ssh']].map(async (targets) =>
      checksumIn(await run(['plan', 'infra', ...targets.flatMap((t) => ['--target', t])]))));
    expect(sums.every((s) => /^sha256:/.test(s))).toBe(true);
    expect(new Set(sums).size).toBe(3);
  });
});

describe('a saved targeted plan', () => {
  it('applies only as targeted: its targets are part of it and checked', async () => {
    const planned = await run(['plan', 'infra', '--target', 'TCPEdge/db', '--out', 'db.json']);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout.split('\n')[0]).toBe(HEADLINE);

    const other = await run(['apply', '--plan', 'db.json', '--target', 'TCPEdge/ssh']);
    expect(other.code).toBe(1);
    expect(other.stderr).toBe('edgeops: db.json is a plan made with --target TCPEdge/db; --plan applies it as it was made, so give no --target (or the same ones), or make a new plan\n');
    expect(await managed()).toEqual([]);

    const applied = await run(['apply', '--plan', 'db.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(HEADLINE);
    expect(applied.stdout).toContain('Apply complete: 2 created, 0 updated, 0 replaced, 0 deleted.');
    expect(await managed()).toEqual(['HTTPResponseBackend/maint', 'TCPEdge/db']);
  });

  it('with --checksum, applies a fresh targeted plan with exactly that checksum', async () => {
    const planned = await run(['plan', 'infra', '--target', 'TCPEdge/ssh']);
    const sum = checksumIn(planned);
    // The checksum of the targeted plan does not approve the whole plan.
    const whole = await run(['apply', 'infra', '--checksum', sum]);
    expect(whole.code).toBe(1);
    expect(whole.stderr).toContain('this plan is not the approved one');
    expect(await managed()).toEqual(['HTTPResponseBackend/maint', 'TCPEdge/db']);

    const applied = await run(['apply', 'infra', '--target', 'TCPEdge/ssh', '--checksum', sum]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await managed()).toEqual(['HTTPResponseBackend/maint', 'IPPolicy/office', 'TCPEdge/db', 'TCPEdge/ssh', 'TunnelGroupBackend/web']);
    const rest = await run(['plan', 'infra']);
    expect(rest.stdout).toContain('Plan: 1 to create, 0 to update, 0 to replace, 0 to delete.');
  });

  it('refuses a target that names nothing, with the close matches, and one of the wrong form as a usage error', async () => {
    const unknown = await run(['plan', 'infra', '--target', 'TCPEdge/sssh']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('edgeops: --target TCPEdge/sssh names no resource of stack "targeted": no document has that Kind/name, and no live resource of the stack carries it (did you mean TCPEdge/ssh?)\n');
    const malformed = await run(['apply', 'infra', '--target', 'ssh']);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toBe("edgeops: option '--target <Kind/name>' argument 'ssh' is invalid. Expected Kind/name, a document's kind and name, e.g. --target TCPEdge/ssh.\n(add --help for usage)\n");
  });
});
