// Benchmark 13: `edgeops serve --db FILE` on its two SQLite drivers, measured in one run: better-sqlite3 (what
// Node 20 uses) under this process's Node, and node:sqlite (built into Node 22.13 and later) under Node 24 from
// the npm registry (scripts/fetch-node.ts). Durable creates (POST /ip_policies, synchronous=FULL, each one a
// synced commit: the driver's write path) and list pages (GET /ip_policies?limit=100 over a populated table,
// the read cache on as users run it), 16 connections, the load from a process of its own, rounds interleaved.
// Reported, with node:sqlite / better-sqlite3 as the ratio: what a user gains or loses by the driver.
import { join } from 'node:path';
import { fetchNode } from '../scripts/fetch-node.ts';
import type { Benchmark } from './lib/context.ts';
import { perSec, spread, type Figure } from './lib/figure.ts';
import type { LoadOptions } from './lib/load.ts';
import { CONNECTIONS, CREATE_BODY, CREATE_PATH, fill, HEADERS, KEY, load, READ_PATH } from './lib/ip-policy-load.ts';
import { median } from './lib/measure.ts';
import { startServeProcess, type ServeProcess } from './lib/serve-process.ts';

const quick = () => Boolean(process.env.BENCH_QUICK);

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
