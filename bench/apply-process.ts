// Benchmark 8: whole-process `edgeops apply --auto-approve` of 1,000 creates into an empty account with 20 ms
// injected by the service into every request, against a model that issues the same write requests with the
// same concurrency in dependency order (bench/apply-model.mjs). The requests are recorded from one edgeops
// apply through a proxy; every timed run gets a fresh, empty SQLite file. Paired: edgeops and the model alternate.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_CONCURRENCY } from '../src/cli/settings.ts';
import { isLockRecord } from '../src/lock/lock-record.ts';
import type { Obj } from '../src/kinds/resource-kind.ts';
import { benchDir } from './lib/child.ts';
import { cliEntry, expectExit, timeEdgeops, timeProcess, type ProcessRun } from './lib/cli.ts';
import type { Benchmark } from './lib/context.ts';
import { ms, spread } from './lib/figure.ts';
import { generateDocs, writeManifests } from './lib/generate.ts';
import { median, pairedRatio } from './lib/measure.ts';
import { startRecorder, type Exchange } from './lib/recorder.ts';
import { STACK } from './lib/seed.ts';
import { startServiceChild } from './lib/service-child.ts';

const LATENCY_MS = 20;

interface ModelRequest {
  method: string;
  path: string;
  body?: unknown;
  /** The recorded id this request's answer carried (a create). */
  creates?: string;
  /** Recorded ids of earlier creates this request names. */
  uses: string[];
}

/** The resource writes of a recorded apply, in the order they completed, each with the creates it depends on. */
export function modelRequests(exchanges: Exchange[]): ModelRequest[] {
  const lockIds = new Set<string>();
  const created: string[] = [];
  const out: ModelRequest[] = [];
  for (const x of exchanges) {
    if (x.method === 'GET' || x.status >= 300) continue;
    const answerId = (x.answer as Obj | undefined)?.id;
    if (x.method === 'POST' && isLockRecord((x.body ?? {}) as Obj)) {
      if (typeof answerId === 'string') lockIds.add(answerId);
      continue;
    }
    if ([...lockIds].some((id) => x.path.includes(id))) continue;
    const text = `${x.path} ${JSON.stringify(x.body ?? null)}`;
    const uses = created.filter((id) => text.includes(id));
    const creates = x.method === 'POST' && typeof answerId === 'string' ? answerId : undefined;
    if (creates) created.push(creates);
    out.push({ method: x.method, path: x.path, body: x.body, creates, uses });
  }
  return out;
}

export const applyProcess: Benchmark = {
  name: 'apply-process',
  id: 8,
  title: `whole-process edgeops apply of 1,000 creates at ${LATENCY_MS} ms vs the same requests in dependency order`,
  async run(ctx) {
    const count = process.env.BENCH_QUICK ? 200 : 1000;
    const dir = join(ctx.tmp, 'apply-process');
    await writeManifests(join(dir, 'manifests'), generateDocs(count), Math.max(1, count / 50));
    let dbs = 0;
    const fresh = () => startServiceChild({ dbFile: join(dir, `empty-${++dbs}.db`), faults: { latencyMs: LATENCY_MS } });
    const apply = (url: string, key: string) =>
      timeEdgeops(['apply', join(dir, 'manifests'), '--auto-approve', '--stack', STACK], { env: { EDGEOPS_API_URL: url, EDGEOPS_API_KEY: key, NO_COLOR: '1' } });

    // One apply through the recorder gives the model its requests.
    const service = await startServiceChild({ dbFile: join(dir, 'recorded.db') });
    const recorder = await startRecorder(service.url);
    try {
      expectExit(await apply(recorder.url, service.apiKey), [0], 'edgeops apply (recorded)');
    } finally {
      await recorder.close();
      await service.stop();
    }
    const requests = modelRequests(recorder.exchanges);
    const requestsFile = join(dir, 'requests.json');
    await writeFile(requestsFile, JSON.stringify(requests));

    const timed = async (run: (url: string, key: string) => Promise<ProcessRun>, what: string): Promise<number> => {
      const svc = await fresh();
      try {
        return expectExit(await run(svc.url, svc.apiKey), [0], what).ms;
      } finally {
        await svc.stop();
      }
    };
    const model = (url: string, key: string) =>
      timeProcess(process.execPath, [join(benchDir, 'apply-model.mjs'), url, key, requestsFile, String(DEFAULT_CONCURRENCY)]);
    const e: number[] = [];
    const m: number[] = [];
    for (let i = 0; i < (process.env.BENCH_QUICK ? 1 : 5); i++) {
      e.push(await timed(apply, 'edgeops apply'));
      m.push(await timed(model, 'apply model'));
    }
    const em = median(e);
    const mm = median(m);
    const ratio = pairedRatio(e, m);
    return [
      {
        name: `apply-process/${count}@${LATENCY_MS}ms`,
        values: [['model', ms(mm)], ['edgeops apply', ms(em)]],
        ratio,
        target: '<= 1.1x',
        ok: ratio <= 1.1,
        note: `${requests.length} writes (${requests.filter((r) => r.creates).length} creates), concurrency ${DEFAULT_CONCURRENCY}; edgeops ${spread(e)}; model ${spread(m)}; ratio = median of the per-round ratios; entry ${cliEntry()}`,
      },
    ];
  },
};
