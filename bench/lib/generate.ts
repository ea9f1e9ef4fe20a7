// Generated manifest sets for the benchmarks: groups of ten documents of mixed kinds with references and
// edge modules, the shape a real account has (policies and backends referenced by edges, HTTPS routes with
// response headers). Names are unique per group index, so any count of documents is a valid set.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';

export type Doc = { kind: string; name: string } & Record<string, unknown>;

interface Slot {
  /** Every kind the document needs to exist (its own and the ones it references). */
  needs: string[];
  make(g: number): Doc;
}

const SLOTS: Slot[] = [
  {
    needs: ['IPPolicy'],
    make: (g) => ({ kind: 'IPPolicy', name: `ipp-${g}`, description: `office ${g}`, metadata: { team: 'net', group: String(g) } }),
  },
  {
    needs: ['IPPolicyRule', 'IPPolicy'],
    make: (g) => ({
      kind: 'IPPolicyRule',
      name: `rule-${g}`,
      description: `office range ${g}`,
      cidr: `10.${(g >> 8) & 255}.${g & 255}.0/24`,
      ip_policy_id: `ipp-${g}`,
      action: g % 2 ? 'deny' : 'allow',
    }),
  },
  {
    needs: ['TunnelGroupBackend'],
    make: (g) => ({
      kind: 'TunnelGroupBackend',
      name: `tg-${g}`,
      description: `tunnels of app ${g}`,
      metadata: { team: 'web' },
      labels: { app: `app-${g}`, dc: g % 3 ? 'eu-1' : 'us-2' },
    }),
  },
  {
    needs: ['HTTPResponseBackend'],
    make: (g) => ({
      kind: 'HTTPResponseBackend',
      name: `hr-${g}`,
      body: `maintenance window ${g}`,
      headers: { 'content-type': 'text/plain' },
      status_code: 503,
    }),
  },
  {
    needs: ['TCPEdge', 'TunnelGroupBackend', 'IPPolicy'],
    make: (g) => ({
      kind: 'TCPEdge',
      name: `tcp-${g}`,
      description: `ssh for app ${g}`,
      metadata: { team: 'web', tier: 'ssh' },
      hostports: [`t${g}.tcp.bench.example.com:${20000 + (g % 40000)}`],
      backend: { backend_id: `tg-${g}` },
      ip_restriction: { ip_policy_ids: [`ipp-${g}`] },
    }),
  },
  {
    needs: ['TCPEdge', 'HTTPResponseBackend'],
    make: (g) => ({
      kind: 'TCPEdge',
      name: `tcpp-${g}`,
      hostports: [`p${g}.tcp.bench.example.com:${20000 + (g % 40000)}`],
      backend: { backend_id: `hr-${g}` },
      policy: {
        inbound: [{ name: 'deny-scanners', expressions: [`conn.client_ip.startsWith('192.0.2.')`], actions: [{ type: 'deny' }] }],
        outbound: [{ name: 'log', expressions: ['true'], actions: [{ type: 'log', config: { level: 'info' } }] }],
      },
    }),
  },
  {
    needs: ['TLSEdge', 'TunnelGroupBackend', 'IPPolicy'],
    make: (g) => ({
      kind: 'TLSEdge',
      name: `tls-${g}`,
      metadata: { team: 'web', tier: 'tls' },
      hostports: [`tls-${g}.bench.example.com:443`],
      backend: { backend_id: `tg-${g}` },
      ip_restriction: { ip_policy_ids: [`ipp-${g}`] },
      tls_termination: { terminate_at: 'edge', min_version: '1.2' },
    }),
  },
  {
    needs: ['HTTPSEdge'],
    make: (g) => ({ kind: 'HTTPSEdge', name: `https-${g}`, description: `site ${g}`, hostports: [`www-${g}.bench.example.com:443`] }),
  },
  {
    needs: ['HTTPSEdgeRoute', 'HTTPSEdge', 'TunnelGroupBackend'],
    make: (g) => ({
      kind: 'HTTPSEdgeRoute',
      name: `route-${g}`,
      edge_id: `https-${g}`,
      match_type: 'path_prefix',
      match: '/api',
      backend: { backend_id: `tg-${g}` },
    }),
  },
  {
    needs: ['RouteResponseHeaders', 'HTTPSEdgeRoute', 'HTTPSEdge'],
    make: (g) => ({
      kind: 'RouteResponseHeaders',
      name: `rrh-${g}`,
      edge_id: `https-${g}`,
      route_id: `route-${g}`,
      add: { 'x-served-by': `group-${g}` },
      remove: ['server'],
    }),
  },
];

/** Kinds left out with BENCH_SKIP_KINDS=A,B (for a kind the service does not serve yet); dependents go too. */
function skippedKinds(): Set<string> {
  return new Set((process.env.BENCH_SKIP_KINDS ?? '').split(',').filter(Boolean));
}

/** `count` documents, in groups, each group's referenced documents before its referrers. */
export function generateDocs(count: number): Doc[] {
  const skip = skippedKinds();
  const slots = SLOTS.filter((s) => !s.needs.some((k) => skip.has(k)));
  const docs: Doc[] = [];
  for (let g = 0; docs.length < count; g++) {
    for (const slot of slots) {
      if (docs.length === count) break;
      docs.push(slot.make(g));
    }
  }
  return docs;
}

/** Writes the documents into `files` files of consecutive documents; returns the file paths. */
export async function writeManifests(dir: string, docs: readonly Doc[], files: number): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const per = Math.ceil(docs.length / files);
  const paths: string[] = [];
  for (let f = 0; f < files; f++) {
    const chunk = docs.slice(f * per, (f + 1) * per);
    if (chunk.length === 0) break;
    const path = join(dir, `part-${String(f).padStart(4, '0')}.yaml`);
    await writeFile(path, chunk.map((d) => stringify(d)).join('---\n'));
    paths.push(path);
  }
  return paths;
}

export function countByKind(docs: readonly Doc[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of docs) out[d.kind] = (out[d.kind] ?? 0) + 1;
  return out;
}
