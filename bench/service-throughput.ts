// Benchmark 5: service throughput on list pages of 100 items with 16 concurrent connections, against a bare
// node:http server returning the same bytes (both in child processes, one loaded at a time). Target: >= 0.5x.
// The service answers a repeated page from its read cache (src/service/read-cache.ts); the same load against
// a service started without it is reported too, as the cost of a page read from SQLite after every write.
// Writes: POSTs of small IP policies on 16 connections, with commits synced to disk before the answer
// (synchronous=FULL, the default) against `--durability relaxed` (synchronous=NORMAL): the price of a 201 that
// survives a power loss.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import type { Benchmark } from './lib/context.ts';
import { benchScript, spawnTs } from './lib/child.ts';
import { perSec, type Figure } from './lib/figure.ts';
import { runLoad } from './lib/load.ts';
import { median, reps } from './lib/measure.ts';
import { startSeeded } from './lib/seed.ts';
import { startServiceChild } from './lib/service-child.ts';

const CONNECTIONS = 16;
const PAGES = [
  { label: 'tcp-edges', path: '/edges/tcp?limit=100' },
  { label: 'tunnel-group-backends', path: '/backends/tunnel_group?limit=100' },
];

export const serviceThroughput: Benchmark = {
  name: 'service-throughput',
  id: 5,
  title: `list pages of 100 items, ${CONNECTIONS} connections, vs bare node:http with the same bytes`,
  async run(ctx) {
    const set = await ctx.seeded(5000);
    const service = await startSeeded(set, ctx.tmp);
    const uncachedService = await startSeeded(set, ctx.tmp, { readCache: false });
    const headers = { authorization: `Bearer ${service.apiKey}`, 'service-version': '2' };
    const quick = Boolean(process.env.BENCH_QUICK);
    const load = { connections: CONNECTIONS, warmupMs: quick ? 300 : 1000, durationMs: quick ? 1000 : 4000, headers };
    const figures: Figure[] = [];
    try {
      for (const page of PAGES) {
        const res = await request(`${service.url}${page.path}`, { headers });
        const bytes = Buffer.from(await res.body.arrayBuffer());
        if (res.statusCode !== 200) throw new Error(`${page.path}: ${res.statusCode} ${bytes.toString().slice(0, 200)}`);
        const items = Object.values(JSON.parse(bytes.toString()) as Record<string, unknown>).find(Array.isArray)?.length ?? 0;
        const bodyFile = join(ctx.tmp, `page-${page.label}.json`);
        await writeFile(bodyFile, bytes);
        const type = String(res.headers['content-type'] ?? 'application/json');
        const bare = spawnTs(benchScript('bare-child.ts'), ['--body', bodyFile, '--type', type]);
        try {
          const bareUrl = (await bare.next<{ url: string }>(30_000)).url;
          const svc: number[] = [];
          const uncached: number[] = [];
          const base: number[] = [];
          let errors = 0;
          for (let i = 0; i < reps(0, 3).reps; i++) {
            const a = await runLoad(service.url, page.path, load);
            const b = await runLoad(bareUrl, page.path, load);
            const u = await runLoad(uncachedService.url, page.path, load);
            svc.push(a.rps);
            uncached.push(u.rps);
            base.push(b.rps);
            errors += a.errors + b.errors + u.errors;
          }
          const s = median(svc);
          const b = median(base);
          const u = median(uncached);
          const ratio = s / b;
          figures.push({
            name: `service-throughput/${page.label}`,
            values: [['bare', perSec(b)], ['service', perSec(s)], ['service without read cache', perSec(u)]],
            ratio,
            target: '>= 0.5x',
            ok: ratio >= 0.5 && errors === 0,
            note:
              `GET ${page.path}: ${items} items, ${(bytes.length / 1024).toFixed(1)} KiB per page; ` +
              `service runs ${svc.map(Math.round).join('/')} req/s, bare ${base.map(Math.round).join('/')} req/s; ` +
              `without the read cache ${perSec(u)} (${(u / b).toFixed(2)}x of bare)` +
              (errors ? `; ${errors} non-200 answers` : ''),
          });
        } finally {
          await bare.stop();
        }
      }
      figures.push(await writeThroughput(ctx.tmp, { ...load, headers: { ...headers, 'content-type': 'application/json' } }));
    } finally {
      await service.stop();
      await uncachedService.stop();
    }
    return figures;
  },
};

/** POST throughput with durable commits (FULL) against relaxed ones (NORMAL), each on a fresh file. */
async function writeThroughput(tmp: string, load: Parameters<typeof runLoad>[2]): Promise<Figure> {
  const full = await startServiceChild({ dbFile: join(tmp, 'writes-full.db'), durability: 'full' });
  const relaxed = await startServiceChild({ dbFile: join(tmp, 'writes-relaxed.db'), durability: 'relaxed' });
  const post = { ...load, method: 'POST' as const, body: JSON.stringify({ description: 'bench write', metadata: '{"bench":true}' }) };
  try {
    const f: number[] = [];
    const r: number[] = [];
    let errors = 0;
    for (let i = 0; i < reps(0, 3).reps; i++) {
      const a = await runLoad(full.url, '/ip_policies', post);
      const b = await runLoad(relaxed.url, '/ip_policies', post);
      f.push(a.rps);
      r.push(b.rps);
      errors += a.errors + b.errors;
    }
    const ratio = median(f) / median(r);
    return {
      name: 'service-throughput/writes',
      values: [['relaxed (synchronous=NORMAL)', perSec(median(r))], ['durable (synchronous=FULL)', perSec(median(f))]],
      ratio,
      target: 'reported',
      ok: errors === 0,
      note: `POST /ip_policies, ${CONNECTIONS} connections; durable runs ${f.map(Math.round).join('/')} req/s, relaxed ${r.map(Math.round).join('/')} req/s` +
        (errors ? `; ${errors} non-201 answers` : ''),
    };
  } finally {
    await full.stop();
    await relaxed.stop();
  }
}
