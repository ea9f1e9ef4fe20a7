// `edgeops graph`: the manifests' dependency graph in Mermaid and DOT, read back with real parsers
// (graph-parsers.ts) and held against the references the example's YAML makes, found here independently of the
// engine; stable output; no request without --plan; with --plan, each node's action against the real service.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceForFile } from '../helpers/service.ts';
import { readDot, readMermaid } from './graph-parsers.ts';
import { copyExample, edgeops, makeCerts, output } from './run.ts';

type Doc = { kind: string; name: string } & Record<string, unknown>;

/** The kinds a reference field may name: a reviewer's reading of the API reference, not the engine's table. */
const FIELD_TARGETS: Record<string, string[]> = {
  backend_id: ['TunnelGroupBackend', 'HTTPResponseBackend'],
  ip_policy_id: ['IPPolicy'],
  ip_policy_ids: ['IPPolicy'],
  certificate_authority_ids: ['CertificateAuthority'],
  certificate_id: ['TLSCertificate'],
  edge_id: ['HTTPSEdge', 'TCPEdge', 'TLSEdge'],
  route_id: ['HTTPSEdgeRoute'],
  subscription_id: ['EventSubscription'],
};

function readDocs(dir: string): Doc[] {
  return readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'edgeops.yaml')
    .flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as Doc));
}

/** Every `*_id`/`*_ids` value of every document, as `from -> to (field path)`. */
function expectedEdges(docs: Doc[]): string[] {
  const edges: string[] = [];
  const walk = (from: Doc, value: unknown, path: string[]): void => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const kinds = FIELD_TARGETS[key];
      if (kinds) {
        for (const name of Array.isArray(v) ? v : [v]) {
          const target = docs.find((d) => d.name === name && kinds.includes(d.kind));
          expect(target, `${from.kind}/${from.name} ${key}: ${String(name)}`).toBeDefined();
          edges.push(`${from.kind}/${from.name} -> ${target!.kind}/${target!.name} (${[...path, key].join('.')})`);
        }
      } else walk(from, v, [...path, key]);
    }
  };
  for (const doc of docs) walk(doc, doc, []);
  return edges.sort();
}

describe('edgeops graph on examples/full', () => {
  let example: { dir: string; dispose(): void };
  let docs: Doc[];
  beforeAll(async () => {
    example = copyExample('full');
    await makeCerts(example.dir);
    docs = readDocs(example.dir);
  });
  afterAll(() => example.dispose());

  it('Mermaid (the default): a flowchart a Mermaid parser reads, with every document and every reference', async () => {
    const r = await edgeops(['graph', example.dir]);
    expect(r.code, output(r)).toBe(0);
    const read = readMermaid(r.stdout);
    expect([...read.nodes.keys()].sort()).toEqual(docs.map((d) => `${d.kind}/${d.name}`).sort());
    const expected = expectedEdges(docs);
    expect(expected).toHaveLength(17);
    expect(read.edges).toEqual(expected);
    // The kinds of reference the command promises, by name.
    expect(read.edges).toEqual(expect.arrayContaining([
      'IPPolicyRule/scanner -> IPPolicy/trusted (ip_policy_id)',
      'HTTPSEdgeRoute/www-teapot -> HTTPSEdge/www (edge_id)',
      'TCPEdge/mqtt -> TunnelGroupBackend/mqtt (backend.backend_id)',
      'TCPEdge/mqtt -> IPPolicy/trusted (ip_restriction.ip_policy_ids)',
      'TLSEdge/devices-mtls -> CertificateAuthority/devices (mutual_tls.certificate_authority_ids)',
      'EventSources/audit-sources -> EventSubscription/audit (subscription_id)',
    ]));
    // No plan: no node is marked.
    expect([...read.nodes.values()].filter((n) => n.marked !== undefined || n.fill !== undefined)).toEqual([]);
    expect(r.stdout).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
  });

  it('DOT: a digraph a DOT parser reads, with the same nodes and edges', async () => {
    const r = await edgeops(['graph', example.dir, '--format', 'dot']);
    expect(r.code, output(r)).toBe(0);
    const read = readDot(r.stdout);
    expect([...read.nodes.keys()].sort()).toEqual(docs.map((d) => `${d.kind}/${d.name}`).sort());
    expect(read.edges).toEqual(expectedEdges(docs));
  });

  it('is stable: the same graph, byte for byte, whatever the order of the files and documents', async () => {
    const first = await edgeops(['graph', example.dir, '--format', 'dot']);
    const shuffled = mkdtempSync(join(tmpdir(), 'edgeops-graph-order-'));
    try {
      // One file, documents in reverse order, the certificates where the manifests expect them.
      mkdirSync(join(shuffled, 'z'));
      writeFileSync(join(shuffled, 'z', 'all.yaml'), [...docs].reverse().map((d) => stringify(d)).join('---\n'));
      for (const f of readdirSync(join(example.dir, 'certs'))) {
        mkdirSync(join(shuffled, 'z', 'certs'), { recursive: true });
        writeFileSync(join(shuffled, 'z', 'certs', f), readFileSync(join(example.dir, 'certs', f)));
      }
      const again = await edgeops(['graph', join(shuffled, 'z'), '--format', 'dot']);
      expect(again.code, output(again)).toBe(0);
      expect(again.stdout).toBe(first.stdout);
    } finally {
      rmSync(shuffled, { recursive: true, force: true });
    }
  });
});

describe('edgeops graph without a service', () => {
  /** A TCP listener that counts connections: anything edgeops sends shows here. */
  let connections = 0;
  const sockets = new Set<Socket>();
  const listener = createServer((s) => {
    connections++;
    sockets.add(s);
    s.destroy();
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(listener.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });

  it('never contacts the service without --plan, even with one configured; with --plan it does', async () => {
    const env = { EDGEOPS_API_URL: url, EDGEOPS_API_KEY: 'graph-test-key' };
    const r = await edgeops(['graph', 'examples/basic'], { env });
    expect(r.code, output(r)).toBe(0);
    expect(readMermaid(r.stdout).nodes.size).toBe(8);
    expect(connections).toBe(0);
    // The control: --plan does reach it (and fails, as nothing answers there).
    const planned = await edgeops(['graph', 'examples/basic', '--plan', '--retry-budget', '0'], { env });
    expect(planned.code).toBe(1);
    expect(planned.stderr).toMatch(/^edgeops: /m);
    expect(connections).toBeGreaterThan(0);
  });

  it('PATH defaults to the current directory; a literal id is a node of its own, dashed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgeops-graph-literal-'));
    try {
      writeFileSync(join(dir, 'edges.yaml'), [
        'kind: TCPEdge', 'name: ssh', 'hostports: ["1.tcp.example.com:20001"]',
        'ip_restriction: {ip_policy_ids: [ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02, office]}', '---',
        'kind: IPPolicy', 'name: office', ''].join('\n'));
      const r = await edgeops(['graph', '--format', 'dot'], { cwd: dir });
      expect(r.code, output(r)).toBe(0);
      const read = readDot(r.stdout);
      expect(read.edges).toEqual([
        'TCPEdge/ssh -> IPPolicy/ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02 (ip_restriction.ip_policy_ids)',
        'TCPEdge/ssh -> IPPolicy/office (ip_restriction.ip_policy_ids)',
      ]);
      expect(read.nodes.get('IPPolicy/ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02')).toMatchObject({ marked: 'not in the manifests', dashed: true });
      expect(read.nodes.get('IPPolicy/office')).toMatchObject({ dashed: false });
      const mermaid = await edgeops(['graph'], { cwd: dir });
      expect(readMermaid(mermaid.stdout).edges).toHaveLength(2);
      expect(mermaid.stdout).toContain('classDef external');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--help shows the formats, --plan and an example of each use; the program help lists the command', async () => {
    const r = await edgeops(['graph', '--help']);
    expect(r.code).toBe(0);
    for (const text of ['Usage: edgeops graph [options] [path]', '"mermaid", "dot"', '--plan', '--api-url <url>', 'Examples:',
      '$ edgeops graph\n', '$ edgeops graph infra/ --format dot', '$ edgeops graph --plan --local']) expect(r.stdout).toContain(text);
    const top = await edgeops(['--help']);
    expect(top.stdout).toMatch(/^ {2}graph \[options\] \[path\]/m);
    expect(top.stdout).toContain('$ edgeops graph --format dot');
  });

  it('bad input gets a clear error: an unknown format, invalid manifests, a missing path', async () => {
    const format = await edgeops(['graph', 'examples/basic', '--format', 'svg']);
    expect(format.code).toBe(1);
    expect(format.stderr).toMatch(/^edgeops: option '--format <format>' argument 'svg' is invalid. Allowed choices are mermaid, dot\./m);
    const dir = mkdtempSync(join(tmpdir(), 'edgeops-graph-bad-'));
    try {
      writeFileSync(join(dir, 'bad.yaml'), 'kind: TCPEdge\nname: ssh\nbackend: {backend_id: nowhere}\n');
      const bad = await edgeops(['graph', dir]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/bad\.yaml:3:\d+: TCPEdge\/ssh: .*nowhere/);
      expect(bad.stderr).not.toContain('internal error');
      expect(bad.stdout).toBe('');
      const missing = await edgeops(['graph', join(dir, 'nope')]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('nope');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('edgeops graph --plan against the service', () => {
  const { svc } = serviceForFile();
  const v1: Doc[] = [
    { kind: 'IPPolicy', name: 'office', description: 'office' },
    { kind: 'IPPolicy', name: 'lab', description: 'lab' },
    { kind: 'IPPolicyRule', name: 'office-v4', ip_policy_id: 'office', cidr: '203.0.113.0/24', action: 'allow' },
    { kind: 'IPPolicyRule', name: 'moving', ip_policy_id: 'office', cidr: '198.51.100.0/24', action: 'allow' },
    { kind: 'IPPolicyRule', name: 'old', ip_policy_id: 'lab', cidr: '192.0.2.0/24', action: 'deny' },
    { kind: 'TunnelGroupBackend', name: 'web', labels: { app: 'web' } },
    { kind: 'TCPEdge', name: 'ssh', hostports: ['1.tcp.example.com:20001'], backend: { backend_id: 'web' }, ip_restriction: { ip_policy_ids: ['office'] } },
  ];
  // office: description changed (update); moving: to the lab policy (ip_policy_id cannot change: replace); old:
  // gone (delete); api: new (create); the rest as they were.
  const v2: Doc[] = [
    { ...v1[0]!, description: 'office networks' },
    v1[1]!,
    v1[2]!,
    { ...v1[3]!, ip_policy_id: 'lab' },
    v1[5]!,
    v1[6]!,
    { kind: 'TunnelGroupBackend', name: 'api', labels: { app: 'api' } },
  ];

  it('marks each resource with its planned action in both formats, and reads only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgeops-graph-plan-'));
    const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: 'graph-plan' };
    const write = (docs: Doc[]): void => writeFileSync(join(dir, 'all.yaml'), docs.map((d) => stringify(d)).join('---\n'));
    try {
      write(v1);
      const applied = await edgeops(['apply', dir, '--auto-approve'], { env });
      expect(applied.code, output(applied)).toBe(0);
      write(v2);
      const plan = await edgeops(['plan', dir, '--format', 'json'], { env });
      expect(plan.code, output(plan)).toBe(0);
      const actions = Object.fromEntries((JSON.parse(plan.stdout) as { resources: { address: string; action: string }[] }).resources.map((r) => [r.address, r.action]));
      expect(actions).toEqual({
        'IPPolicy/office': 'update', 'IPPolicyRule/moving': 'replace', 'IPPolicyRule/old': 'delete', 'TunnelGroupBackend/api': 'create',
      });

      const expected = {
        'IPPolicy/office': 'update', 'IPPolicyRule/moving': 'replace', 'IPPolicyRule/old': 'delete', 'TunnelGroupBackend/api': 'create',
        'IPPolicy/lab': undefined, 'IPPolicyRule/office-v4': undefined, 'TunnelGroupBackend/web': undefined, 'TCPEdge/ssh': undefined,
      } as Record<string, string | undefined>;
      const mermaid = await edgeops(['graph', dir, '--plan'], { env });
      expect(mermaid.code, output(mermaid)).toBe(0);
      const dot = await edgeops(['graph', dir, '--plan', '--format', 'dot'], { env });
      expect(dot.code, output(dot)).toBe(0);
      for (const read of [readMermaid(mermaid.stdout), readDot(dot.stdout)]) {
        expect(Object.fromEntries([...read.nodes].map(([a, n]) => [a, n.marked]))).toEqual(expected);
        // Every node is filled with its action's colour, the unchanged ones all alike, each action its own.
        const fills = new Map<string | undefined, Set<string | undefined>>();
        for (const [address, node] of read.nodes) fills.set(expected[address], new Set([...(fills.get(expected[address]) ?? []), node.fill]));
        expect([...fills.values()].map((s) => s.size)).toEqual([...fills.keys()].map(() => 1));
        expect(new Set([...fills.values()].map((s) => [...s][0])).size).toBe(5);
        // The deleted rule has no document: its reference comes from its live body, by name.
        expect(read.edges).toContain('IPPolicyRule/old -> IPPolicy/lab (ip_policy_id)');
        expect(read.edges).toContain('IPPolicyRule/moving -> IPPolicy/lab (ip_policy_id)');
        expect(read.edges).toContain('TCPEdge/ssh -> TunnelGroupBackend/web (backend.backend_id)');
      }
      expect(mermaid.stdout).toContain('classDef replace');

      // Only reads: the plan is the same afterwards.
      const again = await edgeops(['plan', dir, '--format', 'json'], { env });
      expect(JSON.parse(again.stdout).resources).toHaveLength(4);
      expect(output(mermaid)).not.toContain(svc.apiKey);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a plan with errors: the graph, then the errors on stderr and exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgeops-graph-errors-'));
    const env = { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: 'graph-errors' };
    try {
      // A literal id of a policy that does not exist: the service would refuse the edge.
      writeFileSync(join(dir, 'all.yaml'), 'kind: TCPEdge\nname: ssh\nhostports: ["9.tcp.example.com:20009"]\nip_restriction: {ip_policy_ids: [ipp_2rcCvYaCz4tUbWiCRVTCu2Rsx02]}\n');
      const r = await edgeops(['graph', dir, '--plan'], { env });
      expect(r.code).toBe(1);
      expect(readMermaid(r.stdout).nodes.get('TCPEdge/ssh')).toMatchObject({ marked: 'create' });
      expect(r.stderr).toMatch(/all\.yaml:4:\d+/);
      expect(r.stderr).toMatch(/^edgeops: .*error/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
