// Benchmark 12: the service on SQLite and on PostgreSQL, one and two instances. Every service instance is a real
// `edgeops serve` process (bench/lib/serve-process.ts); the load generator runs in its own process
// (bench/scale-load-child.ts: undici Pool, keep-alive, 16 connections, closed loop); the round-robin proxy
// (test/support/round-robin-proxy.ts) runs in the runner's process, which does nothing else while load runs.
//
// - Throughput, interleaved round by round: GET /ip_policies?limit=100 over a populated table (read cache on, the
//   default) and POST /ip_policies, on SQLite (synchronous=FULL, the default), on 1 PostgreSQL instance, on 1 and
//   on 2 PostgreSQL instances behind the proxy, and on the single SQLite instance behind the proxy (the proxy's
//   own cost). Targets: PostgreSQL reads >= 0.5x SQLite's, PostgreSQL creates >= 0.5x SQLite's durable creates.
// - Whole-process `edgeops apply --auto-approve` of 1,000 generated resources into an empty database: SQLite,
//   1 PostgreSQL instance, 2 PostgreSQL instances behind the proxy. Each apply is followed (untimed) by
//   `edgeops plan --detailed-exitcode`, which must find nothing to do: nothing missing, no duplicates.
//
// PostgreSQL is a throwaway cluster with fsync, synchronous_commit and full_page_writes on (test/support/postgres-cluster.ts, durable),
// on the same file system as the SQLite files, so a durable create costs a WAL flush on both.
// The 2-instance figures run on the same few cores as PostgreSQL, the proxy and the load generator: they show
// that two instances serve one database correctly, not how the service scales.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { expectExit, timeEdgeops, type ProcessRun } from './lib/cli.ts';
import type { Benchmark } from './lib/context.ts';
import { ms, perSec, spread, type Figure } from './lib/figure.ts';
import { generateDocs, writeManifests } from './lib/generate.ts';
import type { LoadOptions } from './lib/load.ts';
import { median } from './lib/measure.ts';
import { startPostgresCluster, type PostgresCluster } from '../test/support/postgres-cluster.ts';
import { STACK } from './lib/seed.ts';
import { startServeProcess, type ServeProcess } from './lib/serve-process.ts';
import { CONNECTIONS, CREATE_BODY, CREATE_PATH, fill, HEADERS, KEY, load, READ_PATH } from './lib/ip-policy-load.ts';

const POOL_SIZE = 10;

type Proxy = { url: string; hits: number[]; close(): Promise<void> | void };

async function startProxy(upstreams: string[]): Promise<Proxy> {
  // Imported when run, so the other benchmarks do not depend on the test helper.
  const { startRoundRobinProxy } = await import('../test/support/round-robin-proxy.ts');
  return startRoundRobinProxy(upstreams);
}

const quick = () => Boolean(process.env.BENCH_QUICK);

function scalingNote(): string {
  return `on ${availableParallelism()} cores shared by the instances, PostgreSQL, the proxy and the load generator, the 2-instance figures show correctness, not scaling`;
}


async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(url, { headers: HEADERS });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

/** A create acknowledged by A is the first item of B's next list page: read-your-writes across instances. */
async function crossInstanceVisible(a: string, b: string): Promise<string | undefined> {
  for (let i = 0; i < 5; i++) {
    // Read B first so its read cache holds the page before the write.
    await getJson(`${b}${READ_PATH}`);
    const res = await request(`${a}${CREATE_PATH}`, { method: 'POST', headers: { ...HEADERS, 'content-type': 'application/json' }, body: CREATE_BODY });
    const created = (await res.body.json()) as { id?: string };
    if (res.statusCode !== 201) return `create on A answered ${res.statusCode}`;
    const page = await getJson(`${b}${READ_PATH}`);
    const first = (page.body.ip_policies as { id: string }[] | undefined)?.[0]?.id;
    if (first !== created.id) return `B's list after A's create of ${created.id} starts with ${first}`;
  }
  return undefined;
}

interface Target {
  label: string;
  url: string;
}

async function throughput(ctx: Parameters<Benchmark['run']>[0], pg: PostgresCluster): Promise<Figure[]> {
  const rows = quick() ? 500 : 2000;
  const rounds = quick() ? 1 : 3;
  const phase = { connections: CONNECTIONS, warmupMs: quick() ? 300 : 1000, durationMs: quick() ? 1000 : 4000 };
  const reads: LoadOptions = { ...phase, headers: HEADERS };
  const creates: LoadOptions = { ...phase, headers: { ...HEADERS, 'content-type': 'application/json' }, method: 'POST', body: CREATE_BODY };

  const started: ServeProcess[] = [];
  const proxies: Proxy[] = [];
  try {
    const sqlite = await startServeProcess({ db: join(ctx.tmp, 'scale.db'), apiKey: KEY });
    started.push(sqlite);
    const pgUrl = `${pg.url}&schema=scale`;
    const pgA = await startServeProcess({ db: pgUrl, apiKey: KEY, poolSize: POOL_SIZE });
    started.push(pgA);
    const pgB = await startServeProcess({ db: pgUrl, apiKey: KEY, poolSize: POOL_SIZE });
    started.push(pgB);
    const t0 = performance.now();
    await Promise.all([fill(sqlite.url, rows), fill(pgA.url, rows)]);
    ctx.log(`filled ${rows} IP policies on SQLite and PostgreSQL in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const proxySqlite = await startProxy([sqlite.url]);
    proxies.push(proxySqlite);
    const proxyPg1 = await startProxy([pgA.url]);
    proxies.push(proxyPg1);
    const proxyPg2 = await startProxy([pgA.url, pgB.url]);
    proxies.push(proxyPg2);

    const targets: Target[] = [
      { label: 'sqlite', url: sqlite.url },
      { label: 'pg1', url: pgA.url },
      { label: 'sqlite-proxy', url: proxySqlite.url },
      { label: 'pg1-proxy', url: proxyPg1.url },
      { label: 'pg2-proxy', url: proxyPg2.url },
    ];
    const rps: Record<string, { reads: number[]; creates: number[] }> = Object.fromEntries(targets.map((t) => [t.label, { reads: [], creates: [] }]));
    let errors = 0;
    const pg2Hits = { reads: [0, 0], creates: [0, 0] };
    for (let round = 0; round < rounds; round++) {
      for (const [kind, opts, path] of [['reads', reads, READ_PATH], ['creates', creates, CREATE_PATH]] as const) {
        for (const t of targets) {
          const before = [...proxyPg2.hits];
          const r = await load(t.url, path, opts);
          if (t.label === 'pg2-proxy') proxyPg2.hits.forEach((h, i) => (pg2Hits[kind][i] += h - before[i]!));
          rps[t.label]![kind].push(r.rps);
          errors += r.errors;
          ctx.log(`round ${round + 1} ${kind.padEnd(7)} ${t.label.padEnd(12)} ${Math.round(r.rps)} req/s${r.errors ? ` (${r.errors} errors)` : ''}`);
        }
      }
    }
    const visibility = await crossInstanceVisible(pgA.url, pgB.url);
    const med = (label: string, kind: 'reads' | 'creates') => median(rps[label]![kind]);
    // Ratios pair the samples of one round (taken back to back), then take the median: drift between rounds
    // (another process waking up, the disk busy) moves both sides of a pair alike.
    const paired = (a: string, b: string, kind: 'reads' | 'creates') => median(rps[a]![kind].map((x, i) => x / rps[b]![kind][i]!));
    const perRound = (a: string, b: string, kind: 'reads' | 'creates') => rps[a]![kind].map((x, i) => (x / rps[b]![kind][i]!).toFixed(2)).join('/');
    const samples = (label: string, kind: 'reads' | 'creates') => rps[label]![kind].map(Math.round).join('/');
    const errorNote = errors ? `; ${errors} non-2xx answers` : '';
    const proxyCost = (kind: 'reads' | 'creates') =>
      `the proxy's own cost: SQLite ${perSec(med('sqlite-proxy', kind))} through it vs ${perSec(med('sqlite', kind))} direct (per round ${perRound('sqlite-proxy', 'sqlite', kind)})`;
    const figures: Figure[] = [];
    for (const kind of ['reads', 'creates'] as const) {
      const ratio = paired('pg1', 'sqlite', kind);
      figures.push({
        name: `service-scale/${kind}`,
        values: [[kind === 'reads' ? 'sqlite' : 'sqlite durable', perSec(med('sqlite', kind))], ['postgresql 1 instance', perSec(med('pg1', kind))]],
        ratio,
        target: '>= 0.5x',
        ok: ratio >= 0.5 && errors === 0,
        note:
          `${kind === 'reads' ? `GET ${READ_PATH} over ${rows}+ IP policies, read cache on` : `POST ${CREATE_PATH}, synchronous=FULL vs synchronous_commit=on with fsync`}, ` +
          `${CONNECTIONS} connections, pool ${POOL_SIZE}; SQLite ${samples('sqlite', kind)}, PostgreSQL ${samples('pg1', kind)} req/s; ` +
          `ratio = median of the per-round ratios ${perRound('pg1', 'sqlite', kind)}${errorNote}`,
      });
    }
    for (const kind of ['reads', 'creates'] as const) {
      const hits = pg2Hits[kind];
      const both = hits.every((h) => h > 0);
      const ratio = paired('pg2-proxy', 'pg1-proxy', kind);
      figures.push({
        name: `service-scale/${kind}-2-instances`,
        values: [
          ['pg 1 instance', perSec(med('pg1', kind))],
          ['pg 1 via proxy', perSec(med('pg1-proxy', kind))],
          ['pg 2 via proxy', perSec(med('pg2-proxy', kind))],
        ],
        ratio,
        target: 'reported (correctness, not scaling)',
        ok: errors === 0 && both && visibility === undefined,
        note:
          `${scalingNote()}. Ratio: 2 instances / 1 instance, both through the proxy (per round ${perRound('pg2-proxy', 'pg1-proxy', kind)}); ` +
          `2 via proxy / 1 direct ${paired('pg2-proxy', 'pg1', kind).toFixed(2)}x. ` +
          `${proxyCost(kind)}. Requests per instance ${hits.join(' / ')}` +
          (kind === 'reads' ? `; a create on A is the first item of B's next page (5 times): ${visibility ?? 'yes'}` : '') +
          `; pg2 ${samples('pg2-proxy', kind)} req/s${errorNote}`,
      });
    }
    return figures;
  } finally {
    for (const p of proxies) await p.close();
    for (const s of started) await s.stop();
  }
}

async function applyScale(ctx: Parameters<Benchmark['run']>[0], pg: PostgresCluster): Promise<Figure[]> {
  const count = quick() ? 200 : 1000;
  const rounds = quick() ? 1 : 3;
  const dir = join(ctx.tmp, 'service-scale-apply');
  const manifests = join(dir, 'manifests');
  await writeManifests(manifests, generateDocs(count), Math.max(1, count / 50));
  let n = 0;
  const times: Record<'sqlite' | 'pg1' | 'pg2', number[]> = { sqlite: [], pg1: [], pg2: [] };
  const hits: number[][] = [];
  const run = async (variant: keyof typeof times) => {
    const id = ++n;
    const db = variant === 'sqlite' ? join(dir, `apply-${id}.db`) : `${pg.url}&schema=apply_${id}`;
    const instances = [await startServeProcess({ db, apiKey: KEY, poolSize: variant === 'sqlite' ? undefined : POOL_SIZE })];
    if (variant === 'pg2') instances.push(await startServeProcess({ db, apiKey: KEY, poolSize: POOL_SIZE }));
    const proxy = variant === 'pg2' ? await startProxy(instances.map((i) => i.url)) : undefined;
    const env = { EDGEOPS_API_URL: proxy?.url ?? instances[0]!.url, EDGEOPS_API_KEY: KEY, NO_COLOR: '1' };
    try {
      const applied: ProcessRun = expectExit(await timeEdgeops(['apply', manifests, '--auto-approve', '--stack', STACK], { env }), [0], `edgeops apply (${variant})`);
      if (proxy) hits.push([...proxy.hits]);
      // Untimed: the applied account must plan clean (a missing resource is a create, a duplicate a delete).
      expectExit(await timeEdgeops(['plan', manifests, '--stack', STACK, '--detailed-exitcode'], { env }), [0], `edgeops plan after apply (${variant})`);
      times[variant].push(applied.ms);
      ctx.log(`apply ${count} ${variant.padEnd(6)} ${applied.ms.toFixed(0)} ms, plan after it clean`);
    } finally {
      await proxy?.close();
      for (const i of instances) await i.stop();
    }
  };
  for (let i = 0; i < rounds; i++) for (const v of ['sqlite', 'pg1', 'pg2'] as const) await run(v);
  const s = median(times.sqlite);
  const p1 = median(times.pg1);
  const p2 = median(times.pg2);
  // Paired by round, as for throughput.
  const paired = (a: number[], b: number[]) => median(a.map((x, i) => x / b[i]!));
  const plan = `each apply into an empty database, then \`edgeops plan --detailed-exitcode\` found nothing to do`;
  return [
    {
      name: `service-scale/apply-${count}`,
      values: [['sqlite', ms(s)], ['postgresql 1 instance', ms(p1)]],
      ratio: paired(times.pg1, times.sqlite),
      target: 'reported (time, lower is better)',
      ok: true,
      note: `whole-process edgeops apply --auto-approve of ${count} resources; ${plan}; ratio = median of the per-round ratios; sqlite ${spread(times.sqlite)}; pg ${spread(times.pg1)}`,
    },
    {
      name: `service-scale/apply-${count}-2-instances`,
      values: [['pg 1 instance', ms(p1)], ['pg 2 via proxy', ms(p2)]],
      ratio: paired(times.pg2, times.pg1),
      target: 'reported (correctness, not scaling)',
      ok: hits.every((h) => h.every((x) => x > 0)),
      note: `${scalingNote()}. ${plan}; ratio = median of the per-round ratios; requests per instance ${hits.map((h) => h.join('/')).join(', ')}; pg2 ${spread(times.pg2)}`,
    },
  ];
}

export const serviceScale: Benchmark = {
  name: 'service-scale',
  id: 12,
  title: `SQLite vs PostgreSQL, 1 and 2 instances: list pages and creates (${CONNECTIONS} connections), edgeops apply of 1,000`,
  async run(ctx) {
    const pg = await startPostgresCluster({ log: ctx.log, durable: true });
    if (pg.settings.fsync !== 'on' || pg.settings.synchronous_commit !== 'on') {
      await pg.stop();
      throw new Error(`service-scale: PostgreSQL's durability is off (${JSON.stringify(pg.settings)})`);
    }
    try {
      return [...(await throughput(ctx, pg)), ...(await applyScale(ctx, pg))];
    } finally {
      await pg.stop();
    }
  },
};
