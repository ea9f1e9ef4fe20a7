// Benchmark 3: apply of 1,000 creates against a service that delays every request by 10 ms, at concurrency 8
// vs 1, on a fresh empty database each time. Target: >= 6x faster, with every action started only after the
// actions it depends on finished.
import { join } from 'node:path';
import { createApi } from '../src/client/http.ts';
import type { ApplyEvent } from '../src/engine/plan-data.ts';
import type { DesiredState } from '../src/manifest/document.ts';
import { computePlan, executePlan, loadDesired } from '../src/pipeline.ts';
import type { Benchmark } from './lib/context.ts';
import { ms, spread } from './lib/figure.ts';
import { generateDocs, writeManifests } from './lib/generate.ts';
import { median, nowMs, reps, timeMs } from './lib/measure.ts';
import { STACK } from './lib/seed.ts';
import { startServiceChild } from './lib/service-child.ts';

const COUNT = 1000;
const LATENCY_MS = 10;
const FAULTS = { latencyMs: LATENCY_MS };

interface ApplyRun {
  ms: number;
  creates: number;
  /** Actions that started before one of their dependencies finished. */
  orderViolations: string[];
  /** Latency the service actually added: the fastest of a few GETs. */
  probeMs: number;
}

let runs = 0;

async function applyOnce(tmp: string, desired: DesiredState, concurrency: number): Promise<ApplyRun> {
  const service = await startServiceChild({ dbFile: join(tmp, `apply-${++runs}.db`), faults: FAULTS });
  // As `edgeops apply --concurrency N` does: the client's request bound follows the flag.
  const api = createApi({ url: service.url, apiKey: service.apiKey, concurrency });
  try {
    // The fastest of a few GETs after a warm-up: what the service adds on top of a warm connection.
    await api.get('/ip_policies?limit=1');
    let probeMs = Infinity;
    for (let i = 0; i < 5; i++) probeMs = Math.min(probeMs, await timeMs(() => api.get('/ip_policies?limit=1')));
    const ctx = await computePlan(desired, api, { stack: STACK });
    const creates = ctx.plan.actions.filter((a) => a.op === 'create').length;
    const done = new Set<string>();
    const orderViolations: string[] = [];
    const onEvent = (e: ApplyEvent) => {
      if (e.type === 'start') {
        const missing = e.action.dependsOn.filter((d) => !done.has(d));
        if (missing.length) orderViolations.push(`${e.action.id} before ${missing.join(', ')}`);
      } else if (e.type === 'done') done.add(e.action.id);
    };
    const start = nowMs();
    const result = await executePlan(ctx, api, { stack: STACK, concurrency, onEvent });
    const elapsed = nowMs() - start;
    if (!result.ok) {
      const failed = result.results.filter((r) => r.status === 'failed');
      throw new Error(`apply at concurrency ${concurrency}: ${failed.length} failed, first ${failed[0]?.actionId}: ${failed[0]?.error?.message}`);
    }
    return { ms: elapsed, creates, orderViolations, probeMs };
  } finally {
    await api.close();
    await service.stop();
  }
}

export const applyConcurrency: Benchmark = {
  name: 'apply-concurrency',
  id: 3,
  title: `apply of ${COUNT} creates with ${LATENCY_MS} ms injected latency, concurrency 8 vs 1`,
  async run(ctx) {
    const dir = join(ctx.tmp, 'apply-manifests');
    await writeManifests(dir, generateDocs(COUNT), 20);
    const desired = await loadDesired([dir], undefined, { stack: STACK });
    const { warmup, reps: n } = reps(1, 3);
    for (let i = 0; i < warmup; i++) await applyOnce(ctx.tmp, desired, 8);
    const c1: ApplyRun[] = [];
    const c8: ApplyRun[] = [];
    for (let i = 0; i < n; i++) {
      c1.push(await applyOnce(ctx.tmp, desired, 1));
      c8.push(await applyOnce(ctx.tmp, desired, 8));
    }
    const t1 = median(c1.map((r) => r.ms));
    const t8 = median(c8.map((r) => r.ms));
    const ratio = t1 / t8;
    const violations = [...c1, ...c8].flatMap((r) => r.orderViolations);
    const probe = median([...c1, ...c8].map((r) => r.probeMs));
    const latencyMissing = probe < LATENCY_MS * 0.9;
    const notes = [
      `${c8[0]!.creates} create actions per apply (self-check re-plan included)`,
      `c1 ${spread(c1.map((r) => r.ms))}; c8 ${spread(c8.map((r) => r.ms))}`,
      `fastest GET ${probe.toFixed(1)} ms` + (latencyMissing ? ` -- the service ignored faults.latencyMs=${LATENCY_MS} (latency injection missing)` : ''),
      violations.length ? `ORDER VIOLATED ${violations.length}x, e.g. ${violations[0]}` : 'dependency order kept in every run',
    ];
    return [
      {
        name: 'apply-concurrency',
        values: [['c1', ms(t1)], ['c8', ms(t8)], ['order', violations.length ? 'VIOLATED' : 'kept']],
        ratio,
        target: '>= 6x',
        ok: ratio >= 6 && violations.length === 0 && !latencyMissing,
        note: notes.join('; '),
      },
    ];
  },
};
