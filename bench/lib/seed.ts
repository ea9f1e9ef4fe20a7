// Seeding: generated manifests applied once through the real pipeline (plan + apply at concurrency 16) into
// a service child's SQLite file, which is then closed and copied for each benchmark that needs it. Seeding
// through the engine writes exactly the ownership markers the engine later matches, with no second copy of
// that format here.
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createApi } from '../../src/client/http.ts';
import { computePlan, executePlan, loadDesired } from '../../src/pipeline.ts';
import { countByKind, generateDocs, writeManifests } from './generate.ts';
import { nowMs } from './measure.ts';
import { startServiceChild, type ServiceChild } from './service-child.ts';

export const STACK = 'bench';

export interface SeedSet {
  count: number;
  /** The seeded SQLite file; copy it with `useSeed`, never open it directly. */
  template: string;
  /** The manifests that were applied; a plan of them against the seeded service has no actions. */
  manifestDir: string;
  kinds: Record<string, number>;
  seedMs: number;
  /** Actions of the plan right after seeding: 0 unless the engine shows a perpetual diff. */
  residualActions: number;
}

export async function seed(tmp: string, count: number, log: (m: string) => void): Promise<SeedSet> {
  const dir = join(tmp, `seed-${count}`);
  const manifestDir = join(dir, 'manifests');
  const docs = generateDocs(count);
  await writeManifests(manifestDir, docs, Math.max(1, Math.ceil(count / 50)));
  await mkdir(dir, { recursive: true });
  const template = join(dir, 'template.db');
  const started = nowMs();
  const service = await startServiceChild({ dbFile: template });
  const api = createApi({ url: service.url, apiKey: service.apiKey, concurrency: 16 });
  let residualActions: number;
  try {
    const desired = await loadDesired([manifestDir], undefined, { stack: STACK });
    const ctx = await computePlan(desired, api, { stack: STACK });
    log(`seeding ${count} resources (${ctx.plan.actions.length} actions)`);
    const result = await executePlan(ctx, api, { stack: STACK, concurrency: 16 });
    if (!result.ok) {
      const failed = result.results.filter((r) => r.status === 'failed');
      throw new Error(`seeding ${count}: ${failed.length} actions failed, first: ${failed[0]?.actionId}: ${failed[0]?.error?.message}`);
    }
    residualActions = (await computePlan(desired, api, { stack: STACK })).plan.actions.length;
  } finally {
    await api.close();
    await service.stop();
  }
  const seedMs = nowMs() - started;
  log(`seeded ${count} resources in ${(seedMs / 1000).toFixed(1)} s${residualActions ? `, ${residualActions} actions remain` : ''}`);
  return { count, template, manifestDir, kinds: countByKind(docs), seedMs, residualActions };
}

let copies = 0;

/** A private copy of a seeded template, so no benchmark sees another's writes. */
export async function useSeed(set: SeedSet, tmp: string): Promise<string> {
  const file = join(tmp, `db-${set.count}-${++copies}.db`);
  await copyFile(set.template, file);
  for (const ext of ['-wal', '-shm']) {
    // Present only if the service did not checkpoint on close.
    if (await stat(set.template + ext).catch(() => undefined)) await copyFile(set.template + ext, file + ext);
  }
  return file;
}

/** Starts a service child on a private copy of the seeded template. */
export async function startSeeded(set: SeedSet, tmp: string, opts: { readCache?: boolean } = {}): Promise<ServiceChild> {
  return startServiceChild({ dbFile: await useSeed(set, tmp), ...opts });
}
