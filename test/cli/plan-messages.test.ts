// Goldens of the messages around plans, checksums and saved plans, through the real CLI against the real
// service, each exactly as printed: a plan with errors refused by apply, the destroy banner counting what the
// plan deletes, the checksum line giving the paths given to plan, `apply --checksum` with nothing to apply, a
// malformed checksum, saved paths that do not resolve from another directory, and another stack's resource in
// the way named as that stack names it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { edgeops, type RunResult } from './run.ts';

let svc: TestService;
let http: ApiClient;
const base = mkdtempSync(join(tmpdir(), 'edgeops-messages-'));

const run = (args: string[], cwd = base): Promise<RunResult> =>
  edgeops(args, { cwd, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, NO_COLOR: '1' } });
const checksumIn = (r: RunResult): string => /^Checksum: (sha256:[0-9a-f]{64}) /m.exec(r.stdout)?.[1] ?? '';

/** A directory under the test's base holding these files. */
function tree(name: string, files: Record<string, string>): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

beforeAll(async () => {
  svc = await startTestService();
  http = api(svc);
});
afterAll(async () => {
  await svc.close();
  rmSync(base, { recursive: true, force: true });
});

describe('plan messages', () => {
  it('a hostport held by another stack names its holder Kind/name (stack X), and apply refuses the plan in one sentence', async () => {
    const theirs = await http.post('/edges/tcp', { hostports: ['m1.tcp.example.com:21001'], metadata: JSON.stringify({ edgeops: { stack: 'other', name: 'TCPEdge/theirs' } }) });
    expect(theirs.status).toBe(201);
    tree('held', { 'edgeops.yaml': 'stack: held\n', 'm.yaml': 'kind: TCPEdge\nname: mine\nhostports: ["m1.tcp.example.com:21001"]\n' });
    const error = 'held/m.yaml:3:13: TCPEdge/mine: hostport "m1.tcp.example.com:21001" is held by TCPEdge/theirs (stack other), and the service lets one resource hold it at a time: remove it from stack other first';

    const planned = await run(['plan', 'held']);
    expect(planned.code).toBe(1);
    expect(planned.stdout.split('\n').slice(-4)).toEqual(['', `Error: ${error}`, 'Plan has 1 error; apply would be refused.', '']);
    expect(planned.stdout).not.toContain((theirs.body as { id: string }).id);

    const applied = await run(['apply', 'held', '--auto-approve']);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toBe('');
    expect(applied.stderr).toBe(`${error}\nedgeops: Plan has 1 error, so apply refused it and changed nothing\n`);
  });

  it('the destroy banner counts what the plan deletes, items without a marker of their own included', async () => {
    const docs = [
      'kind: HTTPSEdge', 'name: www', 'hostports: ["m2.example.com:443"]',
      '---', 'kind: HTTPSEdgeRoute', 'name: root', 'edge_id: www', 'match_type: path_prefix', 'match: /',
      '---', 'kind: RouteResponseHeaders', 'name: root-headers', 'edge_id: www', 'route_id: root', 'add: {X-Frame-Options: DENY}',
      '---', 'kind: EventSubscription', 'name: audit', 'description: policy changes',
      '---', 'kind: EventSources', 'name: audit-sources', 'subscription_id: audit', 'types: [ip_policy_created.v0]',
    ];
    tree('doomed', { 'edgeops.yaml': 'stack: doomed\n', 'all.yaml': `${docs.join('\n')}\n` });
    const applied = await run(['apply', 'doomed', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    tree('doomed-empty', { 'edgeops.yaml': 'stack: doomed\n' });

    const planned = await run(['plan', 'doomed-empty', '--destroy']);
    expect(planned.code, planned.stderr).toBe(0);
    const lines = planned.stdout.split('\n');
    expect(lines[0]).toBe('This plan DESTROYS stack "doomed": it deletes every one of its 5 resources. apply runs it only with --destroy.');
    expect(lines).toContain('Plan: 0 to create, 0 to update, 0 to replace, 5 to delete.');
    const json = JSON.parse((await run(['plan', 'doomed-empty', '--destroy', '--format', 'json'])).stdout);
    expect(json.summary.delete).toBe(5);

    const refused = await run(['apply', 'doomed-empty', '--auto-approve', '--allow-deletes']);
    expect(refused.code).toBe(1);
  });

  it('the checksum line gives the apply command with the paths given to plan', async () => {
    tree('two parts/a', { 'edgeops.yaml': 'stack: parts\n', 'p.yaml': 'kind: IPPolicy\nname: a\ndescription: part a\n' });
    tree('two parts/b', { 'edgeops.yaml': 'stack: parts\n', 'p.yaml': 'kind: IPPolicy\nname: b\ndescription: part b\n' });
    const planned = await run(['plan', 'two parts/a', 'two parts/b']);
    expect(planned.code, planned.stderr).toBe(0);
    const sum = checksumIn(planned);
    expect(planned.stdout.split('\n').slice(-2)).toEqual([
      `Checksum: ${sum} (to apply exactly this plan: edgeops apply 'two parts/a' 'two parts/b' --checksum ${sum})`,
      '',
    ]);
    const markdown = await run(['plan', 'two parts/a', 'two parts/b', '--format', 'markdown']);
    expect(markdown.stdout.trimEnd().split('\n').at(-1)).toBe(`Checksum: \`${sum}\` (to apply exactly this plan: \`edgeops apply 'two parts/a' 'two parts/b' --checksum ${sum}\`)`);
  });

  it('apply --checksum on a converged stack says there is nothing to apply, naming no checksum plan never printed', async () => {
    tree('settled', { 'edgeops.yaml': 'stack: settled\n', 'p.yaml': 'kind: IPPolicy\nname: calm\ndescription: v1\n' });
    const sum = checksumIn(await run(['plan', 'settled']));
    expect((await run(['apply', 'settled', '--checksum', sum])).code).toBe(0);
    const again = await run(['plan', 'settled']);
    expect(again.stdout).toBe('No changes. Live state matches the manifests.\n');

    const applied = await run(['apply', 'settled', '--checksum', sum]);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toBe('No changes. Live state matches the manifests.\n');
    expect(applied.stderr).toBe(
      `edgeops: this plan is not the approved one: live state already matches the manifests, so there is nothing to apply (the approved plan ${sum} was applied already, or the manifests or live state changed since)\n`,
    );
  });

  it('a malformed --checksum is a usage error naming the expected form, before anything is read', async () => {
    for (const value of ['4f1c', 'sha1:4f1c', `sha256:${'g'.repeat(64)}`]) {
      const r = await run(['apply', 'nowhere', '--checksum', value]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `edgeops: option '--checksum <checksum>' argument '${value}' is invalid. Expected a plan checksum as \`plan\` prints it: sha256: followed by 64 hexadecimal digits.\n(add --help for usage)\n`,
      );
    }
  });

  it('apply --plan from another directory says the paths came from the saved plan, and how to give them', async () => {
    const project = tree('saved-here', { 'edgeops.yaml': 'stack: saved-here\n', 'p.yaml': 'kind: IPPolicy\nname: s\ndescription: saved\n' });
    const planned = await run(['plan', '.', '--out', 'plan.json'], project);
    expect(planned.code, planned.stderr).toBe(0);
    const elsewhere = tree('elsewhere', {});
    const plan = join(project, 'plan.json');

    const applied = await run(['apply', '--plan', plan], elsewhere);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toBe('');
    expect(applied.stderr.split('\n').slice(-2)).toEqual([
      `No manifest paths were given, so apply read "." as the saved plan ${plan} records them (as given to plan, relative to the directory plan ran in), from ${elsewhere}. Run apply from the directory plan ran in, or give the paths: edgeops apply PATH... --plan ${plan}`,
      '',
    ]);
    // Given the paths, it applies from anywhere.
    const given = await run(['apply', project, '--plan', plan], elsewhere);
    expect(given.code, given.stderr).toBe(0);
  });
});
