// Benchmark 13: `edgeops serve --db FILE` on its two SQLite drivers, measured in one run: better-sqlite3 (what
// Node 20 uses) under this process's Node, and node:sqlite (built into Node 22.13 and later) under Node 24 from
// the npm registry (scripts/fetch-node.ts). Durable creates (POST /ip_policies, synchronous=FULL, each one a
// synced commit: the driver's write path) and list pages (GET /ip_policies?limit=100 over a populated table,
// the read cache on as users run it), 16 connections, the load from a process of its own, rounds interleaved.
// Reported, with node:sqlite / better-sqlite3 as the ratio: what a user gains or loses by the driver.
import { join } from 'node:path';
import { Pool } from 'undici';
import { fetchNode } from '../scripts/fetch-node.ts';
import { benchScript, spawnTs } from './lib/child.ts';
import type { Benchmark } from './lib/context.ts';
import { perSec, spread, type Figure } from './lib/figure.ts';
import type { LoadOptions, LoadResult } from './lib/load.ts';
import { median } from './lib/measure.ts';
import { startServeProcess, type ServeProcess } from './lib/serve-process.ts';

const CONNECTIONS = 16;
const KEY = 'bench-key';
const READ_PATH = '/ip_policies?limit=100';
const CREATE_PATH = '/ip_policies';
const CREATE_BODY = JSON.stringify({ description: 'bench write', metadata: '{"bench":true}' });
const HEADERS = { authorization: `Bearer ${KEY}`, 'service-version': '2' };
const quick = () => Boolean(process.env.BENCH_QUICK);

async function load(origin: string, path: string, opts: LoadOptions): Promise<LoadResult> {
  const child = spawnTs(benchScript('scale-load-child.ts'), [origin, path, JSON.stringify(opts)]);
  try {
    return await child.next<LoadResult>(120_000);
  } finally {
    await child.stop();
  }
}

async function fill(origin: string, count: number): Promise<void> {
  const pool = new Pool(origin, { connections: CONNECTIONS });
  let left = count;
  try {
    const worker = async () => {
      while (left-- > 0) {
        const res = await pool.request({ path: CREATE_PATH, method: 'POST', headers: { ...HEADERS, 'content-type': 'application/json' }, body: CREATE_BODY });
        const text = await res.body.text();
        if (res.statusCode !== 201) throw new Error(`fill ${origin}: ${res.statusCode} ${text.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  } finally {
    await pool.close();
  }
}

export const sqliteDrivers: Benchmark = {
  name: 'sqlite-drivers',
  id: 13,
  title: `edgeops serve on better-sqlite3 (Node ${process.versions.node}) and on node:sqlite (Node 24): durable creates and list pages, ${CONNECTIONS} connections`,
  async run(ctx) {
    const node24 = await fetchNode(24);
    const rounds = quick() ? 1 : 3;
    const phase = { connections: CONNECTIONS, warmupMs: quick() ? 300 : 1000, durationMs: quick() ? 1000 : 4000 };
    const reads: LoadOptions = { ...phase, headers: HEADERS };
    const creates: LoadOptions = { ...phase, headers: { ...HEADERS, 'content-type': 'application/json' }, method: 'POST', body: CREATE_BODY };
    const started: ServeProcess[] = [];
    try {
      const drivers = [
        { label: 'better-sqlite3', serve: await startServeProcess({ db: join(ctx.tmp, 'better.db'), apiKey: KEY, env: { EDGEOPS_SQLITE_DRIVER: 'better-sqlite3' } }) },
        { label: 'node:sqlite', serve: await startServeProcess({ db: join(ctx.tmp, 'builtin.db'), apiKey: KEY, node: node24 }) },
      ];
      started.push(...drivers.map((d) => d.serve));
      await Promise.all(drivers.map((d) => fill(d.serve.url, quick() ? 300 : 1000)));
      const rps: Record<string, { reads: number[]; creates: number[] }> = Object.fromEntries(drivers.map((d) => [d.label, { reads: [], creates: [] }]));
      let errors = 0;
      for (let round = 0; round < rounds; round++) {
        for (const [kind, opts, path] of [['creates', creates, CREATE_PATH], ['reads', reads, READ_PATH]] as const) {
          for (const d of drivers) {
            const r = await load(d.serve.url, path, opts);
            rps[d.label]![kind].push(r.rps);
            errors += r.errors;
            ctx.log(`round ${round + 1} ${kind.padEnd(7)} ${d.label.padEnd(14)} ${Math.round(r.rps)} req/s${r.errors ? ` (${r.errors} errors)` : ''}`);
          }
        }
      }
      const figure = (kind: 'creates' | 'reads'): Figure => {
        const ratio = median(rps['node:sqlite']![kind].map((x, i) => x / rps['better-sqlite3']![kind][i]!));
        return {
          name: `sqlite-drivers/${kind}`,
          values: [['better-sqlite3', perSec(median(rps['better-sqlite3']![kind]))], ['node:sqlite', perSec(median(rps['node:sqlite']![kind]))]],
          ratio,
          target: 'reported',
          ok: errors === 0,
          note: `${kind === 'creates' ? 'POST /ip_policies, synchronous=FULL' : `GET ${READ_PATH}, read cache on`}; ratio = node:sqlite / better-sqlite3, median of per-round ratios; ` +
            `better-sqlite3 ${spread(rps['better-sqlite3']![kind], 'req/s')}, node:sqlite ${spread(rps['node:sqlite']![kind], 'req/s')}${errors ? `; ${errors} errors` : ''}`,
        };
      };
      return [figure('creates'), figure('reads')];
    } finally {
      await Promise.all(started.map((s) => s.stop()));
    }
  },
};
