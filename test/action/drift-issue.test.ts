// Drift on a schedule that people see, across three scheduled runs against the real service and a stand-in
// GitHub: the first drifted run opens one issue titled with the stack, the next updates it in place (keeping
// "since" from the first detection), and a run that finds the stack in sync closes it with a comment.
import { describe, expect, it } from 'vitest';
import { api, serviceForFile } from '../helpers/service.ts';
import { gitHubForFile, push, runAction, schedule, workspace, type Doc } from './harness.ts';

const { svc } = serviceForFile();
const gh = gitHubForFile();
const inputs = (extra: Record<string, string> = {}) => ({ path: 'infra', 'api-url': svc.url, 'api-key': svc.apiKey, ...extra });

const docs: Doc[] = [
  { kind: 'IPPolicy', name: 'office', description: 'office networks' },
  { kind: 'TunnelGroupBackend', name: 'web', description: 'web tier', labels: { app: 'web' } },
];

async function liveId(path: string, key: string, stack: string): Promise<string> {
  const all = (await api(svc).listAll(path, key)) as { id: string; metadata?: string }[];
  return all.find((r) => (r.metadata ?? '').includes(`"stack":"${stack}"`))!.id;
}

const since = (body: string) => /since \*\*([0-9TZ:-]+)\*\*/.exec(body)?.[1];

describe('drift issues', () => {
  it('opens, updates and closes one issue per stack across three scheduled runs', async () => {
    const ws = workspace('drifty');
    try {
      ws.write(docs);
      expect((await runAction({ event: push('main'), inputs: inputs({ 'on-stale': 'replan' }), cwd: ws.dir })).code).toBe(0);
      const policyId = await liveId('/ip_policies', 'ip_policies', 'drifty');
      const backendId = await liveId('/backends/tunnel_group', 'backends', 'drifty');

      // Run 1: a hand edit. The job fails (fail-on-drift defaults to true) and one issue opens.
      expect((await api(svc).patch(`/ip_policies/${policyId}`, { description: 'edited in the console' })).status).toBe(200);
      const first = await runAction({ event: schedule(), inputs: inputs({ 'drift-issue-labels': 'edgeops-drift, ops' }), cwd: ws.dir, github: gh });
      expect(first.code).toBe(1);
      expect(first.stdout).toMatch(/^::error::Drift on stack drifty: 1 resource differs/m);
      expect(gh.issues()).toHaveLength(1);
      const issue = gh.issues()[0]!;
      expect(issue.title).toBe('Drift on edgeops stack drifty');
      expect(issue.state).toBe('open');
      expect(issue.labels.map((l) => l.name)).toEqual(['edgeops-drift', 'ops']);
      expect(issue.body).toContain('| `IPPolicy/office` | changed | update |');
      expect(issue.body).toContain('edited in the console');
      expect(issue.body).toContain('**1 resource** differs');
      const firstSince = since(issue.body)!;
      expect(firstSince).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(first.summary).toContain(`opened drift issue #${issue.number}`);

      // Run 2: the backend is deleted by hand too. The same issue is updated; "since" stays the first detection.
      expect((await api(svc).del(`/backends/tunnel_group/${backendId}`)).status).toBe(204);
      const second = await runAction({ event: schedule(), inputs: inputs({ 'drift-issue-labels': 'edgeops-drift, ops' }), cwd: ws.dir, github: gh });
      expect(second.code).toBe(1);
      expect(gh.issues()).toHaveLength(1);
      const updated = gh.issues()[0]!;
      expect(updated.number).toBe(issue.number);
      expect(since(updated.body)).toBe(firstSince);
      expect(updated.body).toContain('**2 resources** differ');
      expect(updated.body).toContain(`| \`IPPolicy/office\` | changed | update | ${firstSince} |`);
      const backendRow = /\| `TunnelGroupBackend\/web` \| missing \| create \| (\S+) \|/.exec(updated.body);
      expect(backendRow).not.toBeNull();
      expect(backendRow![1]! >= firstSince).toBe(true);
      expect(gh.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/repos/acme/infra/issues'))).toHaveLength(1);

      // Run 3: an apply restores the manifests' state; the scheduled run finds it in sync and closes the issue.
      expect((await runAction({ event: push('main'), inputs: inputs({ 'on-stale': 'replan' }), cwd: ws.dir })).code).toBe(0);
      const third = await runAction({ event: schedule(), inputs: inputs({ 'drift-issue-labels': 'edgeops-drift, ops' }), cwd: ws.dir, github: gh });
      expect(third.code, third.stdout + third.stderr).toBe(0);
      const closed = gh.issues()[0]!;
      expect(closed.state).toBe('closed');
      expect(closed.state_reason).toBe('completed');
      const closing = gh.comments(issue.number);
      expect(closing).toHaveLength(1);
      expect(closing[0]!.body).toContain(`Stack \`drifty\` is in sync again`);
      expect(closing[0]!.body).toContain(`it had drifted since ${firstSince}`);
      expect(third.summary).toContain(`closed drift issue #${issue.number}`);

      // A fourth run in sync finds no open issue and writes nothing to GitHub.
      const before = gh.requests.filter((r) => r.method !== 'GET').length;
      expect((await runAction({ event: schedule(), inputs: inputs({ 'drift-issue-labels': 'edgeops-drift, ops' }), cwd: ws.dir, github: gh })).code).toBe(0);
      expect(gh.requests.filter((r) => r.method !== 'GET').length).toBe(before);
    } finally {
      ws.dispose();
    }
  }, 300_000);

  it('names managed resources in the issue as plans do: ids as Kind/name (id), a natural-key item by its parent', async () => {
    const ws = workspace('named');
    try {
      ws.write([
        { kind: 'TunnelGroupBackend', name: 'web', labels: { app: 'web' } },
        { kind: 'TunnelGroupBackend', name: 'mqtt', labels: { app: 'mqtt' } },
        { kind: 'HTTPSEdge', name: 'site', hostports: ['named-site.example.com:443'] },
        { kind: 'HTTPSEdgeRoute', name: 'api', edge_id: 'site', match_type: 'path_prefix', match: '/api', backend: { backend_id: 'web' } },
      ]);
      expect((await runAction({ event: push('main'), inputs: inputs({ 'on-stale': 'replan' }), cwd: ws.dir })).code).toBe(0);
      const ids = async (path: string, key: string) => (await api(svc).listAll(path, key)) as { id: string; metadata?: string; routes?: { id: string }[] }[];
      const backends = await ids('/backends/tunnel_group', 'backends');
      const idOf = (name: string) => backends.find((b) => (b.metadata ?? '').includes(`"name":"TunnelGroupBackend/${name}"`))!.id;
      const edge = (await ids('/edges/https', 'https_edges')).find((e) => (e.metadata ?? '').includes('"stack":"named"'))!;
      const route = edge.routes![0]!.id;
      // By hand: the route is pointed at the other managed backend, and given response headers no document names.
      expect((await api(svc).put(`/edges/https/${edge.id}/routes/${route}/backend`, { backend_id: idOf('mqtt') })).status).toBe(200);
      expect((await api(svc).put(`/edges/https/${edge.id}/routes/${route}/response_headers`, { add: { 'x-by-hand': '1' } })).status).toBe(200);

      const run = await runAction({ event: schedule(), inputs: inputs(), cwd: ws.dir, github: gh });
      expect(run.code).toBe(1);
      const body = gh.issues().find((i) => i.title === 'Drift on edgeops stack named')!.body;
      expect(body).toMatch(/\| `RouteResponseHeaders of HTTPSEdgeRoute\/api` \| live-only \| delete \|/);
      expect(body).toContain(`\`TunnelGroupBackend/mqtt (${idOf('mqtt')})\` | \`TunnelGroupBackend/web (${idOf('web')})\``);
      expect(body).toContain(`| \`RouteResponseHeaders of HTTPSEdgeRoute/api\` (\`${edge.id}/${route}\`) | live-only | resource | present | absent | delete |`);
    } finally {
      ws.dispose();
    }
  }, 300_000);

  it('drift-issue: false (or a run that is not a schedule) opens no issue', async () => {
    const ws = workspace('no-issue');
    try {
      ws.write(docs);
      const count = gh.issues().length;
      const run = await runAction({ event: schedule(), inputs: inputs({ 'drift-issue': 'false', 'fail-on-drift': 'false' }), cwd: ws.dir, github: gh });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^::warning::Drift on stack no-issue/m);
      expect(gh.issues()).toHaveLength(count);
    } finally {
      ws.dispose();
    }
  }, 300_000);
});
